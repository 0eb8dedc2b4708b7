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
 * The connection's settings, apart so the pay benchmark's durable floor
 * (scripts/bench/bare-pay.ts) commits exactly as the store does. WAL lets
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
    const statement = sqlite.prepare(sql);
    if (statements.size < MAX_CACHED_STATEMENTS) statements.set(sql, statement);
    return statement;
  };
}
