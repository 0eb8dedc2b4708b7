/**
 * Checkout sessions' rows: written once when the merchant creates one, read
 * by id, and moved from status to status by a compare-and-set (the state
 * machine, checkout/states.ts, decides which moves are allowed).
 */
import { type QueryCreator, type Selectable, sql, type Transaction, type UpdateObject } from 'kysely';
import { APP_COLUMNS, type AppFieldsRow } from './apps';
import { prefixedColumns, unprefixedColumns } from './joined-rows';
import type { BackendDatabase, SessionsTable } from './schema';
import { onPostgres, type Store } from '.';
import { appOfLiveSecretKey, liveSecretKeyWithApp } from './secret-keys';
import { compiledOnce } from './compiled-once';
import { inSyncStatement, syncStatement } from './sync-statements';

/**
 * A session's row. The saved-card columns (migration 0026) and the search's (0030) may be left out of a row built in code
 * (the session-list benchmark builds thousands without them, left to their default, null); a row read
 * from the store always has them.
 */
type SavedCardColumns = 'save_payment_method' | 'agreement' | 'payment_method' | 'payment_method_error' | 'charge_reason';
/** The search's columns (migration 0030), written by a payment, not at creation: left out of a new row as well. */
type SearchColumns = 'card_network' | 'card_last4' | 'decline_code' | 'email_index';
/** The disputes' mark (migration 0032), kept by store/disputes.ts, never by a session's own writes. */
type DisputeColumns = 'disputed';
type OptionalColumns = SavedCardColumns | SearchColumns | DisputeColumns;
export type SessionRow = Omit<Selectable<SessionsTable>, OptionalColumns> & Partial<Pick<Selectable<SessionsTable>, OptionalColumns>>;

/** What a move may change besides the status (and `updated`, which it sets). */
export type SessionChanges = Omit<UpdateObject<BackendDatabase, 'sessions'>, 'status' | 'updated'>;

/**
 * A column left null is left to its default (null): a session without the later columns' data (the address
 * verification, express checkout's) is created the same way on a store whose schema predates them (the migration
 * tests build such stores).
 */
const writtenColumns = (row: SessionRow): SessionRow => Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null)) as SessionRow;

export async function insertSession(db: Store | Transaction<BackendDatabase>, row: SessionRow): Promise<void> {
  await db.insertInto('sessions').values(writtenColumns(row)).execute();
}

/**
 * Inserts the session only while the secret key with digest `keyHash` is live at `now` and is the session's
 * app's, and answers that app's columns as they are then; undefined (nothing written) otherwise. On PostgreSQL
 * one statement: the key's check, the app's read and the insert (the row passed as one JSON parameter, which
 * json_populate_record types column by column); on SQLite, a transaction of the read and the insert.
 */
export async function insertSessionForLiveKey(store: Store, row: SessionRow, keyHash: string, now: number): Promise<AppFieldsRow | undefined> {
  const values = writtenColumns(row);
  if (!onPostgres(store)) {
    return store.transaction().execute(async (trx) => {
      const app = await appOfLiveSecretKey(trx, keyHash, now);
      if (app?.id !== row.app_id) return undefined;
      await insertSession(trx, values);
      return app;
    });
  }
  const columns = Object.keys(values) as (keyof SessionRow & string)[];
  return store
    .with('app', (db) =>
      liveSecretKeyWithApp(db, keyHash, now)
        .select(APP_COLUMNS.map((column) => `apps.${column}` as const))
        .where('app_secret_keys.app_id', '=', row.app_id),
    )
    .with('inserted', (db) =>
      db
        .insertInto('sessions')
        .columns(columns)
        .expression(
          db
            .selectFrom(sql<SessionRow>`json_populate_record(null::sessions, ${JSON.stringify(values)}::json)`.as('row'))
            .select(columns.map((column) => sql.ref(`row.${column}`).as(column)))
            .where(({ exists, selectFrom }) => exists(selectFrom('app').select('app.id'))),
        )
        .returning('sessions.id'),
    )
    .selectFrom('app')
    .selectAll()
    .executeTakeFirst();
}

export const findSession = (store: Store, id: string): Promise<SessionRow | undefined> =>
  store.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();

