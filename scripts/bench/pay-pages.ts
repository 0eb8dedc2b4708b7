/**
 * What a pay writes to SQLite, page by page: `npx tsx scripts/bench/pay-pages.ts [--sessions N] [--pays N]`.
 * A backend in this process (testing/harness.ts) with N open sessions of one app; before each of
 * the pays the WAL is emptied (a TRUNCATE checkpoint from a connection of our own), after it the
 * WAL's frames are read back and each is named by the b-tree (table or index) its page belongs
 * to (SQLite's `dbstat`). Every frame is a page written, checksummed and later copied by a
 * checkpoint: the CPU per pay's SQLite rows of figure 3 grow with them (docs/benchmarks.md).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { startTestServer } from '../../testing/harness';
import { median } from './stats';

const { values } = parseArgs({ options: { sessions: { type: 'string', default: '500' }, pays: { type: 'string', default: '20' } } });
const sessionCount = Number(values.sessions);
const payCount = Math.min(Number(values.pays), sessionCount);
/** The card of the pay bench (pay-load.ts). */
const CARD = 'visa-success-3ds';
const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;

interface Frame {
  page: number;
  commits: boolean;
}

/** The WAL's frames in order: each one's page and whether it ends a transaction (a commit frame). */
function walFrames(walFile: string): Frame[] {
  const wal = readFileSync(walFile);
  if (wal.length < WAL_HEADER_BYTES) return [];
  const pageSize = wal.readUInt32BE(8);
  const frames: Frame[] = [];
  for (let offset = WAL_HEADER_BYTES; offset + FRAME_HEADER_BYTES + pageSize <= wal.length; offset += FRAME_HEADER_BYTES + pageSize) {
    frames.push({ page: wal.readUInt32BE(offset), commits: wal.readUInt32BE(offset + 4) !== 0 });
  }
  return frames;
}

const server = await startTestServer();
try {
  const { secretKey } = await server.merchant();
  const file = join(server.dataDir, 'checkout.db');
  const sessions = [];
  for (let i = 0; i < sessionCount; i++) sessions.push(await server.createSession(secretKey, { amount: 2400, currency: 'USD', country_code: 'US' }));
  const payments = await Promise.all(sessions.slice(0, payCount).map(async (session) => ({ session, paymentData: await server.walletPaymentData(session, CARD) })));
  const own = new Database(file);
  const pays: Frame[][] = [];
  try {
    for (const { session, paymentData } of payments) {
      own.pragma('wal_checkpoint(TRUNCATE)');
      const reply = await server.pay(session, { payment_data: paymentData });
      if (!reply.ok) throw new Error(`the pay answered ${reply.status}: ${await reply.text()}`);
      pays.push(walFrames(`${file}-wal`));
    }
    // Named after the pays, so that the pages they added are known too.
    const treeOf = new Map((own.prepare('SELECT name, pageno FROM dbstat').all() as { name: string; pageno: number }[]).map((row) => [row.pageno, row.name]));
    const perTree = new Map<string, number>();
    for (const frames of pays) {
      for (const { page } of frames) {
        const tree = treeOf.get(page) ?? '(freed since)';
        perTree.set(tree, (perTree.get(tree) ?? 0) + 1);
      }
    }
    // A commit's frames end with its commit frame: the claim's are before the first, the outcome's after.
    const claimSizes = pays.map((frames) => frames.findIndex((frame) => frame.commits) + 1);
    const sizes = pays.map((frames) => frames.length);
    console.log(
      `${payCount} pays among ${sessionCount} sessions: WAL pages per pay, median ${median(sizes)} (min ${Math.min(...sizes)}, max ${Math.max(...sizes)}); ` +
        `per commit, median: ${median(claimSizes)} and ${median(sizes.map((size, i) => size - claimSizes[i]!))}`,
    );
    console.log('pages per pay, by table or index (mean):');
    for (const [tree, count] of [...perTree].sort((a, b) => b[1] - a[1])) console.log(`  ${(count / payCount).toFixed(1).padStart(5)}  ${tree}`);
  } finally {
    own.close();
  }
} finally {
  await server.close();
}
