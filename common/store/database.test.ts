/**
 * The store's rows: made from better-sqlite3's raw rows (database.ts, withFastRows), they must be
 * the objects better-sqlite3 itself would answer, through Kysely and through a synchronous
 * transaction's statements alike, and a write that returns rows must still count as a commit.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMMITS_PER_CHECKPOINT } from './checkpointer';
import { openDatabase } from './database';
import { syncConnectionOf } from './sync-transactions';

/** Wider than the dozen columns past which better-sqlite3's own rows (Node 20) are slow objects. */
const COLUMNS = Array.from({ length: 30 }, (_, i) => `column_${i}`);

interface Wide {
  wide: Record<string, string | number | null>;
}

const migrations = {
  '0001': {
    up: async (db: Kysely<unknown>) => {
      await sql.raw(`create table wide (id integer primary key, ${COLUMNS.map((column) => `${column} text`).join(', ')})`).execute(db);
    },
  },
};

let dir: string;
let file: string;
let db: Kysely<Wide>;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'database-test-'));
  file = join(dir, 'store.db');
  db = await openDatabase<Wide>(file, migrations);
});
afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const rowValues = (n: number) => Object.fromEntries(COLUMNS.map((column, i) => [column, i % 3 === 0 ? null : `${column} of ${n}`]));

/** What better-sqlite3 answers for `text` on its own connection to the same file. */
function plainRows(text: string): unknown[] {
  const plain = new Database(file, { readonly: true });
  try {
    return plain.prepare(text).all();
  } finally {
    plain.close();
  }
}

describe("the store's rows", () => {
  it('are the objects better-sqlite3 answers, every column in order, through Kysely and the synchronous statements', async () => {
    await db.insertInto('wide').values([rowValues(1), rowValues(2)]).execute();
    // A column named twice keeps its last value, as better-sqlite3's rows do.
    const text = 'select *, column_1 as column_2, id * 10 as tenfold from wide order by id';
    const expected = plainRows(text);
    expect(expected).toHaveLength(2);

    const throughKysely = (await sql.raw(text).execute(db)).rows;
    expect(throughKysely).toStrictEqual(expected);
    expect(throughKysely.map((row) => Object.keys(row as object))).toStrictEqual(expected.map((row) => Object.keys(row as object)));

    const statement = syncConnectionOf(db)!.prepare(text);
    expect(statement.all()).toStrictEqual(expected);
    expect(statement.get()).toStrictEqual(expected[0]);
    expect([...(statement.iterate() as IterableIterator<unknown>)]).toStrictEqual(expected);
    expect(syncConnectionOf(db)!.prepare('select * from wide where id = ?').get(99)).toBeUndefined();
  });

  it('carry columns of any name as named, and refuse one named __proto__, which would be the row prototype', () => {
    const sqlite = syncConnectionOf(db)!;
    const text = `select 1 as "a b", 2 as "quote""d", 3 as 'back\\slash', 4 as "constructor", 5 as "toString"`;
    expect(sqlite.prepare(text).get()).toStrictEqual(plainRows(text)[0]);
    expect(Object.getPrototypeOf(sqlite.prepare(text).get())).toBe(Object.prototype);
    expect(() => sqlite.prepare('select 1 as "__proto__"')).toThrow(/__proto__/);
  });

  it('of a write that returns them are its rows, and the write still counts as a commit for the checkpoint worker', async () => {
    const insert = syncConnectionOf(db)!.prepare(`insert into wide (column_0, column_1) values (?, ?) returning id, column_0, column_1`);
    expect(insert.all('a', 'b')).toStrictEqual([{ id: 1, column_0: 'a', column_1: 'b' }]);
    const emptySize = statSync(file).size;
    // About a page a commit; only a checkpoint writes the database file in WAL mode, and the worker is asked every COMMITS_PER_CHECKPOINT commits.
    for (let i = 0; i < 2 * COMMITS_PER_CHECKPOINT; i++) insert.all('x'.repeat(3000), null);
    for (const deadline = Date.now() + 10_000; statSync(file).size <= emptySize + COMMITS_PER_CHECKPOINT * 4096; await sleep(10)) {
      if (Date.now() > deadline) throw new Error('no checkpoint wrote the database file');
    }
  });
});
