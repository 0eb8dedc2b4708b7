/**
 * Where an amount is cut around its symbol, and the plain text that keeps a right-to-left amount's
 * order (its order on screen is e2e/right-to-left-amounts.spec.ts's: Node lays nothing out).
 */
import { describe, expect, it } from 'vitest';
import { amountForText, aroundSymbol, directionOfLocale } from './amount-direction';

const format = (locale: string, currency: string) => new Intl.NumberFormat(locale, { style: 'currency', currency }).format(24);

describe('directionOfLocale', () => {
  it("reads the direction from the locale's script, as Intl fills it in", () => {
    expect(['ar', 'ar-EG', 'he-IL', 'fa', 'ur'].map(directionOfLocale)).toEqual(['rtl', 'rtl', 'rtl', 'rtl', 'rtl']);
    expect(['en', 'ja', 'sr-Latn', 'zh-Hant'].map(directionOfLocale)).toEqual(['ltr', 'ltr', 'ltr', 'ltr']);
  });

  it('takes a tag Intl refuses as left to right', () => {
    expect(directionOfLocale('x!')).toBe('ltr');
  });
});

describe('aroundSymbol', () => {
  it("cuts Intl's text around the symbol, whatever its script or side", () => {
    const arabic = format('ar', 'USD'); // "\u200f24.00\u00a0US$"
    expect(aroundSymbol(arabic)).toEqual([arabic.slice(0, arabic.indexOf('US$')), 'US$', '']);
    expect(aroundSymbol(format('ar', 'KWD'))[1]).toBe('د.ك.');
    expect(aroundSymbol(format('he', 'ILS'))[1]).toBe('₪');
    expect(aroundSymbol(format('en', 'USD'))).toEqual(['', '$', '24.00']);
    expect(aroundSymbol(format('ar-EG', 'USD'))[1]).toBe('US$');
  });

  it('leaves a text without a symbol whole', () => {
    expect(aroundSymbol('24.00')).toEqual(['24.00', '', '']);
  });
});

describe('amountForText', () => {
  it('isolates a right-to-left amount, and its symbol inside it, keeping every character', () => {
    const arabic = format('ar', 'USD');
    const isolated = amountForText(arabic, 'rtl');
    expect(isolated).toBe(`\u2067${arabic.slice(0, arabic.indexOf('US$'))}\u2068US$\u2069\u2069`);
    expect(isolated.replace(/[\u2066-\u2069]/g, '')).toBe(arabic);
  });

  it('leaves a left-to-right amount as Intl wrote it', () => {
    expect(amountForText(format('en', 'USD'), 'ltr')).toBe('$24.00');
  });
});
