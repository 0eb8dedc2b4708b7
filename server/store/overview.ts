/**
 * The dashboard overview's sums (docs/dashboard.md, "Overview"): an app's payments of a period, by the
 * day they were created, their currency and status; and its declined ones by decline reason. Both read
 * `sessions` through an index on (app_id, created...) or (app_id, status, created...) one range per day,
 * never the app's other payments (migration 0028; server/dashboard/overview-plan.test.ts asserts the plans).
 */
import { sql } from 'kysely';
import { onPostgres, type Store } from '.';

/** One day of the period: `created` in [start, end). */
export interface DayRange {
  start: number;
  end: number;
}

export interface OverviewSum {
  /** The day's index in the ranges given. */
  day: number;
  currency: string;
  status: string;
  payments: number;
  /** What the payments took: a charge's amount charged, a captured hold's amount captured, else nothing. */
  taken: number;
  /** Their amount_refunded (refunds succeeded or pending). */
  refunded: number;
}

// PostgreSQL answers count and sum of bigint as text (bigint, numeric): read as numbers, which these sums fit.
type Counted<T> = { [K in keyof T]: T[K] extends number ? number | string : T[K] };

/**
 * The sums of the payments created in each day, by currency and status. One statement: the days are a
 * VALUES list joined by range, so the store groups by day. CROSS JOIN is SQLite's word for "this order":
 * the days outside, each one range of the index (joined plainly, it walked the period once per day's
 * test, 5 times slower at 100,000 sessions); PostgreSQL reads it as a plain join and, by its statistics,
 * does the same. The period's bounds, stated once more, keep any other plan to the period.
 */
export function overviewSumsQuery(appId: string, days: readonly DayRange[]) {
  const values = sql.join(days.map((day, i) => sql`(CAST(${i} AS integer), CAST(${day.start} AS bigint), CAST(${day.end} AS bigint))`));
  const taken = sql`CASE s.status WHEN 'succeeded' THEN COALESCE(s.amount_charged, s.amount) WHEN 'captured' THEN COALESCE(s.amount_captured, 0) ELSE 0 END`;
  return sql<Counted<OverviewSum>>`
    WITH days (day, start_ms, end_ms) AS (VALUES ${values})
    SELECT days.day AS day, s.currency AS currency, s.status AS status, COUNT(*) AS payments, SUM(${taken}) AS taken, SUM(s.amount_refunded) AS refunded
    FROM days CROSS JOIN sessions s
    WHERE s.app_id = ${appId} AND s.created >= days.start_ms AND s.created < days.end_ms
      AND s.created >= ${days[0]!.start} AND s.created < ${days[days.length - 1]!.end}
    GROUP BY days.day, s.currency, s.status`;
}

export async function overviewSums(store: Store, appId: string, days: readonly DayRange[]): Promise<OverviewSum[]> {
  const result = await overviewSumsQuery(appId, days).execute(store);
  return result.rows.map((row) => ({ ...row, day: Number(row.day), payments: Number(row.payments), taken: Number(row.taken), refunded: Number(row.refunded) }));
}

/** The declined payments created in [start, end) by their outcome's failure_code (null when the outcome has none). */
export function declineCodesQuery(store: Store, appId: string, period: DayRange) {
  // The outcome is plain JSON (PaymentOutcome), never sealed: it carries no payment data.
  const code = onPostgres(store) ? sql<string | null>`CAST(outcome AS jsonb) ->> 'failure_code'` : sql<string | null>`json_extract(outcome, '$.failure_code')`;
  return store
    .selectFrom('sessions')
    .select([code.as('code'), (eb) => eb.fn.countAll<number | string>().as('payments')])
    .where('app_id', '=', appId)
    .where('status', '=', 'declined')
    .where('created', '>=', period.start)
    .where('created', '<', period.end)
    .groupBy(code);
}

export async function declineCodeCounts(store: Store, appId: string, period: DayRange): Promise<{ code: string | null; payments: number }[]> {
  const rows = await declineCodesQuery(store, appId, period).execute();
  return rows.map((row) => ({ code: row.code, payments: Number(row.payments) }));
}
