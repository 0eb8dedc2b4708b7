/**
 * The dashboard's signed-in sessions (server/dashboard/session.ts). A session
 * is live while it has been used within the idle period, is younger than the
 * absolute one, and the secret key it stands on (`key_hash`) still works: the
 * caller passes the oldest times still live and the time a key must outlive.
 */
import type { ExpressionBuilder, Selectable, Transaction } from 'kysely';
import type { BackendDatabase, DashboardSessionsTable } from './schema';
import type { Store } from '.';

export type DashboardSessionRow = Selectable<DashboardSessionsTable>;

type Db = Store | Transaction<BackendDatabase>;

export interface LiveSince {
  /** The oldest `last_seen` still live (now minus the idle period). */
  lastSeen: number;
  /** The oldest `created` still live (now minus the absolute lifetime). */
  created: number;
  /** Now: the session's key must expire after this (or never). */
  now: number;
}

export async function insertDashboardSession(store: Store, row: DashboardSessionRow): Promise<void> {
  await store.insertInto('dashboard_sessions').values(row).execute();
}

/** The session's key, of the session's own app, still works at `now` (store/secret-keys.ts' rule). */
const keyLive = (eb: ExpressionBuilder<BackendDatabase, 'dashboard_sessions'>, now: number) =>
  eb.exists(
    eb
      .selectFrom('app_secret_keys')
      .select('app_secret_keys.hash')
      .whereRef('app_secret_keys.hash', '=', 'dashboard_sessions.key_hash')
      .whereRef('app_secret_keys.app_id', '=', 'dashboard_sessions.app_id')
      .where((key) => key.or([key('app_secret_keys.expires', 'is', null), key('app_secret_keys.expires', '>', now)])),
  );

/**
 * The live session whose token has this digest, its `last_seen` moved to `now`
 * in the same statement, which also reads its key's expiry (one primary-key
 * read of app_secret_keys): a key that stopped, by a roll with 0 or at the end
 * of its overlap, ends its sessions at their next request, with no sweep.
 */
export const touchDashboardSession = (store: Store, tokenHash: string, live: LiveSince): Promise<DashboardSessionRow | undefined> =>
  store
    .updateTable('dashboard_sessions')
    .set({ last_seen: live.now })
    .where('token_hash', '=', tokenHash)
    .where('last_seen', '>=', live.lastSeen)
    .where('created', '>=', live.created)
    .where((eb) => keyLive(eb, live.now))
    .returningAll()
    .executeTakeFirst();

/** The session now stands on another key of its app (the new key of a roll it made), in the roll's transaction. */
export async function moveDashboardSessionToKey(db: Db, session: { tokenHash: string; appId: string; keyHash: string }): Promise<void> {
  await db.updateTable('dashboard_sessions').set({ key_hash: session.keyHash }).where('token_hash', '=', session.tokenHash).where('app_id', '=', session.appId).execute();
}

export async function deleteDashboardSession(store: Store, tokenHash: string): Promise<void> {
  await store.deleteFrom('dashboard_sessions').where('token_hash', '=', tokenHash).execute();
}

/** Sign out everywhere: every session of the app, in every browser. */
export async function deleteAppDashboardSessions(store: Store, appId: string): Promise<void> {
  await store.deleteFrom('dashboard_sessions').where('app_id', '=', appId).execute();
}

/** Sessions no longer live (idle, too old, or their key stopped): dropped at each sign-in, so the table holds about the live ones. */
export async function deleteDeadDashboardSessions(store: Store, live: LiveSince): Promise<void> {
  await store
    .deleteFrom('dashboard_sessions')
    .where((eb) => eb.or([eb('last_seen', '<', live.lastSeen), eb('created', '<', live.created), eb.not(keyLive(eb, live.now))]))
    .execute();
}
