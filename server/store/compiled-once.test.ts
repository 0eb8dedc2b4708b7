/**
 * A statement compiled once runs each time with that run's values, in the caller's transaction, and
 * the store's plugins see every run (SQLite's work signals are one). Inputs of another shape (other keys,
 * a boolean that picks a column, an SQL expression in place of a value) are compiled as their own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, type KyselyPlugin, sql } from 'kysely';
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

const pickedColumns = compiledOnce((db: Kysely<BackendDatabase>, { pick, key }: { pick: Partial<Record<'hits' | 'reset_at', boolean>>; key: string }) =>
  db
    .selectFrom('rate_limit_windows')
    .select((['hits', 'reset_at'] as const).filter((column) => pick[column]))
    .where('key', '=', key),
);

it('compiles each shape of input as its own: other keys, another boolean, an expression in place of a value', async () => {
  await insertWindow(store, { key: 'a', hits: 1, resetAt: 10 });
  // The keys of the first run are a prefix of the second's, and the third's differ from it in a boolean alone.
  expect(await pickedColumns(store, { pick: { hits: true }, key: 'a' })).toEqual([{ hits: 1 }]);
  expect(await pickedColumns(store, { pick: { hits: true, reset_at: true }, key: 'a' })).toEqual([{ hits: 1, reset_at: 10 }]);
  expect(await pickedColumns(store, { pick: { hits: false, reset_at: true }, key: 'a' })).toEqual([{ reset_at: 10 }]);
  expect(await pickedColumns(store, { pick: { reset_at: true }, key: 'a' })).toEqual([{ reset_at: 10 }]);
  expect(await pickedColumns(store, { pick: { hits: true }, key: 'a' })).toEqual([{ hits: 1 }]);

  const insertWithHits = compiledOnce((db: Kysely<BackendDatabase>, { key, hits }: { key: string; hits: number | ReturnType<typeof sql<number>> }) =>
    db.insertInto('rate_limit_windows').values({ key, hits, reset_at: 0 }),
  );
  await insertWithHits(store, { key: 'b', hits: 5 });
  await insertWithHits(store, { key: 'c', hits: sql<number>`2 * 3` });
  await insertWithHits(store, { key: 'd', hits: 7 });
  const hitsOf = async (key: string) => (await windowOf(store, { key }))[0]?.hits;
  expect([await hitsOf('b'), await hitsOf('c'), await hitsOf('d')]).toEqual([5, 6, 7]);
});
