/**
 * Payments: the list, found by one search box and filtered (status, derived
 * ones included, card network, dates, decline code, abandoned checkouts),
 * with cursor paging and its CSV export. The filters live in the hash route
 * (payment-filters.ts): applying them changes the hash, which opens the list anew.
 */
import { useState } from 'preact/hooks';
import type { PaymentStatus } from '../../contracts';
import { cardNetworks } from '../../contracts/payment-methods';
import { describeCard, networkName } from '../checkout/format';
import { api, paymentsCsvUrl } from './api';
import { amountOf, dateTime, statusWord } from './format';
import { apiQueryOf, filtersOfHash, hashOf, type ListFilters, narrowed } from './payment-filters';
import { Pager, useCursorPages } from './paging';
import type { PageProps } from './page';

export function Payments({ t, locale, fail }: PageProps) {
  // The Dashboard keys this page by its hash's query: a link with other filters, or Apply, opens a list of its own.
  const [filters] = useState(() => filtersOfHash(location.hash));
  const pages = useCursorPages((filter: ListFilters, startingAfter) => api.payments({ ...apiQueryOf(filter), starting_after: startingAfter }), fail, filters);
  const { list } = pages;

  function apply(event: Event) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    location.hash = hashOf(Object.fromEntries([...form].map(([name, value]) => [name, String(value).trim()])));
  }

  return (
    <section aria-labelledby="payments-heading">
      <h1 id="payments-heading">{t.payments.heading}</h1>
      <form class="filters" aria-label={t.payments.filters} onSubmit={apply}>
        <label>
          {t.payments.search}
          <input name="q" type="search" maxLength={200} defaultValue={filters.q} aria-describedby="search-hint" />
        </label>
        <label>
          {t.payments.status}
          <select name="status">
            <option value="">{t.payments.anyStatus}</option>
            {(Object.keys(t.statuses) as PaymentStatus[]).map((status) => (
              <option value={status} selected={status === filters.status}>
                {t.statuses[status]}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.payments.network}
          <select name="network">
            <option value="">{t.payments.anyNetwork}</option>
            {cardNetworks.map((network) => (
              <option value={network} selected={network === filters.network}>
                {networkName(network)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.payments.from}
          <input name="from" type="date" defaultValue={filters.from} />
        </label>
        <label>
          {t.payments.to}
          <input name="to" type="date" defaultValue={filters.to} />
        </label>
        <label>
          {t.payments.declineCode}
          <input name="decline_code" maxLength={100} spellcheck={false} defaultValue={filters.decline_code} />
        </label>
        <label class="check">
          <input name="abandoned" type="checkbox" value="1" defaultChecked={filters.abandoned === '1'} />
          {t.payments.showAbandoned}
        </label>
        <button type="submit">{t.payments.apply}</button>
        <a class="download" href={paymentsCsvUrl(apiQueryOf(filters))} download>
          {t.payments.exportCsv}
        </a>
        <p id="search-hint" class="hint">
          {t.payments.searchHint}
        </p>
      </form>
      {list && list.data.length === 0 && (narrowed(filters) ? <p>{t.payments.none}</p> : <EmptyList t={t} />)}
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
                  <span class={`status status-${payment.payment_status}`}>{statusWord(t, payment.payment_status)}</span>
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

/** A list with no filter and nothing in it: the app has no payment yet, and how to make a first one. */
function EmptyList({ t }: Pick<PageProps, 't'>) {
  return (
    <div class="empty" data-testid="no-payments">
      <p>
        <strong>{t.payments.empty}</strong>
      </p>
      <p>{t.payments.firstPayment}</p>
    </div>
  );
}
