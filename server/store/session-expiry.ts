/**
 * The expiry sweep's queries. Sessions in one of `statuses` whose expires_at
 * has passed, oldest due first: migration 0013 indexes (status, expires_at), so
 * a sweep reads only the sessions it will expire, however many are paid or open.
 * Holds authorized before a time: the same index narrows them to `authorized`.
 */
import type { Store } from '.';

export const pastDueSessionsQuery = (store: Store, statuses: readonly string[], now: number, limit: number) =>
  store.selectFrom('sessions').select('id').where('status', 'in', statuses).where('expires_at', '<=', now).orderBy('expires_at').limit(limit);

export async function pastDueSessionIds(store: Store, statuses: readonly string[], now: number, limit: number): Promise<string[]> {
  return (await pastDueSessionsQuery(store, statuses, now, limit).execute()).map((row) => row.id);
}

/** When the first session in one of `statuses` expires (maybe already past); undefined when none will. */
export async function nextExpiry(store: Store, statuses: readonly string[]): Promise<number | undefined> {
  const row = await store.selectFrom('sessions').select((eb) => eb.fn.min<number | null>('expires_at').as('due')).where('status', 'in', statuses).executeTakeFirst();
  return row?.due ?? undefined;
}

/** Sessions `authorized` (a hold) since before `before`, at most `limit`, oldest first. */
export async function lapsedHoldIds(store: Store, before: number, limit = 100): Promise<string[]> {
  const rows = await store.selectFrom('sessions').select('id').where('status', '=', 'authorized').where('updated', '<=', before).orderBy('updated').limit(limit).execute();
  return rows.map((row) => row.id);
}
