/**
 * The signature of a webhook delivery, as docs/webhooks.md tells receivers to check it:
 * `Wallet-Checkout-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`,
 * one `v1` per live secret, newest first (two while a secret is being rolled).
 * The timestamp is signed, so a receiver that refuses old ones is not open to a
 * delivery replayed later.
 *
 * One definition for both sides: the server signs with it (server/webhooks/delivery.ts) and the
 * Node library checks with it (packages/node, `webhooks.verify`). Node's crypto only, no other
 * import, so the library bundles it as it is. Not exported from contracts/index.ts: the browser
 * bundles import that index, and this needs node:crypto.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'Wallet-Checkout-Signature';
/** How old (or how far ahead) a signed timestamp a receiver accepts by default, in seconds: 5 minutes. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const sign = (secret: string, timestamp: number, body: string) => createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

/** The header's value for `body`, signed at `timestamp` (unix seconds) by each secret in order. */
export function signatureHeader(secrets: readonly string[], body: string, timestamp: number): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${sign(secret, timestamp, body)}`)].join(',');
}

/** Why a delivery does not verify; `verified` when it does. */
export type SignatureCheck = 'verified' | 'malformed_header' | 'stale_timestamp' | 'no_matching_signature';

export interface SignatureCheckOptions {
  /** Now, in unix seconds. */
  now?: number;
  /** How far from `now` the signed timestamp may be, in seconds (SIGNATURE_TOLERANCE_SECONDS by default). */
  toleranceSeconds?: number;
}

/**
 * Whether `header` signs `body` with `secret` at a time within the tolerance of
 * now: any `v1` may match, compared in constant time. A header without a whole
 * `t` or without any `v1` is malformed.
 */
export function checkSignature(header: string, body: string, secret: string, { now = Math.floor(Date.now() / 1000), toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS }: SignatureCheckOptions = {}): SignatureCheck {
  const fields = header.split(',').map((field) => {
    const at = field.indexOf('=');
    return at < 0 ? { name: field.trim(), value: '' } : { name: field.slice(0, at).trim(), value: field.slice(at + 1).trim() };
  });
  const timestampField = fields.find(({ name }) => name === 't')?.value ?? '';
  const signatures = fields.filter(({ name, value }) => name === 'v1' && /^[0-9a-f]+$/i.test(value)).map(({ value }) => Buffer.from(value, 'hex'));
  if (!/^\d{1,12}$/.test(timestampField) || signatures.length === 0) return 'malformed_header';
  const timestamp = Number(timestampField);
  if (Math.abs(now - timestamp) > toleranceSeconds) return 'stale_timestamp';
  const expected = Buffer.from(sign(secret, timestamp, body), 'hex');
  return signatures.some((given) => given.length === expected.length && timingSafeEqual(given, expected)) ? 'verified' : 'no_matching_signature';
}
