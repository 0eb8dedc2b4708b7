/**
 * The sandbox sheet's part for a request that keeps the card (Google's recurringTransactionInfo or
 * automaticReloadTransactionInfo, docs/saved-cards.md): what is charged today, what will be charged
 * later and when, and the merchant's billing agreement, as Google's sheet shows them before the shopper pays.
 */
import type { AutomaticReloadTransactionInfo, RecurringTransactionInfo } from '../../contracts';
import { el, priceIn, priceText } from './dom';
import type { AnyRequest } from './requests';

const PERIODS: Record<string, string> = { DAY: 'day', WEEK: 'week', MONTH: 'month', YEAR: 'year' };

/** The part, or undefined for a request that charges once (transactionInfo). */
export function futurePart(request: AnyRequest, merchant: string | undefined): HTMLElement | undefined {
  const recurring = request.recurringTransactionInfo as RecurringTransactionInfo | undefined;
  const reload = request.automaticReloadTransactionInfo as AutomaticReloadTransactionInfo | undefined;
  const info = recurring ?? reload;
  if (!info) return undefined;
  const price = (amount: string) => priceText(amount, info.currencyCode);
  const later = recurring
    ? recurring.recurrenceItems.map((item) => `${item.label}: ${price(item.price)} every ${item.recurrencePeriodCount === 1 ? PERIODS[item.recurrencePeriod] : `${item.recurrencePeriodCount} ${PERIODS[item.recurrencePeriod]}s`}`)
    : reload
      ? [`${reload.label}: ${price(reload.reloadAmount)} each time the balance falls below ${price(reload.minimumBalanceAmount)}`]
      : [];
  return el(
    'div',
    { class: 'future', 'data-testid': 'sandbox-future' },
    el('p', { class: 'total' }, `Pay ${merchant ? merchant + ' ' : ''}`, priceIn('strong', info.immediateTotalPrice, info.currencyCode), ' today'),
    ...later.map((line) => el('p', { 'data-testid': 'sandbox-later' }, line)),
    info.billingAgreement ? el('p', { class: 'agreement', 'data-testid': 'sandbox-billing-agreement' }, info.billingAgreement) : undefined,
  );
}
