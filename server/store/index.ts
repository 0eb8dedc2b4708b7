/**
 * The backend's persistence behind Kysely, migrated on open: one SQLite file
 * (better-sqlite3) for a single instance, or PostgreSQL (DATABASE_URL) shared
 * by several. Everything a second instance would need lives here.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Kysely } from 'kysely';
import { openDatabase } from './database';
import { openPostgres } from './postgres';
import { backendMigrations } from './migrations';
import type { BackendDatabase } from './schema';

export type Store = Kysely<BackendDatabase>;
export type { BackendDatabase } from './schema';
export { openDatabase } from './database';

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

/** `databaseUrl` (postgres://...) selects PostgreSQL; without it the store is DATA_DIR/checkout.db. */
export async function openStore(dataDir: string, databaseUrl?: string): Promise<Store> {
  if (databaseUrl) return openPostgres<BackendDatabase>(databaseUrl, backendMigrations);
  mkdirSync(dataDir, { recursive: true });
  return openDatabase<BackendDatabase>(sqliteFile(dataDir), backendMigrations);
}
