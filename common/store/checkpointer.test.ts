import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkpointCounts, checkpointWorker, COMMITS_PER_CHECKPOINT, WAL_LIMIT_PAGES } from './checkpointer';
import { configureConnection, openDatabase } from './database';

/** About one 4 KiB page per row. */
const ROW = 'x'.repeat(3000);

const migrations = {
  '0001': {
    up: async (db: Kysely<unknown>) => {
      await sql`create table notes (id integer primary key, body text not null)`.execute(db);
    },
  },
};

interface Notes {
  notes: { id: number | null; body: string };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'checkpointer-test-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !condition(); await sleep(10)) {
    if (Date.now() > deadline) throw new Error('timed out');
  }
}

/** A connection configured as the store's on `name` in the test's directory, with a notes table: `run` gets it and its insert, and it is closed after. */
async function withNotes(name: string, run: (notes: { file: string; sqlite: Database.Database; insert: Database.Statement }) => Promise<void>): Promise<void> {
  const file = join(dir, name);
  const sqlite = configureConnection(new Database(file));
  try {
    sqlite.exec('create table notes (id integer primary key, body text not null)');
    await run({ file, sqlite, insert: sqlite.prepare('insert into notes (body) values (?)') });
  } finally {
    sqlite.close();
  }
}

describe('WAL checkpoints off the request path', () => {
  it('are run by the worker through the store, whose connection never checkpoints in its commits', async () => {
    const file = join(dir, 'store.db');
    const db = await openDatabase<Notes>(file, migrations);
    try {
      expect((await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db)).rows[0]?.wal_autocheckpoint).toBe(0);
      const pageSize = (await sql<{ page_size: number }>`pragma page_size`.execute(db)).rows[0]?.page_size ?? 0;
      const emptySize = statSync(file).size;
      // 300 transactions of three rows, as a pay's are: past SQLite's 1,000 pages, short of the bound (WAL_LIMIT_PAGES), so only the worker checkpoints.
      for (let i = 0; i < 300; i++) {
        await db.transaction().execute(async (trx) => {
          for (let row = 0; row < 3; row++) await trx.insertInto('notes').values({ id: null, body: ROW }).execute();
        });
      }
      // Only a checkpoint writes the database file in WAL mode.
      await until(() => statSync(file).size > emptySize + 500 * pageSize);
    } finally {
      await db.destroy();
    }
  });

  it('counts the worker’s checkpoints, none by the request connection, on a connection configured as the store’s', () =>
    withNotes('direct.db', async ({ sqlite, insert }) => {
      // Writes in autocommit mode, one commit each: 600 commits of about 3 pages, past SQLite's
      // 1,000 but short of the bound (WAL_LIMIT_PAGES).
      for (let i = 0; i < 600; i++) {
        insert.run(ROW);
        if (i % 10 === 0) await sleep(1);
      }
      await until(() => (checkpointCounts(sqlite)?.byWorker ?? 0) > 0);
      expect(checkpointCounts(sqlite)).toMatchObject({ byConnection: 0, failed: 0 });
    }));

  it('keeps the WAL restarting under a steady stream of commits, with no checkpoint by the request connection', () =>
    withNotes('steady.db', async ({ file, sqlite, insert }) => {
      const walLimitBytes = WAL_LIMIT_PAGES * (sqlite.pragma('page_size', { simple: true }) as number);
      // A commit of about three pages every millisecond or so, for more pages in all than the limit: a pay's stream at a few hundred a second.
      // Every checkpoint pass finds commits made while it ran; the WAL restarts only once one has copied them all.
      for (let i = 0; i < 2500; i++) {
        insert.run(ROW.repeat(3));
        await sleep(1);
      }
      expect(checkpointCounts(sqlite)).toMatchObject({ byConnection: 0, failed: 0 });
      expect(statSync(`${file}-wal`).size).toBeLessThan(walLimitBytes);
    }));

  it('falls back to checkpointing in the commits when the worker is gone', () =>
    withNotes('fallback.db', async ({ file, sqlite, insert }) => {
      await checkpointWorker(sqlite)?.terminate();
      await until(() => sqlite.pragma('wal_autocheckpoint', { simple: true }) === 1000);
      const emptySize = statSync(file).size;
      for (let i = 0; i < 2000; i++) insert.run(ROW);
      // No worker: the file was written by the request connection's own checkpoints.
      expect(statSync(file).size).toBeGreaterThan(emptySize + 500 * 4096);
    }));

  it('keeps the WAL bounded when writes outrun the worker: the request connection checkpoints itself', () =>
    withNotes('outrun.db', async ({ file, sqlite, insert }) => {
      const walLimitBytes = WAL_LIMIT_PAGES * (sqlite.pragma('page_size', { simple: true }) as number);
      // 3 × the limit in one synchronous run: a commit every few µs, so the worker's checkpoints never complete between them.
      for (let i = 0; i < 3 * WAL_LIMIT_PAGES; i++) insert.run(ROW);
      expect(checkpointCounts(sqlite)?.byConnection).toBeGreaterThan(0);
      // Past the limit only by what was written during a checkpoint under way in the worker: the next commits bring the file back under it.
      await until(() => {
        for (let i = 0; i < COMMITS_PER_CHECKPOINT; i++) insert.run('');
        return statSync(`${file}-wal`).size <= walLimitBytes;
      });
    }));

  it('leaves nothing running in memory', () => {
    const sqlite = configureConnection(new Database(':memory:'));
    expect(checkpointWorker(sqlite)).toBeUndefined();
    sqlite.close();
  });
});

describe('a short-lived process with a store', () => {
  const run = (code: string) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: process.cwd(), timeout: 30_000 });
  const opening = (file: string) => `
    import { sql } from 'kysely';
    import { openDatabase } from './common/store/database.ts';
    const db = await openDatabase(${JSON.stringify(file)}, { '0001': { up: (db) => sql\`create table notes (id integer primary key, body text)\`.execute(db) } });
    for (let i = 0; i < 100; i++) await db.insertInto('notes').values({ body: 'x'.repeat(3000) }).execute();
  `;

  it('exits promptly once the store is closed, and the close ran the final checkpoint', async () => {
    const file = join(dir, 'cli.db');
    const started = Date.now();
    await run(`${opening(file)} await db.destroy(); console.log('closed');`);
    const elapsedMs = Date.now() - started;
    // SQLite's close removes the WAL only after checkpointing it whole, as the last connection open.
    expect(existsSync(`${file}-wal`)).toBe(false);
    const reader = new Database(file, { readonly: true });
    expect(reader.prepare('select count(*) as n from notes').get()).toEqual({ n: 100 });
    reader.close();
    expect(elapsedMs).toBeLessThan(20_000);
  }, 40_000);

  it('exits even if it never closes the store', async () => {
    const file = join(dir, 'unclosed.db');
    const { stdout } = await run(`${opening(file)} console.log('done');`);
    expect(stdout.trim()).toBe('done');
  }, 40_000);
});
