import { Kysely, Migrator, PostgresDialect, type Migration } from 'kysely';
import pg from 'pg';
import { logStoreErrors, observedDialect, type StoreErrorListener, storeFailureOf } from '../../common/store/failures';
import type { StoreLimits } from '../../common/store/limits';

/**
 * int8 (bigint) columns hold ms timestamps and amounts, which Postgres'
 * `integer` cannot; pg returns them as strings by default so as not to lose
 * precision past 2^53. Ours stay far below that (amounts are capped at
 * 99,999,999,999), so they are read as the numbers the rest of the code
 * expects. Set on this pool only, so no other user of pg in the process is affected.
 */
const INT8_OID = 20;
/** How much longer than the server's statement_timeout the client waits before giving up on an answer. */
const CLIENT_TIMEOUT_MARGIN_MS = 1_000;
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * Opens a PostgreSQL database through a pool and brings its schema up to
 * date with the same migrations SQLite runs. Kysely's migrator takes an
 * advisory lock, so instances starting together migrate once.
 */
export async function openPostgres<DB>(
  connectionString: string,
  migrations: Record<string, Migration>,
  options: { limits: StoreLimits; onError: StoreErrorListener },
): Promise<Kysely<DB>> {
  const { limits, onError } = options;
  const pool = new pg.Pool({
    connectionString,
    types,
    application_name: 'wallet-checkout',
    max: limits.poolSize,
    connectionTimeoutMillis: limits.connectTimeoutMs,
    idleTimeoutMillis: limits.idleTimeoutMs,
    statement_timeout: limits.statementTimeoutMs,
    // The server may never answer (a partition, a host gone): the client stops waiting a little after the server would have.
    query_timeout: limits.statementTimeoutMs + CLIENT_TIMEOUT_MARGIN_MS,
    // A transaction whose client vanished mid-way frees its rows instead of holding them until TCP notices.
    idle_in_transaction_session_timeout: limits.statementTimeoutMs,
    keepAlive: true,
  });
  // A connection the server drops (a restart, a failover, pg_terminate_backend) is an 'error' event on
  // its client, and on the pool while it is idle: fatal to the process without a listener. Idle, the pool
  // discards it; checked out, the query under way fails too, and that failure is what the caller handles.
  const dropped = (error: Error) => onError(storeFailureOf(error));
  pool.on('error', dropped);
  pool.on('connect', (client) => client.on('error', dropped));
  const db = new Kysely<DB>({ dialect: observedDialect(new PostgresDialect({ pool }), onError), log: logStoreErrors(onError) });
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
  if (error) {
    await db.destroy();
    throw error instanceof Error ? error : new Error(String(error));
  }
  return db;
}
