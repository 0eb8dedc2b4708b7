/**
 * The Overview page's figures (GET /dashboard/api/overview, docs/dashboard.md "Overview"): the store's
 * sums of a period's payments (store/overview.ts), per currency and per day, with the success rate and
 * the counts by status and by decline reason; and the disputes opened in it (store/disputes.ts).
 */
import type { App } from '../apps';
import { DashboardOverviewQuery, type DashboardOverview, type DisputeStatus, type OverviewCurrency, type OverviewMoney, type SessionStatus } from '../../contracts';
import { exponentOf } from '../../contracts/currency';
import { PAID_STATUSES } from '../../contracts/session-states';
import { invalidRequest } from '../../common/http/errors';
import { type Failure, type Result, err, ok } from '../../common/result';
import type { Store } from '../store';
import { disputeSummary } from '../store/disputes';
import { declineCodeCounts, type OverviewSum, overviewSums } from '../store/overview';
import { overviewDays } from './overview-days';

/**
 * The payments that reached an outcome: paid (a charge, or a hold whatever became of it), or declined or
 * failed at their latest attempt. Not open, in flight, waiting for 3-D Secure, nor expired: the shopper
 * had not finished, or gave up (a declined payment that then expired is counted expired).
 */
const OUTCOME_STATUSES: readonly string[] = [...PAID_STATUSES, 'declined', 'failed'];

/** The decline code of a declined payment whose outcome names none. */
const UNKNOWN_DECLINE = 'unknown';

const money = (taken: number, refunded: number): OverviewMoney => ({ gross_volume: taken, refunded, net: taken - refunded });

export async function dashboardOverview(store: Store, app: App, query: unknown): Promise<Result<DashboardOverview, Failure>> {
  const parsed = DashboardOverviewQuery.safeParse(query);
  if (!parsed.success) return err(invalidRequest(parsed.error, '(query)'));
  const { from, to, time_zone } = parsed.data;
  const days = overviewDays(from, to, time_zone);
  const period = { start: days[0]!.start, end: days[days.length - 1]!.end };
  const [sums, declines, disputes] = await Promise.all([
    overviewSums(store, app.id, days),
    declineCodeCounts(store, app.id, period),
    disputeSummary(store, app.id, { from: period.start, to: period.end }),
  ]);

  const byCurrency = new Map<string, OverviewSum[]>();
  for (const sum of sums) byCurrency.set(sum.currency, [...(byCurrency.get(sum.currency) ?? []), sum]);
  // A dispute of the period may be about a payment of an earlier one, in a currency the period took nothing in.
  for (const { currency } of disputes.amounts) if (!byCurrency.has(currency)) byCurrency.set(currency, []);
  const currencies = [...byCurrency.keys()].sort().map((currency): OverviewCurrency => {
    const rows = byCurrency.get(currency)!;
    const disputed = disputes.amounts.find((amount) => amount.currency === currency);
    const total = (pick: (row: OverviewSum) => number, of: readonly OverviewSum[] = rows) => of.reduce((sum, row) => sum + pick(row), 0);
    const succeeded = total((row) => (PAID_STATUSES.includes(row.status as SessionStatus) ? row.payments : 0));
    const reachedOutcome = total((row) => (OUTCOME_STATUSES.includes(row.status) ? row.payments : 0));
    return {
      currency,
      currency_exponent: exponentOf(currency),
      ...money(total((row) => row.taken), total((row) => row.refunded)),
      disputed: disputed?.amount ?? 0,
      disputes: disputed?.count ?? 0,
      outcomes: { succeeded, reached_outcome: reachedOutcome, success_rate: reachedOutcome === 0 ? null : succeeded / reachedOutcome },
      days: days.map((day, i) => {
        const ofDay = rows.filter((row) => row.day === i);
        return { date: day.date, ...money(total((row) => row.taken, ofDay), total((row) => row.refunded, ofDay)) };
      }),
    };
  });

  return ok({
    object: 'dashboard_overview',
    from,
    to,
    time_zone,
    currencies,
    statuses: mostFirst(sums.map((sum) => [sum.status as SessionStatus, sum.payments])).map(([status, count]) => ({ status, count })),
    decline_codes: mostFirst(declines.map((decline) => [decline.code ?? UNKNOWN_DECLINE, decline.payments])).map(([code, count]) => ({ code, count })),
    dispute_statuses: mostFirst(Object.entries(disputes.statuses) as [DisputeStatus, number][])
      .filter(([, count]) => count > 0)
      .map(([status, count]) => ({ status, count })),
  });
}

/** The counts added up by key, most first. */
function mostFirst<K>(counts: readonly (readonly [K, number])[]): [K, number][] {
  const totals = new Map<K, number>();
  for (const [key, count] of counts) totals.set(key, (totals.get(key) ?? 0) + count);
  return [...totals].sort((a, b) => b[1] - a[1]);
}
