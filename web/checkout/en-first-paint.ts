import type { FirstPaintMessages } from './locales';

/**
 * English's first-paint words, in the first script (mount-words.ts); the rest of English
 * (locales/en.ts) is in the after-click chunk (payment-flow.ts), which carries `en`. Not in
 * locales/ (whose files are the languages), and a module of its own, so the first script keeps
 * no trace of `en`'s spreads.
 */
export const enFirstPaint = {
  loading: 'Loading checkout…',
  unavailable: "Google Pay isn't available on this device or browser. Please choose another way to pay.",
  retry: 'Try again',
  errors: { network_error: "We couldn't reach the payment server. Check your connection and try again." },
} satisfies FirstPaintMessages;
