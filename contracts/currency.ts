/**
 * The one currency table of the product: which ISO 4217 codes a session may
 * be in and each one's exponent (its number of minor-unit digits).
 *
 * Source: ISO 4217 List One, the XML that the ISO 4217 maintenance agency
 * publishes, as shipped (and kept current) by the npm package `currency-codes`
 * (`iso-4217-list-one.xml`; its publication date is the package's `publishDate`).
 * The XML is read rather than the package's JavaScript data, because only the
 * XML keeps two facts the data drops: the `IsFund` mark (BOV, CLF, COU, MXV,
 * USN, UYI, CHE, CHW are accounting units, not money a shopper pays in)
 * and the minor unit "N.A." of the codes that are not currencies at all (gold,
 * SDR, XTS for testing, XXX for "no currency"), which the data turns into 0.
 *
 * ICU (Intl) is not used for exponents: for IQD, COP, HUF, IDR and a dozen
 * more its display digits differ from ISO's, and a service charging in ISO
 * units would then take 100 or 1000 times what the wallet's sheet showed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { googlePayPrice, minorUnitsToDecimal } from './money';

const listOne = readFileSync(createRequire(import.meta.url).resolve('currency-codes/iso-4217-list-one.xml'), 'utf8');

function paymentCurrencies(xml: string): Map<string, number> {
  const exponents = new Map<string, number>();
  for (const [, entry] of xml.matchAll(/<CcyNtry>([\s\S]*?)<\/CcyNtry>/g)) {
    const code = /<Ccy>([A-Z]{3})<\/Ccy>/.exec(entry!)?.[1];
    const minorUnits = /<CcyMnrUnts>(\d+)<\/CcyMnrUnts>/.exec(entry!)?.[1];
    const isFund = /<CcyNm[^>]*IsFund="true"/.test(entry!);
    if (code && minorUnits !== undefined && !isFund) exponents.set(code, Number(minorUnits));
  }
  return exponents;
}

const exponents = paymentCurrencies(listOne);
if (exponents.size < 150) throw new Error(`ISO 4217 list one yielded only ${exponents.size} currencies: is currency-codes' XML intact?`);

/** Every active ISO 4217 currency a payment can be made in, upper case, sorted. */
export const paymentCurrencyCodes: readonly string[] = [...exponents.keys()].sort();

/** The exponent of an active payment currency (case-insensitive), or undefined for any other code. */
export const currencyExponent = (code: string): number | undefined => exponents.get(code.toUpperCase());

export const isPaymentCurrency = (code: string): boolean => currencyExponent(code) !== undefined;

/**
 * The exponent of a stored amount's currency. Every session's currency was
 * checked when it was created, so a miss is a currency ISO has withdrawn since
 * (docs/api.md): refused loudly rather than shown with guessed decimals.
 */
export function exponentOf(currency: string): number {
  const exponent = currencyExponent(currency);
  if (exponent === undefined) throw new Error(`${currency} is not an active ISO 4217 currency (withdrawn since the amount was stored?)`);
  return exponent;
}

/** Google Pay's `totalPrice` and every displayed amount: an exact decimal string in major units. */
export const amountToDecimal = (amount: number, currency: string): string => minorUnitsToDecimal(amount, exponentOf(currency));

/**
 * The currencies whose amounts Google Pay cannot always show: those with more than two decimals
 * (BHD, IQD, JOD, KWD, LYD, OMR, TND with three, UYW with four in today's list), read from the table.
 */
export const googlePayRestrictedCurrencies: readonly string[] = paymentCurrencyCodes.filter((code) => exponentOf(code) > 2);

/** An amount as Google Pay's totalPrice (money.ts googlePayPrice), or undefined when it needs more than two decimals. */
export const googlePayPriceOf = (amount: number, currency: string): string | undefined => googlePayPrice(amount, exponentOf(currency));
