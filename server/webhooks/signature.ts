/**
 * The signature of a delivery, as docs/webhooks.md tells receivers to check it:
 * `Wallet-Checkout-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`,
 * one `v1` per live secret, newest first (two while a secret is being rolled).
 * The timestamp is signed, so a receiver that refuses old ones (5 minutes) is
 * not open to a delivery replayed later.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomId } from '../lib/secrets';

export const SIGNATURE_HEADER = 'Wallet-Checkout-Signature';
/** How old a signed timestamp a receiver accepts (docs/webhooks.md); the demo store holds to it. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export const newWebhookSecret = (): string => `whsec_${randomId(24)}`;

const sign = (secret: string, timestamp: number, body: string) => createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

/** The header's value for `body`, signed at `timestamp` (unix seconds) by each secret in order. */
export function signatureHeader(secrets: readonly string[], body: string, timestamp: number): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${sign(secret, timestamp, body)}`)].join(',');
}

/**
 * Whether `header` signs `body` with `secret`, at a time within the tolerance
 * of `now` (unix seconds): any `v1` may match, compared in constant time.
 */
export function verifySignature(header: string, body: string, secret: string, now = Math.floor(Date.now() / 1000)): boolean {
  const parts = header.split(',').map((part) => part.trim().split('='));
  const timestamp = Number(parts.find(([name]) => name === 't')?.[1]);
  if (!Number.isInteger(timestamp) || Math.abs(now - timestamp) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(sign(secret, timestamp, body), 'hex');
  return parts.some(([name, value]) => {
    if (name !== 'v1' || value === undefined) return false;
    const given = Buffer.from(value, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
