/**
 * Disputes (docs/disputes.md): the app's disputes, newest first, by status, paged as the payments are; each with its
 * status, amount, reason, the date its evidence is due by and the payment it disputes, and a link to its page.
 */
import type { DashboardDispute, DisputeStatus } from '../../contracts';
import { formatAmount } from '../../contracts/money';
import { api } from './api';
import { dateTime } from './format';
import type { PageProps } from './page';
import { Pager, useCursorPages } from './paging';

export const disputeAmount = (dispute: DashboardDispute, locale: string) => formatAmount(dispute.amount, dispute.currency, dispute.currency_exponent, locale);

/** `#/disputes?status=<status>`: the list of one status, as the overview's counts link to it. */
export const disputesHref = (status: DisputeStatus) => `#/disputes?status=${status}`;

/** `status`: the route's (an overview's link), the filter the list opens with; one it does not know is no filter. */
export function Disputes({ t, locale, fail, status }: PageProps & { status: string }) {
  const opening = status in t.disputes.statuses ? { status: status as DisputeStatus } : {};
  const pages = useCursorPages((filter: { status?: DisputeStatus }, startingAfter) => api.disputes({ ...filter, starting_after: startingAfter }), fail, opening);
  const { list } = pages;
  const words = t.disputes;

  function apply(event: Event) {
    event.preventDefault();
    const chosen = String(new FormData(event.currentTarget as HTMLFormElement).get('status') ?? '');
    pages.filterBy({ status: (chosen || undefined) as DisputeStatus | undefined });
  }

  return (
    <section aria-labelledby="disputes-heading">
      <h1 id="disputes-heading">{words.heading}</h1>
      <form class="filters" aria-label={words.filters} onSubmit={apply}>
        <label>
          {t.payments.status}
          <select name="status" defaultValue={opening.status ?? ''}>
            <option value="">{t.payments.anyStatus}</option>
            {(Object.keys(words.statuses) as DisputeStatus[]).map((option) => (
              <option value={option}>{words.statuses[option]}</option>
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
              <th scope="col">{words.dispute}</th>
              <th scope="col">{t.payments.status}</th>
              <th scope="col">{t.payments.amount}</th>
              <th scope="col">{words.reason}</th>
              <th scope="col">{words.dueBy}</th>
              <th scope="col">{words.payment}</th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((dispute) => (
              <tr key={dispute.id} data-dispute={dispute.id}>
                <td>
                  <a href={`#/disputes/${dispute.id}`}>
                    <code>{dispute.id}</code>
                  </a>
                </td>
                <td>
                  <span class={`status status-${dispute.status}`} data-testid="dispute-status">
                    {words.statuses[dispute.status]}
                  </span>
                </td>
                <td>{disputeAmount(dispute, locale)}</td>
                <td>{words.reasons[dispute.reason]}</td>
                <td>{dispute.status === 'needs_response' ? dateTime(dispute.evidence_due_by, locale) : '—'}</td>
                <td>
                  <a href={`#/payments/${dispute.session_id}`}>
                    <code>{dispute.session_id}</code>
                  </a>
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
