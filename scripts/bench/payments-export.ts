/**
 * Figure 14: the dashboard's CSV export of 100,000 payments (GET
 * /dashboard/api/payments.csv's paymentsCsv, in-process, HTTP apart) on
 * SQLite and on PostgreSQL: how long it takes, and how far the heap grows
 * above where it stood before it, at the highest of its samples (one per page
 * written, each after a collection, in a second run: the first is timed
 * alone). The writer is a stream that takes its chunks a turn of the event
 * loop later, so the export waits for its 'drain' as it waits for a slow
 * connection. Baseline: the same rows read in one query, as an export that is
 * not streamed would hold them (and the CSV of them too).
 *
 *   npx tsx scripts/bench/payments-export.ts [sessions]   (npm run bench runs it as figure 14)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql } from 'kysely';
import { createApp } from '../../server/apps';
import { paymentsCsv, type ReadPage } from '../../server/dashboard/csv-export';
import { listSessions } from '../../server/store/session-list';
import { findPostgresBinaries, startPostgresCluster } from '../../testing/fleet/postgres-cluster';
import { openStore, type Store } from '../../server/store';
import { fill } from './session-list';

export interface ExportFigure {
  rows: number;
  bytes: number;
  seconds: number;
  /** The highest heap seen while exporting (each sample taken after a collection), above where it stood before (MiB). */
  peakHeapGrowthMiB: number;
  /** The heap's growth when the same rows are read in one query (the baseline), MiB. */
  oneQueryHeapGrowthMiB: number;
}

export interface PaymentsExportBench {
  sessions: number;
  sqlite: ExportFigure;
  postgres: ExportFigure | undefined;
}

const MiB = 1024 * 1024;
// A collection before each sample, whether or not node was started with --expose-gc (npm run bench is not).
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/**
 * One export into a reader a little slower than the store: each chunk is taken a turn later, so the writer's buffer
 * fills and drains as a slow connection's does. `sample` runs as each chunk arrives.
 */
async function exportTo(read: ReadPage, sample: () => void): Promise<{ rows: number; bytes: number; seconds: number }> {
  let bytes = 0;
  const sink = new Writable({
    highWaterMark: 64 * 1024,
    write(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      sample();
      setImmediate(done);
    },
  });
  const begin = process.hrtime.bigint();
  let rows = 0;
  const counted: ReadPage = async (after, limit) => {
    const page = await read(after, limit);
    rows += page.rows.length;
    return page;
  };
  await pipeline(Readable.from(paymentsCsv(counted), { objectMode: false }), sink);
  return { rows, bytes, seconds: Number(process.hrtime.bigint() - begin) / 1e9 };
}

async function benchEngine(store: Store, engine: 'sqlite' | 'postgres', sessions: number): Promise<ExportFigure> {
  const created = await createApp(store, { name: 'Export Shop', merchant_id: 'export_shop', allowed_origins: ['https://shop.example'] });
  if (!created.ok) throw new Error(created.error.message);
  const appId = created.value.app.id;
  await fill(store, appId, sessions, Date.now() - 60 * 24 * 3600_000);
  if (engine === 'postgres') await sql`ANALYZE sessions`.execute(store);

  const read = (after: { created: number; id: string } | undefined, limit: number) => listSessions(store, { appId, after, limit });
  // Timed alone; then again with the heap measured after a collection at each page written (what the export holds, its garbage apart).
  const timed = await exportTo(read, () => {});
  collect();
  const before = process.memoryUsage().heapUsed;
  let peakHeap = before;
  const measured = await exportTo(read, () => {
    collect();
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  });
  if (timed.rows !== sessions || measured.rows !== sessions) throw new Error(`exported ${timed.rows} of ${sessions} rows`);

  collect();
  const beforeOne = process.memoryUsage().heapUsed;
  const all = await listSessions(store, { appId, limit: sessions });
  collect();
  const oneQueryHeapGrowthMiB = (process.memoryUsage().heapUsed - beforeOne) / MiB;
  if (all.rows.length !== sessions) throw new Error('the one query read fewer rows');

  return { rows: timed.rows, bytes: timed.bytes, seconds: timed.seconds, peakHeapGrowthMiB: (peakHeap - before) / MiB, oneQueryHeapGrowthMiB };
}

export async function benchPaymentsExport(sessions: number): Promise<PaymentsExportBench> {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-bench-export-'));
  try {
    const sqliteStore = await openStore(dir);
    const sqlite = await benchEngine(sqliteStore, 'sqlite', sessions).finally(() => sqliteStore.destroy());
    const bin = findPostgresBinaries();
    if (!bin) return { sessions, sqlite, postgres: undefined };
    const cluster = await startPostgresCluster(bin);
    try {
      const pgStore = await openStore(dir, cluster.url);
      const postgres = await benchEngine(pgStore, 'postgres', sessions).finally(() => pgStore.destroy());
      return { sessions, sqlite, postgres };
    } finally {
      await cluster.remove();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await benchPaymentsExport(Number(process.argv[2] ?? 100_000)), null, 2));
}
