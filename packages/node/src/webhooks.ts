/**
 * Checking a webhook delivery, with the very recipe the server signs with
 * (contracts/webhook-signature.ts, bundled into this package).
 */
import { SIGNATURE_HEADER, SIGNATURE_TOLERANCE_SECONDS } from '../../../contracts/webhook-signature';
import { WebhookVerificationError } from './errors';
import { type SignedBodyKind, type VerifyOptions, verifySignedBody } from './signed-body';
import type { Event } from './types';

export { SIGNATURE_HEADER, SIGNATURE_TOLERANCE_SECONDS };

const delivery: SignedBodyKind = {
  method: 'webhooks.verify',
  secretForm: 'whsec_...',
  subject: 'The delivery',
  refuse: (code, message) => new WebhookVerificationError(code, message),
};

export const webhooks = {
  /**
   * The event a delivery carries, once its signature is checked: `rawBody` exactly as
   * received (before any JSON parsing), the `Wallet-Checkout-Signature` header, and the
   * endpoint's secret (or both while you roll it: any may match). Throws a
   * WebhookVerificationError whose `code` says why it refused.
   */
  verify(rawBody: string | Uint8Array, header: string | readonly string[] | null | undefined, secret: string | readonly string[], options: VerifyOptions = {}): Event {
    // Signed by the API: its shape is the contract's, and an event type newer than this library still parses.
    return verifySignedBody(delivery, rawBody, header, secret, options) as Event;
  },
};
