/**
 * The widget's words, one small dictionary per language (no i18n library: five
 * flat objects cost less than any). A locale tag picks its language by its
 * primary subtag ('fr-CA' -> fr); anything else is English. English is in the
 * bundle; the others are chunks, loaded when a widget speaks them (load.ts).
 */
import { usableLocale } from '../../../server/contracts/locale';
import type { CheckoutErrorCode, SupportedLocale } from '../types';
import { en } from './en';

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

/** What the shopper reads for a decline: the dictionary's copy for its code, else the service's reason (English). */
export function declineMessage(t: Messages, code: string | null, serviceMessage: string | null): string {
  return (code && t.declines[code]) || (t === en && serviceMessage) || t.declined;
}
