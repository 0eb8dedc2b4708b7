/** How the dashboard writes a payment's amounts, times and statuses, the same on every page. */
import type { DashboardPayment, PaymentStatus } from '../../contracts';
import { formatAmount } from '../../contracts/money';
import { amountForText, directionOfLocale } from '../../common/browser/amount-direction';
import type { DashboardMessages } from './locales';

/** A payment's amount in `locale`, which keeps its order in a right-to-left page and in the sentences it fills (common/browser/amount-direction.ts). */
export const amountOf = (payment: DashboardPayment, amount: number, locale: string) =>
  amountForText(formatAmount(amount, payment.currency, payment.currency_exponent, locale), directionOfLocale(locale));

/**
 * Every date and time of the dashboard, in one format per language: the locale's medium date and its time,
 * to the minute, or to the second where the order of close events matters (a payment's timeline). Only the
 * time's precision differs, so a list and a timeline write the same instant alike.
 */
export function dateTime(ms: number, locale: string, precision: 'minute' | 'second' = 'minute'): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: precision === 'second' ? 'medium' : 'short' }).format(ms);
}

export const statusWord = (t: DashboardMessages, status: string) => t.statuses[status as PaymentStatus] ?? status;
