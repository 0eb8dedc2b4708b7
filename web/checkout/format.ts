/** Pure helpers for showing a session's amount and cards. No DOM, safe to unit-test in Node. */
import type { PublicSession } from '../../contracts';
import { formatAmount, shownAmount } from '../../contracts/money';

const NETWORK_NAMES: Record<string, string> = {
  AMEX: 'American Express',
  DISCOVER: 'Discover',
  MASTERCARD: 'Mastercard',
  VISA: 'Visa',
};

/** "Visa" for VISA: a network's name as its cards say it. */
export const networkName = (network: string): string => NETWORK_NAMES[network] ?? network;

/** "Visa •••• 4242" */
export function describeCard(card: { network: string; last4: string }): string {
  return `${networkName(card.network)} •••• ${card.last4}`;
}

/**
 * The amount the widget shows (a hold's captured part, else the amount), in `locale`: as the server
 * formatted it when the view carries it for that very locale (the creation reply's `amount_display`),
 * so that the first paint needs no Intl.NumberFormat (a page's first one costs 15 to 30 ms of ICU
 * set-up in Chromium, docs/benchmarks.md); else formatted here.
 */
export function amountText(session: PublicSession, locale: string): string {
  const display = session.amount_display;
  if (display?.locale === locale) return display.text;
  return formatAmount(shownAmount(session), session.currency, session.currency_exponent, locale);
}
