/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';
import { promisedLanguages } from '../../../testing/promised-languages';
import { googleButtonLanguage } from '../button-options';
import { declineMessage, directionOf, LANGUAGES, languageOf, type Messages, negotiateLocale } from '.';
import { en } from './en';
import { fr } from './fr';

/** Every dictionary in this folder, by tag: `<tag>.ts` exporting `<tag without hyphens>` (the build's convention, vite.config.ts). */
const dictionaries: Record<string, Messages> = Object.fromEntries(
  Object.entries(import.meta.glob<Record<string, Messages>>('./*.ts', { eager: true }))
    .map(([file, module]) => [/^\.\/(.+)\.ts$/.exec(file)?.[1] ?? '', module] as const)
    .filter(([tag]) => LANGUAGES.includes(tag))
    .map(([tag, module]) => [tag, module[tag.replace(/-/g, '')] as Messages]),
);

/** The widget's languages as docs/embedding.md lists them, for the cases below whatever dictionaries this tree holds. */
const LISTED = promisedLanguages().map(({ tag }) => tag);

/** What may read the same in every language: brand names, the wallet's and the bank's own terms, digits. */
const SAME_IN_EVERY_LANGUAGE = /Google Pay|3-D Secure|\d/g;

/** The keys of `messages` whose text is English's, letter for letter, beyond what every language writes alike. */
function englishLeftovers(messages: Messages): string[] {
  const leftovers: string[] = [];
  const compare = (theirs: object, english: object, path: string) => {
    for (const [key, text] of Object.entries(theirs)) {
      const englishText = (english as Record<string, unknown>)[key];
      if (typeof text === 'object' && typeof englishText === 'object' && englishText) compare(text as object, englishText, `${path}${key}.`);
      else if (text === englishText && /\p{L}/u.test(String(text).replace(SAME_IN_EVERY_LANGUAGE, ''))) leftovers.push(`${path}${key}`);
    }
  };
  compare(messages, en, '');
  return leftovers;
}

describe('the dictionaries', () => {
  it('are every file of this folder the build makes a chunk of, English among them', () => {
    expect(Object.keys(dictionaries).sort()).toEqual([...LANGUAGES].sort());
    expect(LANGUAGES).toContain('en');
    for (const [tag, messages] of Object.entries(dictionaries)) expect(messages, `${tag}.ts exports ${tag.replace(/-/g, '')}`).toBeTruthy();
  });

  it('give every language every message, and the same decline codes', () => {
    const shape = (m: object): unknown => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, typeof v === 'object' ? shape(v) : typeof v]));
    const declineCodes = Object.keys(fr.declines).sort();
    for (const [tag, m] of Object.entries(dictionaries)) {
      if (tag === 'en') continue;
      expect(shape({ ...m, declines: {} }), tag).toEqual(shape({ ...en, declines: {} }));
      expect(Object.keys(m.declines).sort(), tag).toEqual(declineCodes);
      for (const text of [...Object.values(m.errors), ...Object.values(m.declines)]) expect(text, tag).toBeTruthy();
    }
  });

  it('leave no message in English (brand names and digits aside)', () => {
    for (const [tag, m] of Object.entries(dictionaries)) if (tag !== 'en') expect(englishLeftovers(m), tag).toEqual([]);
  });

  it('the leftover check finds a message left in English, and lets a brand name be', () => {
    const planted: Messages = { ...fr, retry: en.retry, challenge: { ...fr.challenge, cancel: en.challenge.cancel }, errors: { ...fr.errors, wallet_error: en.errors.wallet_error } };
    expect(englishLeftovers(planted)).toEqual(['retry', 'challenge.cancel', 'errors.wallet_error']);
    expect(englishLeftovers({ ...fr, challenge: { ...fr.challenge, frame: '3-D Secure' }, retry: 'Google Pay 2' })).toEqual([]);
  });

  it('are laid out right to left in Arabic and Hebrew, left to right in every other script', () => {
    expect(['ar', 'he', 'iw', 'ar-EG', 'en', 'fa'].map((locale) => directionOf(languageOf(locale) ?? 'en'))).toEqual(['rtl', 'rtl', 'rtl', 'rtl', 'ltr', 'ltr']);
    expect(LANGUAGES.filter((tag) => directionOf(tag) === 'rtl')).toEqual(['ar', 'he']);
  });
});

