/**
 * The expiry sweep's queries. Sessions that can still expire whose expires_at
 * has passed, oldest due first, from a partial index that holds only those
 * sessions (migration 0034): a sweep reads only the sessions it will expire,
 * however many are paid, and a payment leaves the index once, when it starts,
 * instead of moving in it at each of its status changes. Holds authorized
 * before a time: a partial index of the authorized sessions alone.
 *
 * Both conditions are written as literals, the very text of the indexes'
 * WHERE: SQLite uses a partial index only for a query whose WHERE repeats it,
 * in the same order (a bound parameter inside an IN list does not count).
 * engines.test.ts holds both plans on both engines.
 */
import { sql } from 'kysely';
import { statusesLeadingTo } from '../../contracts/session-states';
import type { Store } from '.';

/** The statuses a session expires from (unpaid, nothing in flight): the state table's, in its order, as migration 0034's index lists them. */
export const EXPIRABLE_STATUSES = statusesLeadingTo('expired');

const expirable = sql<boolean>`status in (${sql.join(EXPIRABLE_STATUSES.map((status) => sql.lit(status)))})`;

export const pastDueSessionsQuery = (store: Store, now: number, limit: number) =>
  store.selectFrom('sessions').select('id').where(expirable).where('expires_at', '<=', now).orderBy('expires_at').limit(limit);

export async function pastDueSessionIds(store: Store, now: number, limit: number): Promise<string[]> {
  return (await pastDueSessionsQuery(store, now, limit).execute()).map((row) => row.id);
}

/** When the first session that can still expire expires (maybe already past); undefined when none will. */
export async function nextExpiry(store: Store): Promise<number | undefined> {
  const row = await store.selectFrom('sessions').select((eb) => eb.fn.min<number | null>('expires_at').as('due')).where(expirable).executeTakeFirst();
  return row?.due ?? undefined;
}

export const lapsedHoldsQuery = (store: Store, before: number, limit: number) =>
  store.selectFrom('sessions').select('id').where(sql<boolean>`status = ${sql.lit('authorized')}`).where('updated', '<=', before).orderBy('updated').limit(limit);

/** Sessions `authorized` (a hold) since before `before`, at most `limit`, oldest first. */
export async function lapsedHoldIds(store: Store, before: number, limit = 100): Promise<string[]> {
  return (await lapsedHoldsQuery(store, before, limit).execute()).map((row) => row.id);
}
