/**
 * The widget's words, one small dictionary per language (no i18n library: flat objects cost less
 * than any), one file each: `./<tag>.ts` exporting `<tag without hyphens>: Messages` (`pt-PT.ts`
 * exports `ptPT`). The build discovers them (vite.config.ts); adding a language is adding its file
 * (docs/embedding.md, "Adding a language"). The first script carries English's first-paint words
 * (`enFirstPaint`) and the list of tags; the rest of English comes with the after-click chunk
 * (payment-flow.ts), each other language as a chunk of its own, loaded when a widget speaks it
 * (load.ts).
 */
import spokenTags, { rightToLeft } from 'wallet-checkout:languages';
import { usableLocale } from '../../../contracts/locale';
import { DECLINES_WORDED_AS } from '../../../contracts/shopper-declines';
import type { AGREEMENT_TEXT_IDS, RecurringInterval, SAVED_CARD_USAGES } from '../../../contracts/agreements';
import type { CheckoutErrorCode, SupportedLocale } from '../types';

type SavedCardUsage = (typeof SAVED_CARD_USAGES)[number];
type AgreementTextId = (typeof AGREEMENT_TEXT_IDS)[SavedCardUsage];

/** The dictionaries' tags (the files in this folder), known before any of their words arrive. */
export const LANGUAGES: readonly SupportedLocale[] = spokenTags;

/** The direction of a dictionary's language, so the first paint is laid out the right way. */
export const directionOf = (language: SupportedLocale): 'ltr' | 'rtl' => (rightToLeft.includes(language) ? 'rtl' : 'ltr');

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
  /**
   * In the wallet's sheet, kept open: the payment named a quote (a price from the shop for the sheet's
   * choices) that no longer holds or could not be confirmed; nothing was charged.
   */
  reviewOrder: string;
  /** The challenge dialog: its heading, the frame's accessible name, and the button that closes it. */
  challenge: { title: string; frame: string; cancel: string };
  errors: Record<CheckoutErrorCode, string>;
  /** A session that keeps the card for later payments: the agreement the shopper gives by paying (agreement-words.ts). */
  saving: SavingWords;
  /**
   * Declines by the payment service's failure code. The service's reasons are
   * English, so English leaves this empty and shows them as they come.
   */
  declines: Partial<Record<string, string>>;
}

/**
 * The words of a saved card's agreement. `agreements`: each text by its id (contracts/agreements.ts, whose
 * English they translate: a new id is a new text, translated anew), with `{merchant}`, `{what}`, `{amount}`,
 * `{period}` and `{threshold}` filled in; `subjects`: what `{what}` reads when the merchant named nothing;
 * `periods`: what `{period}` reads for one interval, and `many` for several (`{count}`: the number and
 * its unit as Intl words it, "3 months"); `nothingToday`: a setup's (nothing charged now).
 */
export interface SavingWords {
  agreements: Record<AgreementTextId, string>;
  subjects: Record<SavedCardUsage, string>;
  periods: Record<RecurringInterval | 'many', string>;
  nothingToday: string;
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
 * The dictionary that speaks `locale`, among `spoken` (default: the widget's), or undefined:
 * 1. the tag itself (pt-PT, zh-Hant);
 * 2. its language and script, then its language and region, as Intl fills them in
 *    (zh-TW and zh-HK are zh-Hant-*, sr-ME is sr-Latn-ME);
 * 3. its language (pt-AO -> pt), with Norwegian Bokmål and Nynorsk spoken as `no`.
 * Legacy tags are read as Intl canonicalizes them (iw -> he, in -> id); what names no
 * locale ('C', 'POSIX', 'x!') has none.
 */
export function languageOf(locale: string | null | undefined, spoken: readonly string[] = LANGUAGES): SupportedLocale | undefined {
  const tag = usableLocale(locale);
  if (!tag) return undefined;
  const spokenAs = (candidate: string) => spoken.find((spokenTag) => spokenTag.toLowerCase() === candidate.toLowerCase());
  // A page's lang is most often a spoken tag itself: found without setting up Intl's likely subtags.
  const exact = spokenAs(tag);
  if (exact) return exact;
  const full = new Intl.Locale(tag).maximize();
  const language = /^n[bn]$/.test(full.language) ? 'no' : full.language;
  for (const candidate of [`${language}-${full.script}`, `${language}-${full.region}`, language]) {
    const found = spokenAs(candidate);
    if (found) return found;
  }
  return undefined;
}

/**
 * The widget's locale (the words' language and the amount's number format): the first of
 * `candidates` (most specific first: the merchant's option, the page's `lang`, the browser's
 * languages in order) that the widget speaks, in its canonical form; English when none is. A
 * candidate the widget does not speak is passed over for the next, so the amount's number format
 * always follows the words (a page in Swahili, a browser preferring French: French words,
 * French number format).
 */
export function negotiateLocale(candidates: readonly (string | null | undefined)[], spoken: readonly string[] = LANGUAGES): string {
  for (const candidate of candidates) {
    if (languageOf(candidate, spoken)) return usableLocale(candidate) ?? 'en';
  }
  return 'en';
}

/**
 * What the shopper reads for a decline: the dictionary's copy for its code, else, in English (whose
 * `declines` is empty), the service's reason as it comes, else the dictionary's general decline.
 * A code worded as another (DECLINES_WORDED_AS: a wrong security code, do not honor) takes that
 * one's copy, or the general decline, never the service's reason. Undefined while the words are not here.
 */
export function declineMessage(t: Words, code: string | null, serviceMessage: string | null): string | undefined {
  if (!t.declines) return undefined;
  const wordedAs = code === null ? undefined : DECLINES_WORDED_AS[code];
  if (wordedAs !== undefined) return t.declines[wordedAs] || t.declined;
  return (code && t.declines[code]) || (Object.keys(t.declines).length === 0 && serviceMessage) || t.declined;
}
