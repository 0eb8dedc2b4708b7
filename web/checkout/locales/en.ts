import type { Messages } from '.';
import { AGREEMENT_TEXTS, DEFAULT_AGREEMENT_SUBJECT, periodText } from '../../../contracts/agreements';
import { enFirstPaint } from '../en-first-paint';

export { enFirstPaint };

/** English, whole: the after-click chunk's (payment-flow.ts). */
export const en: Messages = {
  ...enFirstPaint,
  processing: 'Processing your payment…',
  confirming: "We are confirming your payment. Please keep this page open: you won't be charged twice.",
  paid: 'Payment complete. Thank you!',
  declined: 'Your card was declined. Try again with another card.',
  authorized: 'Payment authorized. The store will charge your card when your order ships.',
  captured: 'Payment complete. The store has charged your card.',
  released: "The store cancelled this payment and released the hold on your card: you won't be charged.",
  authenticating: 'Confirm the payment with your bank to continue.',
  reviewOrder: "The price of your order couldn't be confirmed, and nothing was charged. Please review your order and try again.",
  challenge: { title: 'Confirm your payment', frame: "Your bank's verification (3-D Secure)", cancel: 'Cancel' },
  errors: {
    ...enFirstPaint.errors,
    invalid_client_secret: "This checkout isn't set up correctly. Please contact the store.",
    session_unauthorized: "This checkout couldn't be verified. Please reload the page, or go back to the store and start again.",
    origin_not_allowed: "This checkout isn't set up for this website. Please contact the store.",
    session_not_found: "This checkout wasn't found. It may have expired: please go back to the store and start again.",
    session_expired: 'This checkout has expired, and nothing was charged. Please go back to the store to start again.',
    server_error: 'Something went wrong on our side. Please try again.',
    store_unavailable: "Checkout is briefly unavailable. Please try again in a few seconds: you won't be charged twice.",
    wallet_unavailable: "Google Pay couldn't be loaded. Please try again.",
    wallet_error: "Google Pay couldn't complete the payment. Please try again.",
    payment_failed: "The payment couldn't be completed and nothing was charged. Please try again.",
    payment_not_completed: "Your payment wasn't completed and nothing was charged. You can try again.",
    challenge_blocked: "Your bank's verification couldn't be shown on this page, and nothing was charged. Please try another card or another way to pay.",
  },
  // The agreements' English is the contracts' own (one source with the text the server records), as is each period's word.
  saving: {
    agreements: { ...AGREEMENT_TEXTS },
    subjects: { ...DEFAULT_AGREEMENT_SUBJECT },
    periods: { day: periodText('day', 1), week: periodText('week', 1), month: periodText('month', 1), year: periodText('year', 1), many: '{count}' },
    nothingToday: 'Nothing is charged today.',
  },
  declines: {},
};
