/**
 * One event forwarded to a local receiver as the checkout delivers it (docs/webhooks.md#delivery):
 * the event's JSON as the body, byte for byte as recorded (the API serializes the recorded event
 * with JSON.stringify, and so does this: parsing and serializing again gives the same text), signed
 * with `Wallet-Checkout-Signature` by the same recipe (contracts/webhook-signature.ts), no redirect
 * followed, 10 seconds to answer.
 */
import { randomBytes } from 'node:crypto';
import { SIGNATURE_HEADER, signatureHeader } from '../../../../contracts/webhook-signature';
import type { Event } from '../types';

/** As the checkout's own WEBHOOK_TIMEOUT_MS default. */
const ANSWER_WITHIN_MS = 10_000;
const USER_AGENT = 'WalletCheckout-Webhooks/1.0 (wallet-checkout listen)';

/** A secret of the shape the checkout gives an endpoint (`whsec_` and 24 random bytes). */
export const newSigningSecret = (): string => `whsec_${randomBytes(24).toString('base64url')}`;

/** The receiver's status code, or why none came (never its body). */
export type Forwarded = { status: number } | { error: string };

export async function forwardEvent(to: URL, event: Event, secret: string, signal: AbortSignal): Promise<Forwarded> {
  const body = JSON.stringify(event);
  try {
    const response = await fetch(to, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': USER_AGENT, [SIGNATURE_HEADER]: signatureHeader([secret], body, Math.floor(Date.now() / 1000)) },
      body,
      redirect: 'manual',
      signal: AbortSignal.any([signal, AbortSignal.timeout(ANSWER_WITHIN_MS)]),
    });
    // The body is the receiver's business: drained, never read into a message.
    await response.body?.cancel();
    return { status: response.status };
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    return { error: reasonOf(error) };
  }
}

/** What a failed fetch comes to, in words: a timeout, or its cause's code (ECONNREFUSED...) or message (fetch's own "fetch failed" says nothing). */
function reasonOf(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${ANSWER_WITHIN_MS / 1000} s`;
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error) {
    const { code } = cause as Error & { code?: unknown };
    return typeof code === 'string' ? code : cause.message;
  }
  return error instanceof Error ? error.message : String(error);
}
