/**
 * Checkout sessions' rows: written once when the merchant creates one, read
 * by id, and moved from status to status by a compare-and-set (the state
 * machine, checkout/states.ts, decides which moves are allowed).
 */
import type { Selectable, Transaction, UpdateObject } from 'kysely';
import type { BackendDatabase, SessionsTable } from './schema';
import type { Store } from '.';

export type SessionRow = Selectable<SessionsTable>;

/** What a move may change besides the status (and `updated`, which it sets). */
export type SessionChanges = Omit<UpdateObject<BackendDatabase, 'sessions'>, 'status' | 'updated'>;

export async function insertSession(store: Store, row: SessionRow): Promise<void> {
  // A column left null is left to its default (null): a session without the later columns' data (the address
  // verification, express checkout's) is created the same way on a store whose schema predates them (the migration
  // tests build such stores).
  const values = Object.fromEntries(Object.entries(row).filter(([, value]) => value !== null)) as typeof row;
  await store.insertInto('sessions').values(values).execute();
}

export const findSession = (store: Store, id: string): Promise<SessionRow | undefined> =>
  store.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();

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
  let update = trx
    .updateTable('sessions')
    .set({ ...changes, status: to, updated: Date.now() })
    .where('id', '=', sessionId)
    .where('status', 'in', from);
  const quote = expected.latest_quote;
  if (quote !== undefined) update = quote === null ? update.where('latest_quote', 'is', null) : update.where('latest_quote', '=', quote);
  return update.returningAll().executeTakeFirst();
}
