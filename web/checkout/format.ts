/** Pure helpers for showing money and cards. No DOM, safe to unit-test in Node. */

/** ISO 4217 minor units for the currencies that don't use 2 decimals. */
const MINOR_UNITS: Record<string, number> = {
  BIF: 0, CLP: 0, DJF: 0, GNF: 0, ISK: 0, JPY: 0, KMF: 0, KRW: 0, PYG: 0, RWF: 0,
  UGX: 0, VND: 0, VUV: 0, XAF: 0, XOF: 0, XPF: 0,
  BHD: 3, IQD: 3, JOD: 3, KWD: 3, LYD: 3, OMR: 3, TND: 3,
};

export function minorUnits(currency: string): number {
  return MINOR_UNITS[currency.toUpperCase()] ?? 2;
}

/** Formats an integer amount in the currency's minor units, e.g. (1234, 'USD') -> "$12.34". */
export function formatAmount(amount: number, currency: string, locale?: string): string {
  const code = currency.toUpperCase();
  const digits = minorUnits(code);
  const value = amount / 10 ** digits;
  try {
    return new Intl.NumberFormat(locale || undefined, {
      style: 'currency',
      currency: code,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(value);
  } catch {
    // Unknown locale tag or currency code: still show something truthful.
    return `${value.toFixed(digits)} ${code}`;
  }
}

const NETWORK_NAMES: Record<string, string> = {
  AMEX: 'American Express',
  DISCOVER: 'Discover',
  MASTERCARD: 'Mastercard',
  VISA: 'Visa',
};

/** "Visa •••• 4242" */
export function describeCard(card: { network: string; last4: string }): string {
  return `${NETWORK_NAMES[card.network] ?? card.network} •••• ${card.last4}`;
}
