/**
 * Whether the checkpoint worker keeps up with a steady stream of commits:
 * `npx tsx scripts/bench/checkpoint-stream.ts [--rate N] [--seconds N]`. A connection configured as
 * the store's (common/store/database.ts) on a table of 20,000 rows with three indexes; commits at a
 * fixed rate, every other one a new row of 1.5 KB and the rest an update of a random earlier one, so
 * that each writes pages all over the file as a pay's do. Prints the checkpoint passes the worker
 * ran, the checkpoints the request connection had to run itself (each a copy of the whole WAL on
 * the loop: the worker fell behind) and the commits that blocked the loop for more than 5 ms.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { checkpointCounts } from '../../common/store/checkpointer';
import { configureConnection } from '../../common/store/database';

const { values } = parseArgs({ options: { rate: { type: 'string', default: '1200' }, seconds: { type: 'string', default: '10' } } });
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const SLOW_COMMIT_MS = 5;
const SEED_ROWS = 20_000;

const dir = mkdtempSync(join(tmpdir(), 'checkpoint-stream-'));
const sqlite = configureConnection(new Database(join(dir, 'stream.db')));
try {
  sqlite.exec('CREATE TABLE rows (id TEXT PRIMARY KEY, a TEXT, b TEXT, c INTEGER, body BLOB)');
  for (const index of ['rows_a ON rows (a)', 'rows_b ON rows (b, c)', 'rows_c ON rows (c)']) sqlite.exec(`CREATE INDEX ${index}`);
  const insert = sqlite.prepare('INSERT INTO rows VALUES (?, ?, ?, ?, ?)');
  const update = sqlite.prepare('UPDATE rows SET a = ?, b = ? WHERE id = ?');
  const key = () => randomBytes(8).toString('hex');
  sqlite.transaction(() => {
    for (let i = 0; i < SEED_ROWS; i++) insert.run(`seed${i}`, key(), key(), i, randomBytes(600));
  })();
  const before = checkpointCounts(sqlite);

  const slowCommitsMs: number[] = [];
  let commits = 0;
  const start = performance.now();
  while (performance.now() - start < seconds * 1000) {
    // The commits due by now, then a turn of the loop, where the worker's requests are sent from.
    for (const due = Math.floor(((performance.now() - start) / 1000) * rate); commits < due; commits++) {
      const began = performance.now();
      if (commits % 2 === 0) insert.run(`row${commits}`, key(), key(), SEED_ROWS + commits, randomBytes(1500));
      else update.run(key(), key(), `row${2 * Math.floor((Math.random() * commits) / 2)}`);
      const ms = performance.now() - began;
      if (ms > SLOW_COMMIT_MS) slowCommitsMs.push(ms);
    }
    await sleep(1);
  }
  const after = checkpointCounts(sqlite);
  console.log(
    [
      `${commits} commits at ${rate}/s for ${seconds} s`,
      `checkpoint passes by the worker: ${(after?.byWorker ?? 0) - (before?.byWorker ?? 0)}`,
      `checkpoints by the request connection (the worker fell behind): ${(after?.byConnection ?? 0) - (before?.byConnection ?? 0)}`,
      `commits over ${SLOW_COMMIT_MS} ms: ${slowCommitsMs.length}${slowCommitsMs.length > 0 ? ` (${slowCommitsMs.map((ms) => ms.toFixed(1)).join(', ')} ms)` : ''}`,
    ].join('\n'),
  );
} finally {
  sqlite.close();
  rmSync(dir, { recursive: true, force: true });
}
