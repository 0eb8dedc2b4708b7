/**
 * Checking a webhook delivery, with the very recipe the server signs with
 * (contracts/webhook-signature.ts, bundled into this package).
 */
import { checkSignature, SIGNATURE_HEADER, SIGNATURE_TOLERANCE_SECONDS } from '../../../contracts/webhook-signature';
import { WebhookVerificationError } from './errors';
import type { Event } from './types';

export { SIGNATURE_HEADER, SIGNATURE_TOLERANCE_SECONDS };

export interface VerifyOptions {
  /** How far the signed time may be from your clock, in seconds: 300 (5 minutes) by default. Keep your clock on NTP rather than raising it. */
  toleranceSeconds?: number;
  /** Now, in unix seconds (for a receiver that replays stored deliveries on purpose). */
  now?: number;
}

const reasons = {
  malformed_header: `The ${SIGNATURE_HEADER} header is missing or is not t=<seconds>,v1=<hex>[,v1=<hex>]`,
  stale_timestamp: 'The delivery was signed too long ago (or too far ahead): a replay, or a clock out of sync',
  no_matching_signature: 'No signature matches the body with this secret: a changed body, a parsed-and-reserialized body, or the wrong secret',
} as const;

export const webhooks = {
  /**
   * The event a delivery carries, once its signature is checked: `rawBody` exactly as
   * received (before any JSON parsing), the `Wallet-Checkout-Signature` header, and the
   * endpoint's secret (or both while you roll it: any may match). Throws a
   * WebhookVerificationError whose `code` says why it refused.
   */
  verify(rawBody: string | Uint8Array, header: string | readonly string[] | null | undefined, secret: string | readonly string[], options: VerifyOptions = {}): Event {
    const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
    const headerValue = typeof header === 'string' ? header : (header ?? []).join(',');
    const secrets = typeof secret === 'string' ? [secret] : secret;
    if (secrets.length === 0 || secrets.some((candidate) => typeof candidate !== 'string' || candidate === '')) throw new TypeError('webhooks.verify: the endpoint secret (whsec_...) is required');
    const checks = secrets.map((candidate) => checkSignature(headerValue, body, candidate, options));
    // A malformed header or a stale time fails alike for every secret; otherwise none matched.
    const failure = checks.every((check): check is keyof typeof reasons => check !== 'verified') ? checks[0] : undefined;
    if (failure) throw new WebhookVerificationError(failure, reasons[failure]);
    try {
      // Signed by the API: its shape is the contract's, and an event type newer than this library still parses.
      return JSON.parse(body) as Event;
    } catch {
      throw new WebhookVerificationError('invalid_payload', 'The delivery verified but its body is not JSON');
    }
  },
};
