/**
 * SQLite's synchronous transactions: all of a transaction commits or none of it, a failure reaches the
 * store's error listener, one never runs inside a Kysely transaction that is mid-way on the shared
 * connection, each run of a statement gets its own values whatever shape they come in, work is
 * signalled once committed, and a store plugin they would skip is refused.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KyselyPlugin } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { StoreFailure } from '../../common/store/failures';
import { localWorkSignals } from './local-work-signals';
import { backendMigrations } from './migrations';
import { inSyncStatement, inSyncTransaction, syncStatement } from './sync-statements';
import type { WorkKind } from './work-notifications';
import { type BackendDatabase, openDatabase, openStore, sqliteFile, type Store } from '.';

let dir: string;
let store: Store;
let failures: (StoreFailure | undefined)[];
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-sync-'));
  failures = [];
  store = await openStore(dir, undefined, { onError: (failure) => failures.push(failure) });
});
afterEach(async () => {
  await store.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const insertWindow = syncStatement((db, row: { key: string; hits: number; resetAt: number }) => db.insertInto('rate_limit_windows').values({ key: row.key, hits: row.hits, reset_at: row.resetAt }));
const windowsOf = syncStatement((db, { keys, resetAt }: { keys: string[]; resetAt?: number | null }) => {
  const query = db.selectFrom('rate_limit_windows').select(['key', 'hits']).where('key', 'in', keys).orderBy('key');
  // null: any window that has an end (every one), a clause chosen by the null, which a parameter could not stand for.
  return resetAt === undefined ? query : resetAt === null ? query.where('reset_at', 'is not', null) : query.where('reset_at', '=', resetAt);
});
const windows = () => store.selectFrom('rate_limit_windows').select(['key', 'hits']).orderBy('key').execute();

it('commits all of a transaction, and on a failure none of it, telling the error listener', async () => {
  await inSyncTransaction(store, (transaction) => {
    insertWindow(transaction, { key: 'a', hits: 1, resetAt: 10 });
    insertWindow(transaction, { key: 'b', hits: 2, resetAt: 20 });
  });
  expect(await windows()).toEqual([{ key: 'a', hits: 1 }, { key: 'b', hits: 2 }]);

  const failing = inSyncTransaction(store, (transaction) => {
    insertWindow(transaction, { key: 'c', hits: 3, resetAt: 30 });
    insertWindow(transaction, { key: 'a', hits: 4, resetAt: 40 });
  });
  await expect(failing).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
  expect(await windows()).toEqual([{ key: 'a', hits: 1 }, { key: 'b', hits: 2 }]);
  // Not the store's unavailability: a bug, as a failed Kysely statement's log reports it.
  expect(failures).toEqual([undefined]);
});

/**
 * A Kysely transaction mid-way on the connection: it has inserted the window `kysely` and awaits until
 * `release`, then rolls back; `rolledBack` settles (rejected) once it has.
 */
async function kyselyTransactionMidway(): Promise<{ release: () => void; rolledBack: Promise<unknown> }> {
  let release!: () => void;
  let inserted!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const midway = new Promise<void>((resolve) => (inserted = resolve));
  const rolledBack = store.transaction().execute(async (trx) => {
    await trx.insertInto('rate_limit_windows').values({ key: 'kysely', hits: 1, reset_at: 1 }).execute();
    inserted();
    await held;
    throw new Error('rolled back');
  });
  await midway;
  return { release, rolledBack };
}

it('waits for a Kysely transaction under way on the connection, and is no part of it', async () => {
  const { release, rolledBack: kysely } = await kyselyTransactionMidway();
  let ran = false;
  const sync = inSyncTransaction(store, (transaction) => {
    ran = true;
    insertWindow(transaction, { key: 'sync', hits: 2, resetAt: 2 });
    return windowsOf(transaction, { keys: ['kysely', 'sync'] });
  })!;
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(ran).toBe(false);
  release();
  await expect(kysely).rejects.toThrow('rolled back');
  // It ran once the Kysely transaction had ended: it saw none of its rolled-back row, and its own row stays.
  expect(await sync).toEqual([{ key: 'sync', hits: 2 }]);
  expect(await windows()).toEqual([{ key: 'sync', hits: 2 }]);
});

it('runs a lone statement as a transaction runs: after a Kysely transaction under way, seeing none of its writes', async () => {
  const { release, rolledBack: kysely } = await kyselyTransactionMidway();
  const read = inSyncStatement(store, (on) => windowsOf(on, { keys: ['kysely'] }))!;
  release();
  await expect(kysely).rejects.toThrow('rolled back');
  expect(await read).toEqual([]);
  expect(await store.transaction().execute(async (trx) => inSyncStatement(trx, () => 'ran'))).toBeUndefined();
});

it('runs each call with its own values, whatever their shape: an IN list of another length, a null choosing IS NULL', async () => {
  await inSyncTransaction(store, (transaction) => {
    insertWindow(transaction, { key: 'a', hits: 1, resetAt: 10 });
    insertWindow(transaction, { key: 'b', hits: 2, resetAt: 20 });
  });
  const read = (input: { keys: string[]; resetAt?: number | null }) => inSyncTransaction(store, (transaction) => windowsOf(transaction, input));
  expect(await read({ keys: ['a'] })).toEqual([{ key: 'a', hits: 1 }]);
  expect(await read({ keys: ['b'] })).toEqual([{ key: 'b', hits: 2 }]);
  expect(await read({ keys: ['a', 'b'] })).toEqual([{ key: 'a', hits: 1 }, { key: 'b', hits: 2 }]);
  expect(await read({ keys: ['a', 'b'], resetAt: 20 })).toEqual([{ key: 'b', hits: 2 }]);
  expect(await read({ keys: ['a', 'b'], resetAt: 10 })).toEqual([{ key: 'a', hits: 1 }]);
  expect(await read({ keys: ['a', 'b'], resetAt: null })).toEqual([{ key: 'a', hits: 1 }, { key: 'b', hits: 2 }]);
  expect(await read({ keys: ['b'], resetAt: 10 })).toEqual([]);
});

it('signals the work it made once it committed, and none for a transaction rolled back', async () => {
  const heard: WorkKind[] = [];
  localWorkSignals(store)!.listen((kind) => heard.push(kind));
  await inSyncTransaction(store, (transaction) => transaction.signal('webhooks'));
  await expect(inSyncTransaction(store, (transaction) => {
    transaction.signal('reconcile');
    throw new Error('rolled back');
  })).rejects.toThrow('rolled back');
  await new Promise((resolve) => setImmediate(resolve));
  expect(heard).toEqual(['webhooks']);
});

it("refuses a store with a plugin it would skip, and leaves a Kysely transaction's statements to it", async () => {
  const other: KyselyPlugin = { transformQuery: ({ node }) => node, transformResult: async ({ result }) => result };
  expect(() => inSyncTransaction(store.withPlugin(other), () => undefined)).toThrow(/plugin/);
  // Inside a Kysely transaction, which holds the connection, the caller runs its statement there (undefined: not run).
  expect(await store.transaction().execute(async (trx) => inSyncTransaction(trx, () => 'ran'))).toBeUndefined();
  // A store opened without the work signals (openDatabase alone) has no plugin at all: it runs.
  const bare = await openDatabase<BackendDatabase>(sqliteFile(mkdtempSync(join(dir, 'bare-'))), backendMigrations);
  try {
    expect(await inSyncTransaction(bare, () => 'ran')).toBe('ran');
  } finally {
    await bare.destroy();
  }
});
