/**
 * Saved cards: the app's kept cards (docs/saved-cards.md), newest first, by customer reference (exact) and status,
 * paged as the payments are; each with its card, expiry, the use the shopper agreed to, a link to the payment that
 * saved it, and Detach.
 */
import type { DashboardPaymentMethod, DashboardPaymentMethodsQuery, PaymentMethodStatus } from '../../contracts';
import { formatAmount } from '../../contracts/money';
import { describeCard } from '../checkout/format';
import { api } from './api';
import { DetachPaymentMethod } from './DetachPaymentMethod';
import { dateTime } from './format';
import { type DashboardMessages, fill } from './locales';
import type { PageProps } from './page';
import { Pager, useCursorPages } from './paging';

type Filter = Omit<DashboardPaymentMethodsQuery, 'limit' | 'starting_after'>;

/** The use and its terms: "Recurring: $25.00 a month", "Automatic reload: $20.00 when the balance is below $5.00", "Unscheduled". */
function usageText(t: DashboardMessages, method: DashboardPaymentMethod, locale: string): string {
  const { agreement } = method;
  const amount = (minor: number) => formatAmount(minor, agreement.currency, method.currency_exponent, locale);
  const words = t.savedCards;
  const usage = words.usages[agreement.usage];
  if (agreement.recurring) {
    const { interval, interval_count: n, amount: each } = agreement.recurring;
    return `${usage}: ${fill(n === 1 ? words.every[interval] : words.everyN[interval], { amount: amount(each), n })}`;
  }
  if (agreement.reload) return `${usage}: ${fill(words.reloadTerms, { amount: amount(agreement.reload.amount), threshold: amount(agreement.reload.threshold) })}`;
  return usage;
}

export function SavedCards({ t, locale, fail }: PageProps) {
  const pages = useCursorPages((filter: Filter, startingAfter) => api.paymentMethods({ ...filter, starting_after: startingAfter }), fail, {});
  const { list } = pages;
  const words = t.savedCards;

  function apply(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => String(form.get(name) ?? '').trim() || undefined;
    pages.filterBy({ customer: text('customer'), status: text('status') as PaymentMethodStatus | undefined });
  }

  const detached = (method: DashboardPaymentMethod) => (changed: Omit<DashboardPaymentMethod, 'currency_exponent'>) =>
    pages.setList(list && { ...list, data: list.data.map((row) => (row.id === method.id ? { ...row, ...changed } : row)) });

  return (
    <section aria-labelledby="saved-cards-heading">
      <h1 id="saved-cards-heading">{words.heading}</h1>
      <form class="filters" aria-label={words.filters} onSubmit={apply}>
        <label>
          {words.customer}
          <input name="customer" type="search" maxLength={200} />
        </label>
        <label>
          {t.payments.status}
          <select name="status">
            <option value="">{t.payments.anyStatus}</option>
            {(Object.keys(t.savedCard.statuses) as PaymentMethodStatus[]).map((status) => (
              <option value={status}>{t.savedCard.statuses[status]}</option>
            ))}
          </select>
        </label>
        <button type="submit">{t.payments.apply}</button>
      </form>
      {list && list.data.length === 0 && <p>{words.none}</p>}
      {list && list.data.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">{t.savedCard.customer}</th>
              <th scope="col">{t.savedCard.card}</th>
              <th scope="col">{words.expiry}</th>
              <th scope="col">{words.usage}</th>
              <th scope="col">{t.savedCard.status}</th>
              <th scope="col">{t.payments.created}</th>
              <th scope="col">{words.firstPayment}</th>
              <td />
            </tr>
          </thead>
          <tbody>
            {list.data.map((method) => (
              <tr key={method.id} data-payment-method={method.id}>
                <td>
                  <code>{method.customer}</code>
                </td>
                <td>{describeCard(method.card)}</td>
                <td>{`${String(method.card.exp_month).padStart(2, '0')}/${method.card.exp_year}`}</td>
                <td>{usageText(t, method, locale)}</td>
                <td>
                  <span class={`status status-${method.status}`} data-testid="payment-method-status">
                    {t.savedCard.statuses[method.status]}
                  </span>
                </td>
                <td>{dateTime(method.created, locale)}</td>
                <td>
                  <a href={`#/payments/${method.agreement.session_id}`}>
                    <code>{method.agreement.session_id}</code>
                  </a>
                </td>
                <td>
                  {method.status !== 'detached' && (
                    <DetachPaymentMethod t={t} fail={fail} id={method.id} name={fill(words.detachRow, { card: describeCard(method.card), customer: method.customer })} onDetached={detached(method)} />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager t={t} previous={pages.previous} next={pages.next} />
    </section>
  );
}
