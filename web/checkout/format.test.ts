import { describe, expect, it } from 'vitest';
import type { PublicSession } from '../../contracts';
import { amountText, describeCard } from './format';

describe('describeCard', () => {
  it('shows network and last 4', () => {
    expect(describeCard({ network: 'VISA', last4: '4242' })).toBe('Visa •••• 4242');
    expect(describeCard({ network: 'MASTERCARD', last4: '0004' })).toBe('Mastercard •••• 0004');
  });
});

describe('amountText', () => {
  const session = (fields: Partial<PublicSession>) => ({ amount: 2400, currency: 'EUR', currency_exponent: 2, amount_captured: null, amount_display: null, ...fields }) as PublicSession;
  const german = new Intl.NumberFormat('de', { style: 'currency', currency: 'EUR' }).format(24);

  it("shows the server's text for the locale it was formatted for", () => {
    expect(amountText(session({ amount_display: { locale: 'de', text: 'the server’s text' } }), 'de')).toBe('the server’s text');
  });

  it('formats the amount itself in any other locale, or when the view carries no text', () => {
    expect(amountText(session({ amount_display: { locale: 'en', text: '€24.00' } }), 'de')).toBe(german);
    expect(amountText(session({}), 'de')).toBe(german);
  });

  it("shows a three-decimal amount in ISO's decimals, whatever Google Pay's sheet is asked to show", () => {
    // Google's request says 1.23 (it takes two decimals: docs/api.md "Money"); the widget shows the amount charged.
    const kwd = session({ amount: 1230, currency: 'KWD', currency_exponent: 3 });
    expect(amountText(kwd, 'en')).toBe(new Intl.NumberFormat('en', { style: 'currency', currency: 'KWD', minimumFractionDigits: 3 }).format(1.23));
    expect(amountText(kwd, 'en')).toContain('1.230');
  });

  it("shows a hold's captured part in place of the amount", () => {
    expect(amountText(session({ amount_captured: 1000 }), 'en')).toBe(new Intl.NumberFormat('en', { style: 'currency', currency: 'EUR' }).format(10));
  });
});