/** A session and its app's columns, the app's as `app:column`: compiled once, as every widget call (a pay among them) reads it. */
const sessionWithAppQuery = (db: Store, { id }: { id: string }) =>
  db
    .selectFrom('sessions')
    .innerJoin('apps', 'apps.id', 'sessions.app_id')
    .selectAll('sessions')
    .select((eb) => APP_COLUMNS.map((column) => eb.ref(`apps.${column}`).as(`app:${column}`)))
    .where('sessions.id', '=', id);
const sessionWithApp = compiledOnce(sessionWithAppQuery);

/** The same read on SQLite, where it runs synchronously (store/sync-statements.ts): every widget call makes it, a payment's first. */
const preparedSessionWithApp = syncStatement(sessionWithAppQuery);

/** A session and its app's columns in one statement (every widget call needs both); undefined when there is no such session. */
export async function findSessionWithApp(db: Store | Transaction<BackendDatabase>, id: string): Promise<{ session: SessionRow; app: AppFieldsRow } | undefined> {
  const [row]: Record<string, unknown>[] = await (inSyncStatement(db, (on) => preparedSessionWithApp(on, { id })) ?? sessionWithApp(db, { id }));
  return row && { session: unprefixedColumns(row) as SessionRow, app: prefixedColumns(row, 'app') as AppFieldsRow };
}

/** What a move also requires of the row as it is now, besides its status: the latest quote a payment was priced by (null: none). */
export interface SessionExpectations {
  latest_quote?: string | null;
}

/**
 * Sets the session's status to `to`, with `changes`, if it is in one of
 * `from` (and holds `expected`), and returns the row as changed; undefined when it
 * was in none (a compare-and-set: of two concurrent moves only one happens). The row comes
 * back with the update (both engines have RETURNING): no second read.
 */
export async function setSessionStatus(
  trx: Transaction<BackendDatabase>,
  sessionId: string,
  from: readonly string[],
  to: string,
  changes: SessionChanges,
  expected: SessionExpectations = {},
): Promise<SessionRow | undefined> {
  return sessionMove(trx, { sessionId, from, to, changes, expected, now: Date.now() }).returningAll().executeTakeFirst();
}

/** A compare-and-set of a session's status: what setSessionStatus runs, and what the one-statement moves of store/attempt-moves.ts start from. */
export interface SessionMove {
  sessionId: string;
  from: readonly string[];
  to: string;
  changes: SessionChanges;
  expected: SessionExpectations;
  /** The row's new `updated`. */
  now: number;
}

/** The UPDATE of a SessionMove, not yet run: on its own in a transaction, or as a step of a larger statement. */
export function sessionMove(db: QueryCreator<BackendDatabase>, { sessionId, from, to, changes, expected, now }: SessionMove) {
  let update = db
    .updateTable('sessions')
    .set({ ...changes, status: to, updated: now })
    .where('sessions.id', '=', sessionId)
    .where('sessions.status', 'in', from);
  const quote = expected.latest_quote;
  if (quote !== undefined) update = quote === null ? update.where('sessions.latest_quote', 'is', null) : update.where('sessions.latest_quote', '=', quote);
  return update;
}

/** A SessionMove with its row as moved (none when the compare-and-set found nothing), in SQLite's synchronous transactions (store/attempt-moves.ts). */
export const movedSession = syncStatement((db, move: SessionMove) => sessionMove(db, move).returningAll());

/**
 * Records the payment method a paid saving session kept its card as, or why the service would not keep it
 * (`{code, message}` JSON), once: a compare-and-set on both being unset, so of a request and a
 * reconciliation pass keeping the same card, one records it. False when another did.
 */
export async function recordKeptCard(db: Store | Transaction<BackendDatabase>, sessionId: string, kept: { payment_method: string } | { payment_method_error: string }): Promise<boolean> {
  const updated = await db
    .updateTable('sessions')
    .set({ ...kept, updated: Date.now() })
    .where('id', '=', sessionId)
    .where('payment_method', 'is', null)
    .where('payment_method_error', 'is', null)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** Saving sessions in one of `statuses` (paid) whose card is neither kept nor refused yet, at most `limit`, oldest first (migration 0026's index). */
export const sessionsWithCardToKeep = (store: Store, statuses: readonly string[], limit: number): Promise<{ id: string; app_id: string }[]> =>
  store
    .selectFrom('sessions')
    .select(['id', 'app_id'])
    .where('status', 'in', statuses)
    .where('save_payment_method', 'is not', null)
    .where('payment_method', 'is', null)
    .where('payment_method_error', 'is', null)
    .orderBy('created')
    .limit(limit)
    .execute();
