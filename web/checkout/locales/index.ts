/**
 * The widget's words, one small dictionary per language (no i18n library: five
 * flat objects cost less than any). A locale tag picks its language by its
 * primary subtag ('fr-CA' -> fr); anything else is English. The first script carries English's
 * first-paint words (`enFirstPaint`); the rest of English comes with the after-click chunk
 * (payment-flow.ts), the other languages as chunks of their own, loaded when a widget speaks them
 * (load.ts).
 */
import { usableLocale } from '../../../server/contracts/locale';
import type { CheckoutErrorCode, SupportedLocale } from '../types';

/**
 * The languages and their text direction, known before their words arrive so that the
 * first paint is laid out the right way. Each but English is built into a chunk of its own
 * from `./<language>.ts` (vite.config.ts).
 */
export const LANGUAGES: Readonly<Record<SupportedLocale, 'ltr' | 'rtl'>> = { en: 'ltr', fr: 'ltr', de: 'ltr', es: 'ltr', ar: 'rtl' };

export interface Messages {
  loading: string;
  processing: string;
  confirming: string;
  paid: string;
  unavailable: string;
  /** A decline whose failure code the dictionary doesn't know. */
  declined: string;
  retry: string;
  /** A hold was placed: the store charges the card later. */
  authorized: string;
  /** That hold, since captured by the store. */
  captured: string;
  /** That hold, since released by the store: nothing is charged. */
  released: string;
  /** While the bank's 3-D Secure challenge is open. */
  authenticating: string;
  /** The challenge dialog: its heading, the frame's accessible name, and the button that closes it. */
  challenge: { title: string; frame: string; cancel: string };
  errors: Record<CheckoutErrorCode, string>;
  /**
   * Declines by the payment service's failure code. The service's reasons are
   * English, so English leaves this empty and shows them as they come.
   */
  declines: Partial<Record<string, string>>;
}

/**
 * What a widget may have to say before, or without, any chunk: its first paint (loading, the button,
 * the button's unavailability) and a network error with its "Try again" (no chunk can be had).
 */
export interface FirstPaintMessages {
  loading: string;
  unavailable: string;
  retry: string;
  errors: Pick<Record<CheckoutErrorCode, string>, 'network_error'>;
}

/** The words at hand: a whole dictionary, or (English, until the after-click chunk is here) the first paint's. */
export type Words = Partial<Omit<Messages, 'errors'>> & { errors: Partial<Messages['errors']> };

/**
 * The widget's locale: the first of `candidates` (most specific first: the
 * merchant's option, the page's `lang`, the browser's language) that is a locale,
 * in its canonical form; English when none is ("C" from a browser on a system
 * without one).
 */
export function negotiateLocale(candidates: readonly (string | null | undefined)[]): string {
  for (const candidate of candidates) {
    const locale = usableLocale(candidate);
    if (locale) return locale;
  }
  return 'en';
}

export function languageOf(locale: string): SupportedLocale {
  const language = locale.split(/[-_]/)[0]?.toLowerCase() ?? '';
  return language in LANGUAGES ? (language as SupportedLocale) : 'en';
}

/**
 * What the shopper reads for a decline: the dictionary's copy for its code, else, in English (whose
 * `declines` is empty), the service's reason as it comes, else the dictionary's general decline.
 * Undefined while the words are not here.
 */
export function declineMessage(t: Words, code: string | null, serviceMessage: string | null): string | undefined {
  if (!t.declines) return undefined;
  return (code && t.declines[code]) || (Object.keys(t.declines).length === 0 && serviceMessage) || t.declined;
}
