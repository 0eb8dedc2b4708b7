import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { buildPaymentDataRequest } from './payment-data-request';
import type { App } from '../server/apps';
import { ChargeRequest, CreateSessionBody } from '.';
import { amountToDecimal, currencyExponent, isPaymentCurrency, paymentCurrencyCodes } from './currency';
import { decimalToMinorUnits, minorUnitsToDecimal } from './money';

/** ISO 4217 itself, read here independently of the table's parser: code -> minor units for the non-fund entries. */
const isoListOne = (() => {
  const xml = readFileSync(createRequire(import.meta.url).resolve('currency-codes/iso-4217-list-one.xml'), 'utf8');
  const entries = xml.split('<CcyNtry>').slice(1);
  return entries.map((e) => ({
    code: e.match(/<Ccy>(\w+)<\/Ccy>/)?.[1],
    minorUnits: e.match(/<CcyMnrUnts>([^<]+)<\/CcyMnrUnts>/)?.[1],
    fund: e.includes('IsFund="true"'),
  }));
})();

const app = { name: 'Shop', merchantId: '1', environment: 'SANDBOX', decryptionMode: 'gateway', authMethods: ['PAN_ONLY'], cardNetworks: ['VISA'] } as unknown as App;

describe('the currency table (ISO 4217 list one)', () => {
  it('holds every currency of the list with a numeric minor unit, at ISO exponent, and nothing else', () => {
    const expected = new Map(isoListOne.filter((e) => e.code && !e.fund && /^\d+$/.test(e.minorUnits ?? '')).map((e) => [e.code!, Number(e.minorUnits)]));
    expect(paymentCurrencyCodes.length).toBe(expected.size);
    for (const [code, digits] of expected) expect(currencyExponent(code), code).toBe(digits);
  });

  it('refuses funds, metals, SDR, the test and no-currency codes, and codes that are not ISO 4217', () => {
    const funds = isoListOne.filter((e) => e.fund).map((e) => e.code!);
    expect(funds).toEqual(expect.arrayContaining(['BOV', 'CLF', 'MXV', 'USN']));
    for (const code of [...funds, 'XAU', 'XAG', 'XDR', 'XTS', 'XXX', 'XBA', 'ABC', 'US', '']) expect(isPaymentCurrency(code), code).toBe(false);
  });

  it('uses ISO exponents where ICU disagrees (IQD 3; COP, HUF, IDR and others 2)', () => {
    expect(amountToDecimal(123456, 'IQD')).toBe('123.456');
    for (const code of ['COP', 'HUF', 'IDR', 'MGA', 'LAK', 'ALL', 'IRR', 'SOS', 'SYP', 'YER', 'LBP', 'MMK', 'AFN', 'KPW']) {
      expect(amountToDecimal(123456, code), code).toBe('1234.56');
    }
    expect(amountToDecimal(2400, 'usd')).toBe('24.00');
    expect(amountToDecimal(500, 'JPY')).toBe('500');
    expect(amountToDecimal(1, 'KWD')).toBe('0.001');
    expect(amountToDecimal(1, 'UYW')).toBe('0.0001');
  });

  it('round-trips every active code: minor units -> Google Pay totalPrice -> minor units, in at most two decimals', () => {
    for (const currency of paymentCurrencyCodes) {
      const exponent = currencyExponent(currency)!;
      // Google's two decimals: a three- or four-decimal currency's amount is a multiple of 10 or 100 (docs/api.md "Money").
      const step = 10 ** Math.max(0, exponent - 2);
      for (const amount of [1, 5, 99, 100, 123456, 99_999_999_999].map((n) => n * step).filter((n) => n <= 99_999_999_999)) {
        const { totalPrice = '', currencyCode } = buildPaymentDataRequest(app, { id: 'cs_1', amount, currency, countryCode: 'US' }, { gatewayName: 'g' }).transactionInfo ?? {};
        expect(currencyCode).toBe(currency);
        expect(totalPrice.split('.')[1]?.length ?? 0, `${currency} decimals`).toBe(Math.min(exponent, 2));
        expect(decimalToMinorUnits(totalPrice, Math.min(exponent, 2))! * step, `${amount} ${currency}`).toBe(amount);
      }
    }
  });
});

describe('exact decimal conversions', () => {
  it.each([
    [5, 2, '0.05'],
    [0, 3, '0.000'],
    [500, 0, '500'],
    [-1234, 2, '-12.34'],
  ])('%i with exponent %i is %s, and back', (amount, exponent, decimal) => {
    expect(minorUnitsToDecimal(amount, exponent)).toBe(decimal);
    expect(decimalToMinorUnits(decimal, exponent)).toBe(amount);
  });

  it('refuses a decimal with more digits than the currency has, or not a decimal at all', () => {
    expect(decimalToMinorUnits('1.005', 2)).toBeUndefined();
    expect(decimalToMinorUnits('1e3', 2)).toBeUndefined();
    expect(decimalToMinorUnits(' 1.00', 2)).toBeUndefined();
  });
});

describe('contracts that take a currency', () => {
  const session = { amount: 100, country_code: 'US' };
  it('a session is in an active ISO 4217 currency, any case, stored upper case', () => {
    expect(CreateSessionBody.parse({ ...session, currency: 'iqd' }).currency).toBe('IQD');
    for (const currency of ['XAU', 'BOV', 'XTS', 'ZZZ', 'usdx']) expect(CreateSessionBody.safeParse({ ...session, currency }).success, currency).toBe(false);
  });

  it('a charge to the service is in an active currency, lowercase', () => {
    const charge = { source_data: { type: 'payment_method', payment_method: 'pm_1' }, amount: 100 };
    expect(ChargeRequest.safeParse({ ...charge, currency: 'iqd' }).success).toBe(true);
    expect(ChargeRequest.safeParse({ ...charge, currency: 'xau' }).success).toBe(false);
    expect(ChargeRequest.safeParse({ ...charge, currency: 'USD' }).success).toBe(false);
  });
});
