/**
 * The dashboard's signed-in sessions (server/dashboard/session.ts). A session
 * is live while it has been used within the idle period and is younger than
 * the absolute one; the caller passes both as the oldest times still live.
 */
import type { Selectable } from 'kysely';
import type { DashboardSessionsTable } from './schema';
import type { Store } from '.';

export type DashboardSessionRow = Selectable<DashboardSessionsTable>;

export interface LiveSince {
  /** The oldest `last_seen` still live (now minus the idle period). */
  lastSeen: number;
  /** The oldest `created` still live (now minus the absolute lifetime). */
  created: number;
}

export async function insertDashboardSession(store: Store, row: DashboardSessionRow): Promise<void> {
  await store.insertInto('dashboard_sessions').values(row).execute();
}

/** The live session whose token has this digest, its `last_seen` moved to `now` in the same statement. */
export const touchDashboardSession = (store: Store, tokenHash: string, live: LiveSince, now: number): Promise<DashboardSessionRow | undefined> =>
  store
    .updateTable('dashboard_sessions')
    .set({ last_seen: now })
    .where('token_hash', '=', tokenHash)
    .where('last_seen', '>=', live.lastSeen)
    .where('created', '>=', live.created)
    .returningAll()
    .executeTakeFirst();

export async function deleteDashboardSession(store: Store, tokenHash: string): Promise<void> {
  await store.deleteFrom('dashboard_sessions').where('token_hash', '=', tokenHash).execute();
}

/** Sessions no longer live (idle or too old): dropped at each sign-in, so the table holds about the live ones. */
export async function deleteDeadDashboardSessions(store: Store, live: LiveSince): Promise<void> {
  await store
    .deleteFrom('dashboard_sessions')
    .where((eb) => eb.or([eb('last_seen', '<', live.lastSeen), eb('created', '<', live.created)]))
    .execute();
}
