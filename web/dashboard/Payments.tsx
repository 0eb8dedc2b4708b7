/** Payments: the list with its filters and cursor paging. */
import type { SessionStatus } from '../../contracts';
import { describeCard } from '../checkout/format';
import { api, type PaymentFilter } from './api';
import { amountOf, dateTime, statusWord } from './format';
import { Pager, useCursorPages } from './paging';
import type { PageProps } from './page';
import { paymentsQueryOf } from './payments-query';

/** A date field's day (the merchant's local time) as ms since the epoch; `nextDay` for an exclusive end. */
function dayStart(value: string, nextDay = false): number | undefined {
  if (!value) return undefined;
  const day = new Date(`${value}T00:00`);
  if (nextDay) day.setDate(day.getDate() + 1);
  return Number.isNaN(day.getTime()) ? undefined : day.getTime();
}

export function Payments({ t, locale, fail }: PageProps) {
  // A link's filters (the overview's figures: #/payments?status=&from=&to=) are the list's first.
  const linked = paymentsQueryOf(location.hash);
  const pages = useCursorPages((filter: PaymentFilter, startingAfter) => api.payments({ ...filter, starting_after: startingAfter }), fail, {
    status: linked.status,
    created_gte: dayStart(linked.from ?? ''),
    created_lt: dayStart(linked.to ?? '', true),
  });
  const { list } = pages;

  function apply(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    pages.filterBy({ status: text('status') || undefined, reference: text('reference') || undefined, created_gte: dayStart(text('from')), created_lt: dayStart(text('to'), true) });
  }

  return (
    <section aria-labelledby="payments-heading">
      <h1 id="payments-heading">{t.payments.heading}</h1>
      <form class="filters" aria-label={t.payments.filters} onSubmit={apply}>
        <label>
          {t.payments.status}
          <select name="status">
            <option value="">{t.payments.anyStatus}</option>
            {(Object.keys(t.statuses) as SessionStatus[]).map((status) => (
              <option value={status} selected={status === linked.status}>
                {t.statuses[status]}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.payments.reference}
          <input name="reference" type="search" maxLength={200} />
        </label>
        <label>
          {t.payments.from}
          <input name="from" type="date" defaultValue={linked.from} />
        </label>
        <label>
          {t.payments.to}
          <input name="to" type="date" defaultValue={linked.to} />
        </label>
        <button type="submit">{t.payments.apply}</button>
      </form>
      {list && list.data.length === 0 && <p>{t.payments.none}</p>}
      {list && list.data.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">{t.payments.created}</th>
              <th scope="col">{t.payments.reference}</th>
              <th scope="col" class="number">
                {t.payments.amount}
              </th>
              <th scope="col">{t.payments.status}</th>
              <th scope="col">{t.payments.card}</th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((payment) => (
              <tr key={payment.id} data-payment={payment.id}>
                <td>
                  <a href={`#/payments/${payment.id}`}>{dateTime(payment.created, locale)}</a>
                </td>
                <td>{payment.reference ?? '—'}</td>
                <td class="number">{amountOf(payment, payment.amount, locale)}</td>
                <td>
                  <span class={`status status-${payment.status}`}>{statusWord(t, payment.status)}</span>
                </td>
                <td>{payment.outcome?.card ? describeCard(payment.outcome.card) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager t={t} previous={pages.previous} next={pages.next} />
    </section>
  );
}
