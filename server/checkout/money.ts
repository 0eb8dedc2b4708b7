/**
 * Amounts are integers in the currency's minor units. How many digits a
 * currency has (JPY 0, USD 2, KWD 3) comes from ICU, which Node ships and
 * keeps current with ISO 4217, rather than from a table of our own.
 */
const knownCurrencies = new Set(Intl.supportedValuesOf('currency'));

export const isKnownCurrency = (code: string): boolean => knownCurrencies.has(code.toUpperCase());

export const minorUnitDigits = (currency: string): number =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;

/** Google Pay's `totalPrice`: a decimal string in major units, exact (no floating point). */
export function toDecimalString(amount: number, currency: string): string {
  const digits = minorUnitDigits(currency);
  if (digits === 0) return String(amount);
  const padded = String(amount).padStart(digits + 1, '0');
  return `${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}
