import { describe, expect, it } from 'vitest';
import { describeCard, formatAmount, minorUnits } from './format';

const intl = (value: number, currency: string, digits: number, locale = 'en-US') =>
  new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);

describe('minorUnits', () => {
  it('knows zero- and three-decimal currencies, defaults to 2', () => {
    expect(minorUnits('JPY')).toBe(0);
    expect(minorUnits('krw')).toBe(0);
    for (const c of ['KWD', 'BHD', 'JOD', 'OMR', 'TND']) expect(minorUnits(c)).toBe(3);
    expect(minorUnits('USD')).toBe(2);
    expect(minorUnits('EUR')).toBe(2);
  });
});

describe('formatAmount', () => {
  it('formats integer minor units', () => {
    expect(formatAmount(1234, 'USD', 'en-US')).toBe('$12.34');
    expect(formatAmount(500, 'JPY', 'en-US')).toBe(intl(500, 'JPY', 0));
    expect(formatAmount(500, 'JPY', 'en-US')).toContain('500');
    expect(formatAmount(500, 'JPY', 'en-US')).not.toContain('5.00');
    expect(formatAmount(1234, 'KWD', 'en-US')).toBe(intl(1.234, 'KWD', 3));
    expect(formatAmount(1234, 'KWD', 'en-US')).toContain('1.234');
  });
  it('accepts lowercase currency codes and keeps trailing zeros', () => {
    expect(formatAmount(1000, 'usd', 'en-US')).toBe('$10.00');
    expect(formatAmount(5, 'EUR', 'de-DE')).toBe(intl(0.05, 'EUR', 2, 'de-DE'));
  });
  it('does not throw on a bad locale or currency', () => {
    expect(formatAmount(1234, 'USD', 'not a locale!')).toBe('12.34 USD');
    expect(formatAmount(1234, 'XX', 'en-US')).toBe('12.34 XX');
  });
});

describe('describeCard', () => {
  it('shows network and last 4', () => {
    expect(describeCard({ network: 'VISA', last4: '4242' })).toBe('Visa •••• 4242');
    expect(describeCard({ network: 'MASTERCARD', last4: '0004' })).toBe('Mastercard •••• 0004');
  });
});
