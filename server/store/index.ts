/**
 * The backend's persistence behind Kysely, migrated on open: one SQLite file
 * (better-sqlite3) for a single instance, or PostgreSQL (DATABASE_URL) shared
 * by several. Everything a second instance would need lives here.
 */
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Kysely, PostgresAdapter, sql, type Transaction } from 'kysely';
import { privateDirectory } from '../../common/private-files';
import { openDatabase } from '../../common/store/database';
import { type StoreErrorListener, storeFailureOf } from '../../common/store/failures';
import { defaultStoreLimits, type StoreLimits } from '../../common/store/limits';
import { withLocalWorkSignals } from './local-work-signals';
import { openPostgres } from './postgres';
import { backendMigrations } from './migrations';
import type { BackendDatabase } from './schema';

export type Store = Kysely<BackendDatabase>;
export type { BackendDatabase } from './schema';
export { openDatabase } from '../../common/store/database';
export { type StoreFailure, storeFailureOf } from '../../common/store/failures';
export { defaultStoreLimits, type StoreLimits } from '../../common/store/limits';

/**
 * Whether the store is PostgreSQL, where one statement can write several tables (data-modifying CTEs)
 * and is atomic on its own: the operations that would otherwise take a transaction of several round
 * trips take one there (store/attempt-moves.ts). SQLite has neither, and needs neither: it is in-process.
 */
export const onPostgres = (db: Store | Transaction<BackendDatabase>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/** Resolves once the store answers a query: readiness (/readyz) asks it. */
export async function pingStore(store: Store): Promise<void> {
  await sql`select 1`.execute(store);
}

/** The absolute path of the SQLite file the store keeps in `dataDir`. */
export const sqliteFile = (dataDir: string): string => resolve(dataDir, 'checkout.db');

/** Where the store is, fit to print: the SQLite file's absolute path, or the PostgreSQL URL without its password. */
export function describeStoreLocation(dataDir: string, databaseUrl?: string): string {
  if (!databaseUrl) return sqliteFile(dataDir);
  const url = new URL(databaseUrl);
  url.password = '';
  // libpq also takes the password as a query parameter.
  url.searchParams.delete('password');
  return url.toString();
}

/**
 * `databaseUrl` (postgres://...) selects PostgreSQL; without it the store is DATA_DIR/checkout.db, whose writes
 * that make work wake the workers in memory (local-work-signals.ts).
 * `onError` hears of every error the store raises, classified (store/failures.ts).
 */
export async function openStore(
  dataDir: string,
  databaseUrl?: string,
  options: { limits?: StoreLimits; onError?: StoreErrorListener } = {},
): Promise<Store> {
  const limits = options.limits ?? defaultStoreLimits;
  const onError = options.onError ?? (() => undefined);
  if (databaseUrl) return openPostgres<BackendDatabase>(databaseUrl, backendMigrations, { limits, onError });
  privateDirectory(dataDir);
  return withLocalWorkSignals(await openDatabase<BackendDatabase>(sqliteFile(dataDir), backendMigrations, { busyTimeoutMs: limits.statementTimeoutMs, onError }));
}

/** Waits between tries to open a store that is down at start: doubling from the first, up to the last. */
const OPEN_RETRY_MS = { first: 500, max: 10_000 };

/**
 * `open`, tried again for as long as the store is unavailable (the database
 * restarting, failing over, or not up yet when the fleet starts; a migration
 * cut mid-way rolls back and runs again), so that an instance waits for it
 * instead of exiting: how long is the orchestrator's startup probe's call.
 * Any other error ends the wait: it is ours to fix.
 */
export async function openStoreWhenAvailable(open: () => Promise<Store>, onWait: (retryInMs: number) => void): Promise<Store> {
  for (let delayMs = OPEN_RETRY_MS.first; ; delayMs = Math.min(delayMs * 2, OPEN_RETRY_MS.max)) {
    try {
      return await open();
    } catch (error) {
      if (!storeFailureOf(error)) throw error;
      onWait(delayMs);
      await sleep(delayMs);
    }
  }
}
