/**
 * What reconciliation replays, and its leases. Several instances on one
 * database each run a reconciler; a pass takes a lease on an attempt (or a
 * refund) before calling the service for it: a compare-and-set on `replays`,
 * the count of leases taken, as read with the row. Of the passes that read a
 * row at once one takes it, and a pass that read it before another replayed
 * and released it cannot take it again from that stale reading: the service
 * is called once per attempt per pass, whichever instances run. A lease held
 * by an instance that died lapses at `lease_until`.
 */
import type { Store } from '.';

export interface ReplayableAttempt {
  id: string;
  session_id: string;
  idempotency_key: string;
  request_sealed: string | null;
  app_id: string;
  replays: number;
}

export interface ReplayableSelection {
  now: number;
  /** An in-flight attempt created before this is replayed whoever made it: no live request takes longer. */
  inFlightBefore: number;
  /** In-flight attempts whose request gave up on them (checkout/pay.ts AbandonedAttempts). */
  abandoned: readonly string[];
  /** The instances whose requests are live: their younger in-flight attempts are theirs to finish. */
  liveInstances: readonly string[];
}

/**
 * Pending attempts, and in-flight ones nobody is finishing (older than a
 * request lives, abandoned, or made by an instance that is not live), not
 * leased by another pass; oldest first.
 */
export function replayableAttempts(store: Store, selection: ReplayableSelection): Promise<ReplayableAttempt[]> {
  const { now, inFlightBefore, abandoned, liveInstances } = selection;
  return store
    .selectFrom('charge_attempts')
    .innerJoin('sessions', 'sessions.id', 'charge_attempts.session_id')
    .select(['charge_attempts.id', 'charge_attempts.session_id', 'charge_attempts.idempotency_key', 'charge_attempts.request_sealed', 'sessions.app_id', 'charge_attempts.replays'])
    .where((eb) =>
      eb.or([
        eb('charge_attempts.status', '=', 'pending'),
        eb.and([
          eb('charge_attempts.status', '=', 'in_flight'),
          eb.or([
            eb('charge_attempts.created', '<', inFlightBefore),
            eb('charge_attempts.instance_id', 'is', null),
            ...(abandoned.length > 0 ? [eb('charge_attempts.id', 'in', abandoned)] : []),
            ...(liveInstances.length > 0 ? [eb('charge_attempts.instance_id', 'not in', liveInstances)] : [eb.lit(true)]),
          ]),
        ]),
      ]),
    )
    .where((eb) => eb.or([eb('charge_attempts.lease_until', 'is', null), eb('charge_attempts.lease_until', '<', now)]))
    .orderBy('charge_attempts.created')
    .execute();
}

type LeasedTable = 'charge_attempts' | 'refunds';

/**
 * Takes the lease on an attempt or refund as read (`replays`) until
 * `leaseUntil`, if it still needs replaying and no other pass took it since;
 * the lease's token (its `replays`), or undefined when another has it.
 */
export async function takeReplayLease(store: Store, table: LeasedTable, row: { id: string; replays: number }, leaseUntil: number, now: number): Promise<number | undefined> {
  const taken = await store
    .updateTable(table)
    .set({ lease_until: leaseUntil, replays: row.replays + 1 })
    .where('id', '=', row.id)
    .where('replays', '=', row.replays)
    .where('status', 'in', ['pending', 'in_flight'])
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .executeTakeFirst();
  return taken.numUpdatedRows === 1n ? row.replays + 1 : undefined;
}

/** Gives the lease back once the replay is recorded, so the next pass (of any instance) may replay a row still pending. */
export async function releaseReplayLease(store: Store, table: LeasedTable, id: string, token: number): Promise<void> {
  await store.updateTable(table).set({ lease_until: null }).where('id', '=', id).where('replays', '=', token).execute();
}

/**
 * Whether any attempt is in flight: one a later pass may have to replay (its instance dies, or its request
 * outlives the grace), so the sweeps keep their short interval while there is one.
 */
export async function anyAttemptInFlight(store: Store): Promise<boolean> {
  return (await store.selectFrom('charge_attempts').select('id').where('status', '=', 'in_flight').limit(1).executeTakeFirst()) !== undefined;
}
