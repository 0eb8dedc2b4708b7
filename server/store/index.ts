/**
 * The backend's persistence behind Kysely, migrated on open: one SQLite file
 * (better-sqlite3) for a single instance, or PostgreSQL (DATABASE_URL) shared
 * by several. Everything a second instance would need lives here.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { openDatabase } from './database';
import type { StoreErrorListener } from './failures';
import { defaultStoreLimits, type StoreLimits } from './limits';
import { openPostgres } from './postgres';
import { backendMigrations } from './migrations';
import type { BackendDatabase } from './schema';

export type Store = Kysely<BackendDatabase>;
export type { BackendDatabase } from './schema';
export { openDatabase } from './database';
export { type StoreFailure, storeFailureOf } from './failures';
export { defaultStoreLimits, type StoreLimits } from './limits';

/**
 * `databaseUrl` (postgres://...) selects PostgreSQL; without it the store is DATA_DIR/checkout.db.
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
  mkdirSync(dataDir, { recursive: true });
  return openDatabase<BackendDatabase>(join(dataDir, 'checkout.db'), backendMigrations, { busyTimeoutMs: limits.statementTimeoutMs, onError });
}
