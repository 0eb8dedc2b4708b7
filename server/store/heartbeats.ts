/**
 * Which servers are using this store right now. A running server writes a
 * heartbeat row every HEARTBEAT_INTERVAL_MS and deletes it when it shuts down,
 * so a tool run against the store (`npm run app:create`) can tell whether any
 * server will see what it writes. A row left by a server that crashed simply
 * goes stale.
 */
import type { Store } from '.';

export const HEARTBEAT_INTERVAL_MS = 10_000;
/** Three missed beats: a server that is only slow (a long vacuum, a busy SQLite writer) still counts. */
export const HEARTBEAT_STALE_AFTER_MS = 3 * HEARTBEAT_INTERVAL_MS;

export async function recordHeartbeat(store: Store, beat: { instanceId: string; publicUrl: string; started: number; now: number }): Promise<void> {
  await store
    .insertInto('server_heartbeats')
    .values({ instance_id: beat.instanceId, public_url: beat.publicUrl, started: beat.started, seen: beat.now })
    .onConflict((oc) => oc.column('instance_id').doUpdateSet({ seen: beat.now, public_url: beat.publicUrl }))
    .execute();
}

export async function removeHeartbeat(store: Store, instanceId: string): Promise<void> {
  await store.deleteFrom('server_heartbeats').where('instance_id', '=', instanceId).execute();
}

/** The public URLs of the servers that beat within HEARTBEAT_STALE_AFTER_MS of `now`, each once. */
export async function liveServerUrls(store: Store, now: number): Promise<string[]> {
  const rows = await store
    .selectFrom('server_heartbeats')
    .select('public_url')
    .distinct()
    .where('seen', '>', now - HEARTBEAT_STALE_AFTER_MS)
    .orderBy('public_url')
    .execute();
  return rows.map((row) => row.public_url);
}

/** The ids of the servers that beat within HEARTBEAT_STALE_AFTER_MS of `now`: reconciliation leaves their requests' attempts to them. */
export async function liveInstanceIds(store: Store, now: number): Promise<string[]> {
  const rows = await store.selectFrom('server_heartbeats').select('instance_id').where('seen', '>', now - HEARTBEAT_STALE_AFTER_MS).execute();
  return rows.map((row) => row.instance_id);
}
