import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type Migration, type SqliteDatabase } from 'kysely';
import { privateFiles } from '../private-files';
import { checkpointInWorker } from './checkpointer';
import { logStoreErrors, observedDialect, type StoreErrorListener } from './failures';
import { defaultStoreLimits } from './limits';
import { registerSyncConnection } from './sync-transactions';

/**
 * Opens (creating if needed) a SQLite database and brings its schema up to
 * date. Each owner of data (the backend, the sandbox service) passes its own
 * migrations, so the two never share tables, as two real services would not.
 */
export async function openDatabase<DB>(
  file: string,
  migrations: Record<string, Migration>,
  options: { busyTimeoutMs?: number; onError?: StoreErrorListener } = {},
): Promise<Kysely<DB>> {
  // SQLite creates its -wal and -shm files with the database file's permissions: 0600 for all three.
  privateFiles(file, `${file}-wal`, `${file}-shm`);
  const sqlite = configureConnection(new Database(file), options.busyTimeoutMs);
  const onError = options.onError ?? (() => undefined);
  const prepare = statementCache(sqlite);
  const database: SqliteDatabase = { close: () => sqlite.close(), prepare };
  const db = new Kysely<DB>({
    dialect: observedDialect(new SqliteDialect({ database }), onError, () => sqlite.inTransaction),
    log: logStoreErrors(onError),
  });
  registerSyncConnection(db, sqlite, prepare, onError);
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
  if (error) {
    await db.destroy();
    throw error instanceof Error ? error : new Error(String(error));
  }
  return db;
}

/**
 * The connection's settings, apart so the benchmarks' own connections
 * (scripts/bench/checkpoint-stream.ts) commit exactly as the store does. WAL lets
 * readers proceed while a payment is being written; `synchronous` is left at
 * its default, FULL, so a commit survives a power cut; the busy timeout makes
 * a second writer wait instead of failing, for a bounded time. WAL
 * checkpoints run in a worker thread, off the request path (checkpointer.ts).
 */
export function configureConnection(sqlite: Database.Database, busyTimeoutMs = defaultStoreLimits.statementTimeoutMs): Database.Database {
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`busy_timeout = ${busyTimeoutMs}`);
  sqlite.pragma('foreign_keys = ON');
  checkpointInWorker(sqlite);
  return sqlite;
}

/** More distinct query texts than the app has (`IN` lists of every length add some); past it, statements are compiled each time. */
const MAX_CACHED_STATEMENTS = 500;

/**
 * Kysely's SQLite driver prepares (compiles) a statement for every query; the
 * app runs a few dozen fixed texts, so each is compiled once and kept (for the
 * driver and for the synchronous transactions alike). A kept statement stays
 * valid across schema changes: SQLite recompiles it itself.
 */
function statementCache(sqlite: Database.Database): (sql: string) => Database.Statement {
  const statements = new Map<string, Database.Statement>();
  return (sql) => {
    const kept = statements.get(sql);
    if (kept) return kept;
    const statement = withFastRows(sqlite.prepare(sql));
    if (statements.size < MAX_CACHED_STATEMENTS) statements.set(sql, statement);
    return statement;
  };
}

type Values = unknown[];
type RowMethod = (this: Database.Statement, ...parameters: unknown[]) => unknown;

/**
 * better-sqlite3 on Node 20 builds a row by setting its columns one at a time from C++, and V8
 * leaves an object given more than a dozen properties that way in dictionary mode: a session's
 * 41 columns took 8.9 µs to read, and every later read of one of its fields is a hash lookup.
 * The statement answers its rows as arrays instead (4.2 µs for the same row), each made here into
 * an object by a function compiled once per statement that returns one object literal of its
 * columns: one fast shape per statement, built in 0.1 µs for 70 columns where copying a template of
 * them and setting each took 2.5 (docs/benchmarks.md, "Fewer pages per pay"). The names are
 * SQLite's own column names, quoted by JSON.stringify. A column named twice keeps its last value,
 * as in better-sqlite3's own rows and in an object literal.
 */
function withFastRows(statement: Database.Statement): Database.Statement {
  if (!statement.reader) return statement;
  const names = statement.columns().map((column) => column.name);
  // In a literal it would set the row's prototype, not a column; no query of ours names one so.
  if (names.includes('__proto__')) throw new Error(`a query names a column __proto__: ${statement.source}`);
  const rowOf = new Function('values', `return {${names.map((name, i) => `${JSON.stringify(name)}: values[${i}]`).join(', ')}};`) as (values: Values) => Record<string, unknown>;
  // The methods as they are now: the checkpointer's commit counting (checkpointer.ts) on a statement that writes.
  const all = statement.all as RowMethod;
  const get = statement.get as RowMethod;
  const iterate = statement.iterate as RowMethod;
  statement.raw(true);
  Object.defineProperties(statement, {
    all: { value: (...parameters: unknown[]) => (all.apply(statement, parameters) as Values[]).map(rowOf) },
    get: {
      value: (...parameters: unknown[]) => {
        const values = get.apply(statement, parameters) as Values | undefined;
        return values && rowOf(values);
      },
    },
    iterate: {
      value: function* rows(...parameters: unknown[]) {
        for (const values of iterate.apply(statement, parameters) as IterableIterator<Values>) yield rowOf(values);
      },
    },
  });
  return statement;
}
