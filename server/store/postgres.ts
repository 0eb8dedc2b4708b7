import { Kysely, Migrator, PostgresDialect, type Migration } from 'kysely';
import pg from 'pg';

/**
 * int8 (bigint) columns hold ms timestamps and amounts, which Postgres'
 * `integer` cannot; pg returns them as strings by default so as not to lose
 * precision past 2^53. Ours stay far below that (amounts are capped at
 * 99,999,999,999), so they are read as the numbers the rest of the code
 * expects. Set on this pool only, so no other user of pg in the process is affected.
 */
const INT8_OID = 20;
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * Opens a PostgreSQL database through a pool and brings its schema up to
 * date with the same migrations SQLite runs. Kysely's migrator takes an
 * advisory lock, so instances starting together migrate once.
 */
export async function openPostgres<DB>(connectionString: string, migrations: Record<string, Migration>): Promise<Kysely<DB>> {
  const pool = new pg.Pool({ connectionString, types, max: 10 });
  // An idle connection the server drops (a restart, a failover) is an 'error' on the pool, fatal
  // without a listener. The pool discards that client and the next query connects afresh; a real
  // outage shows up where it matters, as failing queries and a failing /readyz.
  pool.on('error', () => undefined);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
  if (error) {
    await db.destroy();
    throw error instanceof Error ? error : new Error(String(error));
  }
  return db;
}
