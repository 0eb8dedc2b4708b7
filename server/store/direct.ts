/**
 * Direct mode's queries: the apps' recipient keys, and the message ids of the
 * tokens already opened. Both live in the store so that every instance of a
 * fleet sees the same keys and refuses the same replays.
 */
import { type Selectable, sql } from 'kysely';
import type { DirectKeysTable } from './schema';
import type { Store } from '.';

export type DirectKeyRow = Selectable<DirectKeysTable>;
export type DirectKeyStatus = 'pending' | 'registered' | 'retired';

export async function insertDirectKey(store: Store, row: DirectKeyRow): Promise<void> {
  await store.insertInto('direct_keys').values(row).execute();
}

/** An app's keys, newest first (by when they were registered, then created). */
export async function directKeysOf(store: Store, appId: string, statuses?: readonly DirectKeyStatus[]): Promise<DirectKeyRow[]> {
  let query = store.selectFrom('direct_keys').selectAll().where('app_id', '=', appId);
  if (statuses) query = query.where('status', 'in', statuses);
  // `registered` is null until a key is registered: those sort last among equals of `created`.
  return query.orderBy('registered', (ob) => ob.desc().nullsLast()).orderBy('created', 'desc').orderBy('id', 'desc').execute();
}

/**
 * Moves one of the app's keys from one of `from` to `to`; false when no such key was in such a status.
 * A registration is stamped after every earlier one of the app, even within one clock tick or when
 * the clock stepped back, so "the newest registered key" is always the one registered last.
 */
export async function moveDirectKey(store: Store, move: { appId: string; keyId: string; from: readonly DirectKeyStatus[]; to: 'registered' | 'retired'; now: number }): Promise<boolean> {
  // With no earlier registration MAX is NULL, the comparison is not true, and `now` is taken.
  const registered = sql<number>`(SELECT CASE WHEN MAX(registered) >= ${move.now} THEN MAX(registered) + 1 ELSE ${move.now} END FROM direct_keys WHERE app_id = ${move.appId})`;
  const result = await store
    .updateTable('direct_keys')
    .set(move.to === 'registered' ? { status: 'registered', registered } : { status: 'retired', retired: move.now })
    .where('id', '=', move.keyId)
    .where('app_id', '=', move.appId)
    .where('status', 'in', move.from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Remembers a token's message id until it expires: true the first time, false
 * when any instance already saw it. One insert-if-absent, so two instances
 * opening the same token at once cannot both win.
 */
export async function rememberMessageId(store: Store, messageId: string, expires: number): Promise<boolean> {
  const inserted = await store.insertInto('wallet_messages').values({ message_id: messageId, expires }).onConflict((oc) => oc.column('message_id').doNothing()).executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function purgeMessageIds(store: Store, expiredBefore: number): Promise<number> {
  const deleted = await store.deleteFrom('wallet_messages').where('expires', '<', expiredBefore).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
