/**
 * Figure 9: the dashboard's payment list (GET /dashboard/api/payments, the
 * same `listAppSessions` as GET /api/sessions) on a store of 10,000 sessions
 * of one app (and as many of another, which the app's index must skip), on
 * SQLite and on PostgreSQL. Each query is timed in-process, the store's round
 * trips included and HTTP apart: the first page, a deep page (starting after
 * the 9,000th session: keyset paging should cost the same), and the filters
 * (a status, a reference, a week's date range). Baseline: the first page.
 *
 *   tsx scripts/bench/session-list.ts   (npm run bench runs it as figure 9)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { type App, createApp } from '../../server/apps';
import { listAppSessions } from '../../server/checkout/sessions';
import type { SessionRow } from '../../server/store/sessions';
import { createDataCipher } from '../../server/lib/data-cipher';
import { findPostgresBinaries, startPostgresCluster } from '../../testing/fleet/postgres-cluster';
import { openStore, type Store } from '../../server/store';
import { median, percentile } from './stats';

export interface SessionListOptions {
  sessions: number;
  /** Timed runs of each query, after as many untimed ones. */
  runs: number;
  pageSize: number;
}

export interface QueryTiming {
  p50Ms: number;
  p99Ms: number;
}

export interface EngineTimings {
  firstPage: QueryTiming;
  deepPage: QueryTiming;
  byStatus: QueryTiming;
  byReference: QueryTiming;
  byDateRange: QueryTiming;
}

export interface SessionListBench {
  options: SessionListOptions;
  sqlite: EngineTimings;
  postgres: EngineTimings | undefined;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const STATUSES = ['succeeded', 'succeeded', 'succeeded', 'open', 'expired', 'declined', 'captured', 'authorized', 'failed', 'released'];

/** `count` sessions of `appId` over the last 60 days, newest last, in batches (SQLite's and pg's parameter limits). */
export async function fill(store: Store, appId: string, count: number, start: number): Promise<SessionRow[]> {
  const rows: SessionRow[] = [];
  for (let i = 0; i < count; i++) {
    const created = start + Math.floor((i / count) * 60 * DAY_MS);
    rows.push({
      id: `cs_${appId.slice(-6)}${String(i).padStart(16, '0')}`,
      app_id: appId,
      status: STATUSES[i % STATUSES.length]!,
      amount: 1000 + (i % 9000),
      currency: 'USD',
      country_code: 'US',
      description: null,
      reference: `order-${appId.slice(-6)}-${i}`,
      intent: i % 7 === 0 ? 'hold' : 'charge',
      client_secret_hash: `hash-${i}`,
      attempts: 1,
      outcome: null,
      amount_captured: null,
      amount_refunded: 0,
      created,
      updated: created,
      expires_at: created + DAY_MS,
      billing_address_on_file_sealed: null,
      billing_address_sealed: null,
      billing_address_check: null,
      address_verification: null,
      line_items: null,
      shipping: null,
      contact: null,
      shipping_address_sealed: null,
      email_sealed: null,
      personal_data_erased: null,
      latest_quote: null,
      shipping_option: null,
      amount_charged: null,
      quote_pricing: null,
      charged_quote: null,
    });
  }
  for (let i = 0; i < rows.length; i += 500) await store.insertInto('sessions').values(rows.slice(i, i + 500)).execute();
  return rows;
}

async function time(runs: number, query: () => Promise<unknown>): Promise<QueryTiming> {
  for (let i = 0; i < runs; i++) await query();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const begin = process.hrtime.bigint();
    await query();
    samples.push(Number(process.hrtime.bigint() - begin) / 1e6);
  }
  return { p50Ms: median(samples), p99Ms: percentile(samples, 99) };
}

async function benchEngine(store: Store, engine: 'sqlite' | 'postgres', options: SessionListOptions): Promise<EngineTimings> {
  const apps: App[] = [];
  for (const name of ['Bench Shop', 'Neighbour Shop']) {
    const created = await createApp(store, { name, merchant_id: name.replace(/\W/g, '_'), allowed_origins: ['https://shop.example'] });
    if (!created.ok) throw new Error(created.error.message);
    apps.push(created.value.app);
  }
  const [app, neighbour] = apps as [App, App];
  const start = Date.now() - 60 * DAY_MS;
  const rows = await fill(store, app.id, options.sessions, start);
  await fill(store, neighbour.id, options.sessions, start);
  // PostgreSQL's autovacuum would have analysed a table this size long before; straight after a bulk load it has not yet.
  // SQLite is left as it runs in production: the app never runs ANALYZE there.
  if (engine === 'postgres') await sql`ANALYZE sessions`.execute(store);
  // No session here carries a sealed address, so the cipher is never asked to open one.
  const cipher = createDataCipher(randomBytes(32));
  const list = async (query: Record<string, string>) => {
    const listed = await listAppSessions(store, cipher, app, { limit: String(options.pageSize), ...query });
    if (!listed.ok || listed.value.data.length === 0) throw new Error(`the list answered nothing for ${JSON.stringify(query)}`);
  };
  // Newest first: the 9,000th listed is the 1,000th created.
  const deep = rows[rows.length - 9000]!.id;
  const week = { created_gte: String(start + 20 * DAY_MS), created_lt: String(start + 27 * DAY_MS) };
  return {
    firstPage: await time(options.runs, () => list({})),
    deepPage: await time(options.runs, () => list({ starting_after: deep })),
    byStatus: await time(options.runs, () => list({ status: 'declined' })),
    byReference: await time(options.runs, () => list({ reference: rows[4321]!.reference! })),
    byDateRange: await time(options.runs, () => list(week)),
  };
}

export async function benchSessionList(options: SessionListOptions): Promise<SessionListBench> {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-bench-list-'));
  try {
    const sqliteStore = await openStore(dir);
    const sqlite = await benchEngine(sqliteStore, 'sqlite', options).finally(() => sqliteStore.destroy());
    const bin = findPostgresBinaries();
    if (!bin) return { options, sqlite, postgres: undefined };
    const cluster = await startPostgresCluster(bin);
    try {
      const pgStore = await openStore(dir, cluster.url);
      const postgres = await benchEngine(pgStore, 'postgres', options).finally(() => pgStore.destroy());
      return { options, sqlite, postgres };
    } finally {
      await cluster.remove();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await benchSessionList({ sessions: 10_000, runs: 200, pageSize: 20 }), null, 2));
}