describe('languageOf: the dictionary a locale is spoken in', () => {
  const of = (locale: string) => languageOf(locale, LISTED);
  it('takes the tag itself first, whatever its case', () => {
    expect(['pt-PT', 'zh-Hant', 'sr-Latn', 'AR', 'pt-pt', 'zh-hant'].map(of)).toEqual(['pt-PT', 'zh-Hant', 'sr-Latn', 'ar', 'pt-PT', 'zh-Hant']);
  });
  it('then its language and script, then its language and region, as Intl fills them in', () => {
    expect(of('zh-TW')).toBe('zh-Hant');
    expect(of('zh-HK')).toBe('zh-Hant');
    expect(of('zh-Hant-HK')).toBe('zh-Hant');
    expect(of('zh-CN')).toBe('zh');
    expect(of('zh-SG')).toBe('zh');
    expect(of('sr-ME')).toBe('sr-Latn');
    expect(of('sr-Latn-RS')).toBe('sr-Latn');
    expect(of('sr-RS')).toBe('sr');
    expect(of('pt-PT')).toBe('pt-PT');
  });
  it('then its language: regions without a dictionary of their own', () => {
    expect(['pt-AO', 'pt-BR', 'fr-CA', 'de-CH', 'es-MX', 'en-GB', 'ar-EG'].map(of)).toEqual(['pt', 'pt', 'fr', 'de', 'es', 'en', 'ar']);
  });
  it('speaks Norwegian Bokmål and Nynorsk as Norwegian, and legacy tags as Intl canonicalizes them', () => {
    expect(['nb', 'nb-NO', 'nn', 'no'].map(of)).toEqual(['no', 'no', 'no', 'no']);
    expect(of('iw')).toBe('he');
    expect(of('in-ID')).toBe('id');
  });
  it('has none for a language the widget does not speak, or for what names no locale', () => {
    expect(['sw', 'fa-IR', 'C', 'POSIX', '', 'not a tag!'].map(of)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
  });
  it('reads a POSIX locale name as the locale it names', () => {
    expect(of('pt_PT.UTF-8')).toBe('pt-PT');
    expect(of('zh_TW.UTF-8')).toBe('zh-Hant');
  });
});

describe('declineMessage', () => {
  it("words a known code in the shopper's language, and shows the service's English reason as is", () => {
    expect(declineMessage(fr, 'insufficient_funds', 'The card has insufficient funds.')).toBe(fr.declines.insufficient_funds);
    expect(declineMessage(fr, 'something_new', 'Reason.')).toBe(fr.declined);
    expect(declineMessage(en, 'insufficient_funds', 'The card has insufficient funds.')).toBe('The card has insufficient funds.');
    expect(declineMessage(en, null, null)).toBe(en.declined);
  });

  it('words a wrong security code and do not honor as the generic decline, in every language, never with the service\'s reason', () => {
    for (const code of ['incorrect_cvc', 'do_not_honor']) {
      expect(declineMessage(fr, code, "The card's security code is incorrect.")).toBe(fr.declines.card_declined);
      expect(declineMessage(en, code, "The card's security code is incorrect.")).toBe(en.declined);
    }
  });

  it('words the generic decline the backend gives in place of a withheld one (card_declined, no reason) as the general decline in English', () => {
    expect(declineMessage(en, 'card_declined', null)).toBe(en.declined);
    expect(declineMessage(fr, 'card_declined', null)).toBe(fr.declines.card_declined);
  });
});

describe('negotiateLocale: the data-locale / mount option, the page\'s lang, the browser\'s languages in order, English', () => {
  const negotiate = (...candidates: (string | null | undefined)[]) => negotiateLocale(candidates, LISTED);
  it('takes the first candidate the widget speaks, in its canonical form', () => {
    expect(negotiate('fr-ca', 'de', 'en-US')).toBe('fr-CA');
    expect(negotiate(undefined, null, '', 'ar')).toBe('ar');
    expect(negotiate(undefined, 'ja', 'de-DE')).toBe('ja');
    expect(negotiate(undefined, undefined, 'pt-PT', 'pt-BR')).toBe('pt-PT');
  });
  it('passes over a candidate it does not speak for the next, so that the number format follows the words', () => {
    // A page in Swahili, a browser preferring Persian then Polish: Polish words, Polish amounts.
    expect(negotiate(undefined, 'sw', 'fa-IR', 'pl-PL', 'en-US')).toBe('pl-PL');
    expect(negotiate('sw', undefined, 'de-AT')).toBe('de-AT');
    expect(negotiate('sw', 'fa')).toBe('en');
  });
  it("passes over what a browser on a system without a locale reports ('C', 'POSIX'), and ends in English", () => {
    // WebKitGTK's navigator.language under LANG=C: the widget used to hand it to Intl, which threw, and showed "24.00 USD".
    expect(negotiate('', 'C')).toBe('en');
    expect(negotiate('POSIX', 'C.UTF-8')).toBe('en');
    expect(negotiate('C', 'es-MX')).toBe('es-MX');
    expect(negotiate('not a tag!', '12')).toBe('en');
  });
  it("reads a POSIX locale name as the locale it names ('fr_CA.UTF-8' is fr-CA)", () => {
    expect(negotiate('fr_CA.UTF-8')).toBe('fr-CA');
    expect(negotiate('de_DE@euro')).toBe('de-DE');
  });
  it('gives a locale Intl formats money with, as the widget shows it', () => {
    for (const reported of ['C', 'POSIX', 'en_US.UTF-8', 'sw']) {
      expect(new Intl.NumberFormat(negotiate(reported), { style: 'currency', currency: 'USD' }).format(24)).toBe('$24.00');
    }
  });
});

describe("the wallet button's language", () => {
  it("is the widget's as Google writes it, and none where Google's list lacks it", () => {
    const button = LISTED.map((tag) => [tag, googleButtonLanguage(tag)]);
    expect(Object.fromEntries(button.filter(([tag, google]) => tag !== google))).toEqual({ 'pt-PT': 'pt', 'zh-Hant': 'zh', 'sr-Latn': 'sr', he: undefined, hu: undefined, ro: undefined, vi: undefined });
  });
});
