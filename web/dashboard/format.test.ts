/** The dashboard's formats: one date format per language (the seconds only where asked), and amounts that keep their order right to left. */
import { describe, expect, it } from 'vitest';
import type { DashboardPayment } from '../../contracts';
import { amountOf, dateTime } from './format';

// 12:05:37 UTC: the seconds (37) read the same in every time zone, and no zone's minutes are 37.
const instant = Date.UTC(2026, 10, 26, 12, 5, 37);

describe('dateTime', () => {
  it.each(['en-US', 'fr-FR', 'de-DE', 'es-ES'])('writes a timeline instant to the second, otherwise as the list does, in %s', (locale) => {
    const toMinute = dateTime(instant, locale);
    const toSecond = dateTime(instant, locale, 'second');
    expect(toSecond).toContain(':37');
    expect(toMinute).not.toContain(':37');
    // One format: the seconds are the only difference.
    expect(toSecond.replace(':37', '')).toBe(toMinute);
  });
});

describe('amountOf', () => {
  const payment = { currency: 'USD', currency_exponent: 2 } as DashboardPayment;

  it("keeps an Arabic amount's order in the Arabic dashboard's right-to-left page and sentences: isolated, its symbol too", () => {
    const intl = new Intl.NumberFormat('ar', { style: 'currency', currency: 'USD' }).format(24);
    expect(amountOf(payment, 2400, 'ar')).toBe(`\u2067${intl.replace('US$', '\u2068US$\u2069')}\u2069`);
  });

  it('writes a left-to-right amount as Intl does', () => {
    expect(amountOf(payment, 2400, 'en-US')).toBe('$24.00');
  });
});
