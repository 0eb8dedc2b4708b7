/**
 * The backend's persistence behind Kysely, migrated on open: one SQLite file
 * (better-sqlite3) for a single instance, or PostgreSQL (DATABASE_URL) shared
 * by several. Everything a second instance would need lives here.
 */
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { privateDirectory } from '../lib/private-files';
import { openDatabase } from './database';
import { openPostgres } from './postgres';
import { backendMigrations } from './migrations';
import type { BackendDatabase } from './schema';

export type Store = Kysely<BackendDatabase>;
export type { BackendDatabase } from './schema';
export { openDatabase } from './database';

/** `databaseUrl` (postgres://...) selects PostgreSQL; without it the store is DATA_DIR/checkout.db. */
export async function openStore(dataDir: string, databaseUrl?: string): Promise<Store> {
  if (databaseUrl) return openPostgres<BackendDatabase>(databaseUrl, backendMigrations);
  privateDirectory(dataDir);
  return openDatabase<BackendDatabase>(join(dataDir, 'checkout.db'), backendMigrations);
}
