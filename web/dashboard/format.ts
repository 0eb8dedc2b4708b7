/** How the dashboard writes a payment's amounts, times and statuses, the same on every page. */
import type { DashboardPayment, PaymentStatus } from '../../contracts';
import { formatAmount } from '../../contracts/money';
import type { DashboardMessages } from './locales';

export const amountOf = (payment: DashboardPayment, amount: number, locale: string) => formatAmount(amount, payment.currency, payment.currency_exponent, locale);
export const dateTime = (ms: number, locale: string) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(ms);
export const statusWord = (t: DashboardMessages, status: string) => t.statuses[status as PaymentStatus] ?? status;
