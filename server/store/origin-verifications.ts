/**
 * The queries of platform mode's origin verification (checkout/origin-verification.ts):
 * one row per app and allowed origin, kept in step with the app's list by every
 * write of it (apps/registry.ts), and the sweep's claim on a row (a
 * compare-and-set on next_check, so that with several instances on one
 * database one checks an origin at a time).
 */
import { type Selectable, sql } from 'kysely';
import { randomId } from '../../common/secrets';
import type { OriginVerificationsTable } from './schema';
import type { Store } from '.';

export type OriginVerificationRow = Selectable<OriginVerificationsTable>;

/**
 * A verification token: 192 random bits, so that nobody can guess an app's
 * token before we show it, and bound to one row (one app, one origin). It is
 * published on the origin, so it is no secret, and proves nothing by itself:
 * only being served from the origin does.
 */
export const newVerificationToken = (): string => `wcv_${randomId(24)}`;

/**
 * Gives each of `origins` a row (a new one is due for its first check at
 * once) and drops the rows of the app's origins no longer listed: an origin
 * removed and added again starts over, with a new token, never verified.
 */
export async function syncOriginVerifications(db: Store, appId: string, origins: readonly string[], now: number): Promise<void> {
  const listed = new Set(origins);
  const present = new Set((await db.selectFrom('origin_verifications').select('origin').where('app_id', '=', appId).execute()).map((row) => row.origin));
  const missing = [...listed].filter((origin) => !present.has(origin));
  const gone = [...present].filter((origin) => !listed.has(origin));
  if (missing.length > 0) {
    await db
      .insertInto('origin_verifications')
      .values(missing.map((origin) => ({ app_id: appId, origin, token: newVerificationToken(), created: now, verified_at: null, last_checked: null, last_failure: null, failures: 0, next_check: now })))
      // Another request syncing the same app at the same time made it first: its row stands.
      .onConflict((conflict) => conflict.columns(['app_id', 'origin']).doNothing())
      .execute();
  }
  if (gone.length > 0) await db.deleteFrom('origin_verifications').where('app_id', '=', appId).where('origin', 'in', gone).execute();
}

export const originVerificationsOf = (store: Store, appId: string): Promise<OriginVerificationRow[]> =>
  store.selectFrom('origin_verifications').selectAll().where('app_id', '=', appId).orderBy('created').orderBy('origin').execute();

export const originVerificationOf = (store: Store, appId: string, origin: string): Promise<OriginVerificationRow | undefined> =>
  store.selectFrom('origin_verifications').selectAll().where('app_id', '=', appId).where('origin', '=', origin).executeTakeFirst();

/** The rows of platform-mode apps whose re-check is due, the longest waiting first. */
export const dueOriginVerifications = (store: Store, now: number, limit: number): Promise<OriginVerificationRow[]> =>
  store
    .selectFrom('origin_verifications as v')
    .innerJoin('apps as a', 'a.id', 'v.app_id')
    .selectAll('v')
    .where('a.google_pay_mode', '=', 'platform')
    .where('v.next_check', '<=', now)
    .orderBy('v.next_check')
    .limit(limit)
    .execute();

/** Takes the row's check by moving its next_check, as it was read, to `nextCheck`: false if another instance took it first. */
export async function claimOriginVerification(store: Store, row: OriginVerificationRow, nextCheck: number): Promise<boolean> {
  const claimed = await store
    .updateTable('origin_verifications')
    .set({ next_check: nextCheck })
    .where('app_id', '=', row.app_id)
    .where('origin', '=', row.origin)
    .where('next_check', '=', row.next_check)
    .executeTakeFirst();
  return claimed.numUpdatedRows > 0n;
}

export type OriginCheckOutcome = { ok: true } | { ok: false; reason: string };

/** A check's result; undefined if the row is gone (the origin was removed meanwhile). */
export const recordOriginCheck = (store: Store, appId: string, origin: string, outcome: OriginCheckOutcome, now: number, nextCheck: number): Promise<OriginVerificationRow | undefined> =>
  store
    .updateTable('origin_verifications')
    .set(
      outcome.ok
        ? { verified_at: now, last_checked: now, last_failure: null, failures: 0, next_check: nextCheck }
        : { last_checked: now, last_failure: outcome.reason, failures: sql<number>`failures + 1`, next_check: nextCheck },
    )
    .where('app_id', '=', appId)
    .where('origin', '=', origin)
    .returningAll()
    .executeTakeFirst();
