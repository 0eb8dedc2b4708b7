/**
 * The expiry sweep's query: sessions in one of `statuses` whose expires_at has
 * passed, oldest due first. Migration 0013 indexes (status, expires_at), so a
 * sweep reads only the sessions it will expire, however many are paid or open.
 */
import type { Store } from '.';

export const pastDueSessionsQuery = (store: Store, statuses: readonly string[], now: number, limit: number) =>
  store.selectFrom('sessions').select('id').where('status', 'in', statuses).where('expires_at', '<=', now).orderBy('expires_at').limit(limit);

export async function pastDueSessionIds(store: Store, statuses: readonly string[], now: number, limit: number): Promise<string[]> {
  return (await pastDueSessionsQuery(store, statuses, now, limit).execute()).map((row) => row.id);
}
