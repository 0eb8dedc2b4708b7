/** Pure helpers for showing money and cards. No DOM, safe to unit-test in Node. */
import { minorUnitsToDecimal } from '../../server/contracts/money';

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
    return new Intl.NumberFormat(locale || undefined, {
      style: 'currency',
      currency: code,
      minimumFractionDigits: exponent,
      maximumFractionDigits: exponent,
    }).format(decimal);
  } catch {
    // Unknown locale tag or currency code: still show something truthful.
    return `${decimal} ${code}`;
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
