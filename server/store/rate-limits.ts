/**
 * Rate limiters' windows in the database, so that instances sharing it count
 * one budget per client (http/rate-limit-store.ts). A window is fixed, as
 * express-rate-limit's memory store counts: it starts at a client's first hit
 * and ends `windowMs` later; the first hit after that starts the next.
 */
import { sql } from 'kysely';
import type { Store } from '.';

export interface RateLimitWindow {
  hits: number;
  resetAt: number;
}

/** Counts a hit in one statement (an upsert), so concurrent hits on any instance are all counted. */
export async function countHit(store: Store, key: string, windowMs: number, now: number): Promise<RateLimitWindow> {
  const lapsed = sql<boolean>`rate_limit_windows.reset_at <= ${now}`;
  const row = await store
    .insertInto('rate_limit_windows')
    .values({ key, hits: 1, reset_at: now + windowMs })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql<number>`CASE WHEN ${lapsed} THEN 1 ELSE rate_limit_windows.hits + 1 END`,
        reset_at: sql<number>`CASE WHEN ${lapsed} THEN excluded.reset_at ELSE rate_limit_windows.reset_at END`,
      }),
    )
    .returning(['hits', 'reset_at'])
    .executeTakeFirstOrThrow();
  return { hits: row.hits, resetAt: row.reset_at };
}

export async function findWindow(store: Store, key: string, now: number): Promise<RateLimitWindow | undefined> {
  const row = await store.selectFrom('rate_limit_windows').select(['hits', 'reset_at']).where('key', '=', key).where('reset_at', '>', now).executeTakeFirst();
  return row && { hits: row.hits, resetAt: row.reset_at };
}

/** Takes back a hit of the current window (express-rate-limit's skip options); never below zero. */
export async function uncountHit(store: Store, key: string, now: number): Promise<void> {
  await store.updateTable('rate_limit_windows').set({ hits: sql<number>`hits - 1` }).where('key', '=', key).where('reset_at', '>', now).where('hits', '>', 0).execute();
}

export async function forgetWindow(store: Store, key: string): Promise<void> {
  await store.deleteFrom('rate_limit_windows').where('key', '=', key).execute();
}

/** Deletes the windows that ended before `now`: a client's next hit would start a new one anyway. */
export async function purgeEndedWindows(store: Store, now: number): Promise<number> {
  const deleted = await store.deleteFrom('rate_limit_windows').where('reset_at', '<=', now).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
