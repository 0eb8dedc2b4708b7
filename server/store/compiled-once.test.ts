/**
 * A statement compiled once runs each time with that run's values, in the caller's transaction, and
 * the store's plugins see every run (SQLite's work signals are one).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely, KyselyPlugin } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { compiledOnce } from './compiled-once';
import { backendMigrations } from './migrations';
import { type BackendDatabase, openDatabase, sqliteFile, type Store } from '.';

let dir: string;
let store: Store;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-compiled-once-'));
  store = await openDatabase<BackendDatabase>(sqliteFile(dir), backendMigrations);
});
afterEach(async () => {
  await store.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const insertWindow = compiledOnce((db: Kysely<BackendDatabase>, row: { key: string; hits: number; resetAt: number }) =>
  db.insertInto('rate_limit_windows').values({ key: row.key, hits: row.hits, reset_at: row.resetAt }),
);
const windowOf = compiledOnce((db: Kysely<BackendDatabase>, { key }: { key: string }) => db.selectFrom('rate_limit_windows').select(['hits', 'reset_at']).where('key', '=', key));

it('runs with each call its own values, not the first call', async () => {
  await insertWindow(store, { key: 'a', hits: 1, resetAt: 10 });
  await insertWindow(store, { key: 'b', hits: 2, resetAt: 20 });
  expect(await windowOf(store, { key: 'a' })).toEqual([{ hits: 1, reset_at: 10 }]);
  expect(await windowOf(store, { key: 'b' })).toEqual([{ hits: 2, reset_at: 20 }]);
  expect(await windowOf(store, { key: 'c' })).toEqual([]);
});

it("runs in the caller's transaction: rolled back with it", async () => {
  await expect(
    store.transaction().execute(async (trx) => {
      await insertWindow(trx, { key: 'a', hits: 1, resetAt: 10 });
      expect(await windowOf(trx, { key: 'a' })).toHaveLength(1);
      throw new Error('rolled back');
    }),
  ).rejects.toThrow('rolled back');
  expect(await windowOf(store, { key: 'a' })).toEqual([]);
});

it("passes every run through the store's plugins", async () => {
  const inserts: string[] = [];
  const watching: KyselyPlugin = {
    transformQuery: ({ node }) => {
      if (node.kind === 'InsertQueryNode') inserts.push(node.kind);
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  const watched = store.withPlugin(watching);
  await insertWindow(watched, { key: 'a', hits: 1, resetAt: 10 });
  await insertWindow(watched, { key: 'b', hits: 1, resetAt: 10 });
  expect(inserts).toHaveLength(2);
});
