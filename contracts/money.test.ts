import { describe, expect, it } from 'vitest';
import { currencyExponent, paymentCurrencyCodes } from './currency';
import { formatAmount, googlePayPrice, minorUnitsToDecimal } from './money';

/** Intl puts a no-break space between amount and symbol in some locales: compared as a plain space. */
const plain = (text: string) => text.replace(/\u00a0/g, ' ');

describe('formatAmount', () => {
  it('formats integer minor units with the exponent it is given', () => {
    expect(formatAmount(1234, 'USD', 2, 'en-US')).toBe('$12.34');
    expect(formatAmount(500, 'JPY', 0, 'en-US')).toBe('¥500');
    expect(plain(formatAmount(1234, 'KWD', 3, 'en-US'))).toBe('KWD 1.234');
  });

  it('shows ISO decimals where ICU has others: 123456 IQD is 123.456, 123456 COP is 1,234.56', () => {
    expect(formatAmount(123456, 'IQD', 3, 'en-US')).toContain('123.456');
    expect(formatAmount(123456, 'COP', 2, 'en-US')).toContain('1,234.56');
    expect(formatAmount(123456, 'HUF', 2, 'en-US')).toContain('1,234.56');
  });

  it('shows every active ISO 4217 currency with exactly its exponent, at any size', () => {
    for (const code of paymentCurrencyCodes) {
      const exponent = currencyExponent(code)!;
      expect(formatAmount(999, code, exponent, 'en-US'), code).toContain(minorUnitsToDecimal(999, exponent));
      // Beyond a double's exact range in major units: the decimal string is formatted, not a float.
      expect(formatAmount(99_999_999_999, code, exponent, 'en-US').replace(/,/g, ''), code).toContain(minorUnitsToDecimal(99_999_999_999, exponent));
    }
  });

  it('accepts lowercase currency codes and keeps trailing zeros', () => {
    expect(formatAmount(1000, 'usd', 2, 'en-US')).toBe('$10.00');
    expect(plain(formatAmount(5, 'EUR', 2, 'de-DE'))).toBe('0,05 €');
  });

  it('makes one formatter for an amount drawn again and again, and still formats each locale and currency its own way', () => {
    const RealNumberFormat = Intl.NumberFormat;
    let made = 0;
    // Intl's typings make NumberFormat read-only; the runtime's Intl is not.
    const intl = Intl as { NumberFormat: typeof Intl.NumberFormat };
    intl.NumberFormat = function (...args: ConstructorParameters<typeof Intl.NumberFormat>) {
      made += 1;
      return new RealNumberFormat(...args);
    } as unknown as typeof Intl.NumberFormat;
    try {
      // Luxembourg's locales: no other test here formats in them, so none is made yet.
      const drawn = [1, 2, 3].map((paint) => formatAmount(1234 * paint, 'EUR', 2, 'de-LU'));
      expect(drawn.map(plain)).toEqual(['12,34 €', '24,68 €', '37,02 €']);
      expect(made).toBe(1);
      expect(plain(formatAmount(1234, 'EUR', 2, 'fr-LU'))).toBe('12,34 €');
      expect(plain(formatAmount(1234, 'USD', 2, 'de-LU'))).toBe('12,34 $');
      expect(made).toBe(3);
    } finally {
      intl.NumberFormat = RealNumberFormat;
    }
  });

  it('does not throw on a bad locale or currency', () => {
    expect(formatAmount(1234, 'USD', 2, 'not a locale!')).toBe('12.34 USD');
    expect(formatAmount(1234, 'XX', 2, 'en-US')).toBe('12.34 XX');
  });
});

describe('googlePayPrice', () => {
  it.each([
    [2400, 2, '24.00'],
    [500, 0, '500'],
    [1230, 3, '1.23'],
    [10, 3, '0.01'],
    [123400, 4, '12.34'],
  ])('%i with exponent %i is %s: a whole number or two decimals, the extra digits only dropped when zeros', (amount, exponent, price) => {
    expect(googlePayPrice(amount, exponent)).toBe(price);
  });

  it('is none for an amount that needs a third or fourth decimal: never rounded', () => {
    for (const [amount, exponent] of [[1234, 3], [1, 3], [123450, 4], [99_999_999_999, 3]] as const) expect(googlePayPrice(amount, exponent), `${amount}`).toBeUndefined();
  });
});
