/**
 * The backend's persistence: one SQLite file (better-sqlite3) behind Kysely,
 * migrated on open. Everything a second instance would need lives here.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { openDatabase } from './database';
import { backendMigrations } from './migrations';
import type { BackendDatabase } from './schema';

export type Store = Kysely<BackendDatabase>;
export type { BackendDatabase } from './schema';
export { openDatabase } from './database';

export async function openStore(dataDir: string): Promise<Store> {
  mkdirSync(dataDir, { recursive: true });
  return openDatabase<BackendDatabase>(join(dataDir, 'checkout.db'), backendMigrations);
}
