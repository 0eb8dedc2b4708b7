/**
 * Synchronous transactions on a SQLite store's one better-sqlite3 connection, beside Kysely's async
 * ones: a transaction of statements prepared once runs from BEGIN to COMMIT without yielding to the
 * event loop, with none of Kysely's builders, executor or promise hops (docs/benchmarks.md,
 * "Synchronous transactions on SQLite"). Statements are the caller's (queries live in the owner's
 * store folder); this is the connection's side: when a transaction may run, and what it reports.
 *
 * The rule that keeps it from interleaving with Kysely's statements: Kysely's SQLite driver shares
 * the one connection through a mutex, held by a Kysely transaction from before its BEGIN to after
 * its COMMIT or ROLLBACK, and by a single statement only while it runs (better-sqlite3 runs it
 * synchronously). So while the connection is not inside a transaction, no Kysely statement is
 * under way: at most a Kysely transaction holds the mutex before its BEGIN or after its COMMIT,
 * and a synchronous transaction that runs whole in between changes nothing it will see mid-way.
 * While the connection is inside a transaction (a Kysely transaction mid-way, awaiting between its
 * statements), the synchronous one waits for the mutex, as any Kysely statement would, and runs
 * once it holds it. Nothing here streams rows (Kysely's SQLite streaming, which would keep a
 * statement open across awaits, is not used by the stores).
 */
import type Database from 'better-sqlite3';
import type { DialectAdapter, Kysely } from 'kysely';
import { type CheckpointCounts, checkpointCounts } from './checkpointer';
import { type StoreErrorListener, storeFailureOf } from './failures';

export interface SyncConnection {
  /** The connection's statement for `sql`, prepared once (the store's statement cache, shared with Kysely's driver). */
  prepare(sql: string): Database.Statement;
  /**
   * Runs `work` as one transaction (BEGIN, its statements, COMMIT; ROLLBACK if it throws), synchronously,
   * once no Kysely transaction is mid-way on `store`'s connection; its errors reach the store's error
   * listener, as a failed Kysely statement's do through its log.
   */
  transaction<DB, T>(store: Kysely<DB>, work: () => T): Promise<T>;
  /** Runs `work`, one statement, as `transaction` runs its work, but with no BEGIN or COMMIT around it: a statement is atomic by itself. */
  statement<DB, T>(store: Kysely<DB>, work: () => T): Promise<T>;
  /** How the connection's WAL checkpoints went (checkpointer.ts), for the metrics; undefined for a connection without a worker. */
  checkpoints(): CheckpointCounts | undefined;
}

/** Keyed by the store's adapter: one per store, shared by the store, its copies with plugins and its transactions. */
const connections = new WeakMap<DialectAdapter, SyncConnection>();

/** Makes `sqlite`, the connection under `store`, available to synchronous transactions (common/store/database.ts). */
export function registerSyncConnection<DB>(
  store: Kysely<DB>,
  sqlite: Database.Database,
  prepare: (sql: string) => Database.Statement,
  onError: StoreErrorListener,
): void {
  const begin = sqlite.prepare('BEGIN');
  const commit = sqlite.prepare('COMMIT');
  const rollback = sqlite.prepare('ROLLBACK');
  const run = <T>(work: () => T): T => {
    // A BEGIN inside a transaction would fail: the mutex was just taken, or nothing held the connection.
    begin.run();
    try {
      const result = work();
      commit.run();
      return result;
    } catch (error) {
      // SQLite rolls back by itself on SQLITE_FULL or SQLITE_BUSY: a second ROLLBACK would fail and hide why.
      if (sqlite.inTransaction) rollback.run();
      throw error;
    }
  };
  /** `work` once no Kysely transaction is mid-way on the connection (the rule above); its errors reach the listener. */
  const whenFree = async <On, T>(on: Kysely<On>, work: () => T): Promise<T> => {
    try {
      if (!sqlite.inTransaction) return work();
      return await on.connection().execute(async () => work());
    } catch (error) {
      onError(storeFailureOf(error));
      throw error;
    }
  };
  connections.set(store.getExecutor().adapter, {
    prepare,
    checkpoints: () => checkpointCounts(sqlite),
    transaction: (on, work) => whenFree(on, () => run(work)),
    statement: whenFree,
  });
}

/** The synchronous side of a SQLite store (or of one of its transactions); undefined on any other engine. */
export const syncConnectionOf = <DB>(store: Kysely<DB>): SyncConnection | undefined => connections.get(store.getExecutor().adapter);
