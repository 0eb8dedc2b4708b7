/**
 * Amounts are integers in the currency's ISO 4217 minor units; the exponent
 * (how many of those digits follow the decimal point) comes from the currency
 * table (./currency.ts), never from ICU. These two conversions are exact
 * decimal string work, no floating point, and pure so that the widget (and the
 * demo store's page, which shows prices as the widget does) can use them too.
 */

/** (123456, 3) -> "123.456"; (500, 0) -> "500"; (5, 2) -> "0.05". */
export function minorUnitsToDecimal(amount: number, exponent: number): `${number}` {
  const sign = amount < 0 ? '-' : '';
  const digits = String(Math.abs(amount));
  const padded = digits.padStart(exponent + 1, '0');
  const decimal = exponent === 0 ? sign + digits : `${sign}${padded.slice(0, -exponent)}.${padded.slice(-exponent)}`;
  return decimal as `${number}`;
}

/**
 * "123.456" with exponent 3 -> 123456; undefined for a string that is not a
 * plain decimal with at most `exponent` fraction digits (a wallet amount of
 * "1.005" USD has no exact minor-unit value).
 */
export function decimalToMinorUnits(decimal: string, exponent: number): number | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (!match) return undefined;
  const [, sign, whole, fraction = ''] = match;
  if (fraction.length > exponent) return undefined;
  const value = Number(whole + fraction.padEnd(exponent, '0'));
  return Number.isSafeInteger(value) ? (sign ? -value : value) : undefined;
}

/**
 * Google Pay takes a price as a whole number or with exactly two decimals (TransactionInfo.totalPrice,
 * docs/google-pay-rules.md GP14), whatever the currency's exponent. In a three- or four-decimal
 * currency an amount is therefore a multiple of this step (10 for KWD, 100 for UYW), 1 elsewhere.
 */
export const googlePayStep = (exponent: number): number => 10 ** Math.max(0, exponent - 2);

/**
 * The price Google Pay is shown for an amount: the exact decimal, with a three- or four-decimal
 * currency's extra digits dropped when they are zeros (KWD 1230 -> "1.23"); undefined when they are
 * not (KWD 1234 needs its third decimal), never rounded. The charge stays the amount itself.
 */
export function googlePayPrice(amount: number, exponent: number): string | undefined {
  const step = googlePayStep(exponent);
  if (amount % step !== 0) return undefined;
  return minorUnitsToDecimal(amount / step, Math.min(exponent, 2));
}

/**
 * The amount a session shows a shopper: a hold's captured part once there is one, else its amount.
 * The server's formatted text (`amount_display`) and the widget's own formatting both start here, so
 * the two always agree on the number.
 */
export const shownAmount = (session: { amount: number; amount_captured: number | null }): number => session.amount_captured ?? session.amount;

/**
 * Formats an integer amount in ISO 4217 minor units with the currency's
 * exponent from the server's currency table (the public view's
 * `currency_exponent`), e.g. (123456, 'IQD', 3) -> "IQD 123.456". The decimal
 * string is built exactly and handed to Intl as a string (read as an exact
 * decimal where Intl.NumberFormat v3 exists); Intl only lays it out, with its
 * fraction digits pinned to the exponent, because ICU's own digits differ from
 * ISO's for IQD, COP, HUF, IDR and others.
 */
export function formatAmount(amount: number, currency: string, exponent: number, locale?: string): string {
  const code = currency.toUpperCase();
  const decimal = minorUnitsToDecimal(amount, exponent);
  try {
    return formatterFor(locale || undefined, code, exponent).format(decimal);
  } catch {
    // Unknown locale tag or currency code: still show something truthful.
    return `${decimal} ${code}`;
  }
}

/**
 * Formatters already made, by locale, currency and exponent: making one costs far more than using
 * it (ICU resolves the locale's data for it), and a widget formats its one amount on every paint, a
 * dashboard the same few currencies on every row. Emptied past a bound, so no sequence of
 * locales can grow it.
 */
const formatters = new Map<string, Intl.NumberFormat>();
const MAX_FORMATTERS = 64;

function formatterFor(locale: string | undefined, code: string, exponent: number): Intl.NumberFormat {
  const key = `${locale ?? ''} ${code} ${exponent}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, { style: 'currency', currency: code, minimumFractionDigits: exponent, maximumFractionDigits: exponent });
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    formatters.set(key, formatter);
  }
  return formatter;
}
