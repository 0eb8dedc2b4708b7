/**
 * SQLite's synchronous transactions (common/store/sync-transactions.ts, where the rule that keeps
 * them apart from Kysely's is) with the store's own statements: each is written once with Kysely's
 * builder, the text the async path runs too, compiled once per shape of its input
 * (compiled-once.ts) and prepared once, then run by better-sqlite3 with each call's values. A
 * payment's two transactions run on them (store/attempt-moves.ts); PostgreSQL keeps Kysely.
 *
 * What every Kysely statement of the store goes through, and what stands for it here: the store's
 * plugins are not run. The only one, SQLite's work signals, is stood in for: a transaction that
 * writes work says so (`signal`), and a store with any other plugin is refused, never skipped
 * silently. Kysely's `log` option (failed statements to the store's error listener): a failed
 * transaction reaches the same listener (sync-transactions.ts). The store has no column codecs or
 * JSON plugins: rows are better-sqlite3's, as Kysely's SQLite driver returns them.
 */
import type Database from 'better-sqlite3';
import type { Transaction } from 'kysely';
import { type SyncConnection, syncConnectionOf } from '../../common/store/sync-transactions';
import { filled, shapesOf, type StatementBuilder } from './compiled-once';
import { LocalWorkSignals, localWorkSignals } from './local-work-signals';
import type { BackendDatabase } from './schema';
import type { WorkKind } from './work-notifications';
import type { Store } from '.';

/** Where a synchronous statement runs: its store. */
export interface SyncOn {
  store: Store;
}

/** A synchronous transaction under way: its store, and the work its writes make. */
export interface SyncTransaction extends SyncOn {
  /** Wakes the workers of `kind` once the transaction commits (the plugin's part, store/local-work-signals.ts). */
  signal(kind: WorkKind): void;
}

/** A synchronous statement: its rows for `input` (none for a statement that returns none), in a transaction or alone (inSyncStatement). */
export type SyncStatement<Input, Row> = (on: SyncOn, input: Input) => Row[];

function connectionOf(store: Store): SyncConnection {
  const connection = syncConnectionOf(store);
  if (!connection) throw new Error('a synchronous statement runs on a SQLite store only');
  return connection;
}

/** `build`'s statement, compiled and prepared once per store and shape, run synchronously. */
export function syncStatement<Input, Row>(build: StatementBuilder<BackendDatabase, Input, Row>): SyncStatement<Input, Row> {
  const shapeOf = shapesOf(build, (db, { sql }): { statement: Database.Statement } => ({ statement: connectionOf(db).prepare(sql) }));
  return (on, input) => {
    const { shape, leaves } = shapeOf(on.store, input);
    const values = filled(shape.parameters, leaves);
    if (shape.statement.reader) return shape.statement.all(values) as Row[];
    shape.statement.run(values);
    return [];
  };
}

const checkedStores = new WeakSet<Store>();

function checkPlugins(store: Store): void {
  if (checkedStores.has(store)) return;
  const unknown = store.getExecutor().plugins.filter((plugin) => !(plugin instanceof LocalWorkSignals));
  if (unknown.length > 0) throw new Error(`the store has a plugin that synchronous transactions would skip: ${unknown.map((plugin) => plugin.constructor.name).join(', ')}`);
  checkedStores.add(store);
}

/**
 * Runs `work` as one synchronous transaction on a SQLite store; undefined on PostgreSQL, and inside a
 * Kysely transaction (which holds the connection: its own statements must run in it), where callers
 * use Kysely. `work` must not await: it runs whole between BEGIN and COMMIT.
 */
export function inSyncTransaction<T>(store: Store | Transaction<BackendDatabase>, work: (transaction: SyncTransaction) => T): Promise<T> | undefined {
  const side = syncSide(store);
  if (!side) return undefined;
  const { root, connection } = side;
  const signals = localWorkSignals(root);
  return connection.transaction(root, () => {
    const made = new Set<WorkKind>();
    const result = work({ store: root, signal: (kind) => made.add(kind) });
    // Woken after this turn, by which time COMMIT (next, in this same turn) has run.
    if (signals) for (const kind of made) signals.signal(kind);
    return result;
  });
}

/**
 * Runs `work`, one statement that makes no work for the workers (a read), synchronously as inSyncTransaction
 * runs its transaction but without BEGIN and COMMIT, which a single statement does not need; undefined where
 * inSyncTransaction is.
 */
export function inSyncStatement<T>(store: Store | Transaction<BackendDatabase>, work: (on: SyncOn) => T): Promise<T> | undefined {
  const side = syncSide(store);
  if (!side) return undefined;
  const { root, connection } = side;
  return connection.statement(root, () => work({ store: root }));
}

/** The store synchronous statements may run on, and its connection: a SQLite store whose plugins they stand in for, not a Kysely transaction. */
function syncSide(store: Store | Transaction<BackendDatabase>): { root: Store; connection: SyncConnection } | undefined {
  if (store.isTransaction) return undefined;
  const root = store as Store;
  const connection = syncConnectionOf(root);
  if (!connection) return undefined;
  checkPlugins(root);
  return { root, connection };
}
