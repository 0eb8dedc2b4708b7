import { describe, expect, it } from 'vitest';
import { declineMessage, LANGUAGES, languageOf, negotiateLocale } from '.';
import { ar } from './ar';
import { de } from './de';
import { en } from './en';
import { es } from './es';
import { fr } from './fr';

const dictionaries = { fr, de, es, ar };

describe('languageOf', () => {
  it('picks the language by primary subtag, English otherwise', () => {
    expect(languageOf('fr-CA')).toBe('fr');
    expect(languageOf('AR')).toBe('ar');
    expect(languageOf('pt-BR')).toBe('en');
    expect(languageOf('')).toBe('en');
  });
  it('gives every language every message, and the same decline codes', () => {
    const shape = (m: object): unknown => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, typeof v === 'object' ? shape(v) : typeof v]));
    const declineCodes = Object.keys(fr.declines).sort();
    expect(Object.keys(LANGUAGES).sort()).toEqual(['en', ...Object.keys(dictionaries)].sort());
    for (const m of Object.values(dictionaries)) {
      expect(shape({ ...m, declines: {} })).toEqual(shape({ ...en, declines: {} }));
      expect(Object.keys(m.declines).sort()).toEqual(declineCodes);
      for (const text of [...Object.values(m.errors), ...Object.values(m.declines)]) expect(text).toBeTruthy();
    }
    expect(LANGUAGES.ar).toBe('rtl');
  });
});

describe('declineMessage', () => {
  it("words a known code in the shopper's language, and shows the service's English reason as is", () => {
    expect(declineMessage(fr, 'insufficient_funds', 'The card has insufficient funds.')).toBe(fr.declines.insufficient_funds);
    expect(declineMessage(fr, 'something_new', 'Reason.')).toBe(fr.declined);
    expect(declineMessage(en, 'insufficient_funds', 'The card has insufficient funds.')).toBe('The card has insufficient funds.');
    expect(declineMessage(en, null, null)).toBe(en.declined);
  });
});

describe('negotiateLocale', () => {
  it('takes the first candidate that is a locale, in its canonical form', () => {
    expect(negotiateLocale(['fr-ca', 'de', 'en-US'])).toBe('fr-CA');
    expect(negotiateLocale([undefined, null, '', 'ar'])).toBe('ar');
  });
  it("passes over what a browser on a system without a locale reports ('C', 'POSIX'), and ends in English", () => {
    // WebKitGTK's navigator.language under LANG=C: the widget used to hand it to Intl, which threw, and showed "24.00 USD".
    expect(negotiateLocale(['', 'C'])).toBe('en');
    expect(negotiateLocale(['POSIX', 'C.UTF-8'])).toBe('en');
    expect(negotiateLocale(['C', 'es-MX'])).toBe('es-MX');
    expect(negotiateLocale(['not a tag!', '12'])).toBe('en');
  });
  it("reads a POSIX locale name as the locale it names ('fr_CA.UTF-8' is fr-CA)", () => {
    expect(negotiateLocale(['fr_CA.UTF-8'])).toBe('fr-CA');
    expect(negotiateLocale(['de_DE@euro'])).toBe('de-DE');
  });
  it('gives a locale Intl formats money with, as the widget shows it', () => {
    for (const reported of ['C', 'POSIX', 'en_US.UTF-8']) {
      expect(new Intl.NumberFormat(negotiateLocale([reported]), { style: 'currency', currency: 'USD' }).format(24)).toBe('$24.00');
    }
  });
});
