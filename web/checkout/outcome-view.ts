/**
 * What the shopper is shown for an answer: a payment's outcome, a failed call, the sheet's own
 * result. Pure: the flow's decider (flow-decide.ts) asks these, the glue shows what they say.
 */
import type { PaymentOutcome } from '../../contracts';
import { isFrameableUrl } from '../../contracts/urls';
import { CheckoutApiError, errorCodeOf, isApiError } from './api';
import { declineMessage, type Messages } from './locales';
import { en } from './locales/en';
import type { View } from './states';
import type { CheckoutErrorCode } from './types';
import type { SheetResult } from './wallet-button';

/** A view, and what the merchant reads in the console about it (the shopper can do nothing about it). */
export interface Shown {
  view: View;
  warning?: string;
}

export const errorView = (code: CheckoutErrorCode, reason: string | null): View => ({ state: 'error', code, reason });

/** For the merchant's console: which origin was refused, and how to allow it. */
export const originNotAllowedHelp = (origin: string) =>
  `Wallet Checkout: this page's origin (${origin}) is not one of the allowed origins of the checkout's application, so the checkout refused it. ` +
  `Add ${origin} to the application's allowed origins (npm run app:update -- --app APP_ID --origin ${origin}); see docs/embedding.md.`;

/** For the merchant's console: the page's CSP refused the bank's challenge frame. */
export const challengeBlockedHelp = (origin: string) =>
  `WalletCheckout: this page's Content-Security-Policy blocked the bank's 3-D Secure challenge from ${origin}. ` +
  `Add ${origin} to the policy's frame-src directive, or shoppers whose card needs 3-D Secure cannot pay.`;

/** A payment's outcome (`reloaded`: an earlier page's attempt, found by a reload). */
export function outcomeView(outcome: PaymentOutcome, reloaded = false): View {
  switch (outcome.status) {
    case 'succeeded':
    case 'authorized':
      return { state: 'paid', outcome };
    case 'requires_authentication':
      // Only a page goes in the frame on the merchant's page, never a javascript: or data: URL (the backend refuses them too).
      if (outcome.challenge_url && !isFrameableUrl(outcome.challenge_url)) return errorView('server_error', 'challenge_url_refused');
      // Without a challenge to show (a frictionless one was under way), confirming finds the outcome.
      return { state: outcome.challenge_url ? 'authenticating' : 'confirming', outcome };
    case 'declined':
      return { state: 'declined', outcome, reloaded };
    case 'failed':
      return errorView('payment_failed', outcome.failure_code);
    case 'pending':
      return { state: 'confirming', outcome };
  }
}

/**
 * A failed call (anything thrown: an unreachable backend is a network error). `otherwise`: what a
 * refusal means for this call; `pageOrigin`: the page the shopper sees, named to the merchant when refused.
 */
export function failureView(err: unknown, otherwise: CheckoutErrorCode, pageOrigin: string): Shown {
  const e = isApiError(err) ? err : new CheckoutApiError(0, 'network_error', String(err));
  // The session's time ran out unpaid: a calm final state, not an error to retry; the merchant is told as of an error.
  if (e.code === 'session_expired') return { view: { state: 'expired' } };
  const code = errorCodeOf(e, otherwise);
  const view = errorView(code, e.status === 0 ? null : e.code);
  return code === 'origin_not_allowed' ? { view, warning: originNotAllowedHelp(pageOrigin) } : { view };
}

/** What a payment step the sheet waits for came to: the payment's outcome, or the error its call failed with. */
export type PaymentAnswer = { outcome: PaymentOutcome } | { error: unknown };

/**
 * A payment the backend refused, nothing charged, for what the shopper can answer in the open sheet:
 * `address`, the merchant's quote endpoint refused the full shipping address; `quote`, the quote the
 * payment named no longer holds (a newer one, another price for the full address) or could not be
 * confirmed just now. Undefined for any other failure, which the page shows.
 */
export function sheetRefusal(error: unknown): 'address' | 'quote' | undefined {
  if (!isApiError(error)) return undefined;
  if (error.status === 422 && error.code === 'shipping_address_unserviceable') return 'address';
  return (error.status === 409 && error.code === 'quote_mismatch') || (error.status === 503 && error.code === 'quote_unavailable') ? 'quote' : undefined;
}

/**
 * What the wallet's sheet shows once the payment it asked for is answered (null: no answer, shown on
 * the page): a decline, on the card; a refusal the shopper can answer there (sheetRefusal), the sheet
 * kept open to change the address, the option or a code and pay again. The merchant's refusal of the
 * address is shown on it in the merchant's words: the backend refuses an address only for a session
 * that asks for one, whose request declares SHIPPING_ADDRESS (contracts/payment-data-request.ts), as
 * Google requires of an error's intent.
 */
export function sheetResult(answer: PaymentAnswer | null, words: Messages | undefined): SheetResult {
  const t = words ?? en;
  if (answer && 'error' in answer) {
    const refusal = sheetRefusal(answer.error);
    if (refusal === 'address') return { transactionState: 'ERROR', error: { reason: 'SHIPPING_ADDRESS_UNSERVICEABLE', intent: 'SHIPPING_ADDRESS', message: (answer.error as Error).message } };
    if (refusal === 'quote') return { transactionState: 'ERROR', error: { reason: 'OTHER_ERROR', intent: 'PAYMENT_AUTHORIZATION', message: t.reviewOrder } };
    return { transactionState: 'SUCCESS' };
  }
  const outcome = answer?.outcome;
  if (outcome?.status !== 'declined') return { transactionState: 'SUCCESS' };
  const message = declineMessage(t, outcome.failure_code, outcome.failure_message) ?? en.declined;
  return { transactionState: 'ERROR', error: { reason: 'PAYMENT_DATA_INVALID', intent: 'PAYMENT_AUTHORIZATION', message } };
}
