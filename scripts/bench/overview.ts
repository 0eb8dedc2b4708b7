/**
 * Figure 12: the dashboard's overview (GET /dashboard/api/overview's `dashboardOverview`: its two
 * statements and the sums per currency and day) for the last 30 days, on a store of 100,000 sessions of
 * one app over 90 days (about a third of them in the period), with their charge attempts and refunds in
 * the proportions of a shop's traffic, on SQLite and on PostgreSQL. Timed in-process, the store's round
 * trips included and HTTP apart. Goal: p50 under 100 ms on each engine (a page a merchant waits for).
 *
 *   tsx scripts/bench/overview.ts   (npm run bench runs it as figure 12)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { type App, createApp } from '../../server/apps';
import { dashboardOverview } from '../../server/dashboard/overview';
import { findPostgresBinaries, startPostgresCluster } from '../../testing/fleet/postgres-cluster';
import { insertPayments, type PaymentRow } from '../../testing/session-rows';
import { openStore, type Store } from '../../server/store';
import { median, percentile, round, verdict } from './stats';
import type { QueryTiming } from './session-list';

export interface OverviewBenchOptions {
  sessions: number;
  /** Over how many days, ending now, the sessions were created. */
  spreadDays: number;
  /** Timed runs, after a few untimed ones. */
  runs: number;
}

/** The p50 and p99, and this process's CPU per run: on SQLite, in-process, the query's own cost whatever the machine's load. */
export interface OverviewTiming extends QueryTiming {
  cpuMsPerRun: number;
}

export interface OverviewBench {
  options: OverviewBenchOptions;
  goalMs: number;
  /** Sessions in the 30 days timed. */
  inPeriod: number;
  sqlite: OverviewTiming;
  postgres: OverviewTiming | undefined;
}

export const OVERVIEW_GOAL_MS = 100;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Weights of each status, of every 100 sessions: mostly paid, a tenth declined, an eighth abandoned. */
const STATUS_WEIGHTS: [string, number][] = [
  ['succeeded', 62],
  ['captured', 5],
  ['authorized', 2],
  ['released', 1],
  ['declined', 10],
  ['failed', 2],
  ['expired', 12],
  ['open', 4],
  ['requires_authentication', 1],
  ['processing', 1],
];
const DECLINE_WEIGHTS: [string, number][] = [
  ['insufficient_funds', 45],
  ['do_not_honor', 30],
  ['expired_card', 10],
  ['incorrect_cvc', 10],
  ['fraudulent', 5],
];
const CURRENCY_WEIGHTS: [string, number][] = [
  ['USD', 80],
  ['EUR', 15],
  ['JPY', 5],
];

/** A deterministic pseudo-random number in [0, 1) (mulberry32), so every run seeds the same store. */
function randomOf(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick(weights: [string, number][], random: number): string {
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0);
  let left = random * total;
  for (const [value, weight] of weights) if ((left -= weight) < 0) return value;
  return weights[weights.length - 1]![0];
}

/** The app's payments; one in twelve paid ones refunded, half of those in full. */
function paymentsOf(appId: string, options: OverviewBenchOptions, end: number): PaymentRow[] {
  const random = randomOf(12);
  return Array.from({ length: options.sessions }, (_, i) => {
    const status = pick(STATUS_WEIGHTS, random());
    const amount = 500 + Math.floor(random() * 20_000);
    const amountCaptured = status === 'captured' ? Math.floor(amount * (0.5 + random() / 2)) : null;
    const taken = status === 'succeeded' ? amount : (amountCaptured ?? 0);
    const refund = taken > 0 && random() < 1 / 12 ? (random() < 0.5 ? taken : Math.floor(taken / 3)) : 0;
    return {
      id: `cs_bench${String(i).padStart(18, '0')}`,
      appId,
      status,
      amount,
      currency: pick(CURRENCY_WEIGHTS, random()),
      intent: amountCaptured !== null || status === 'authorized' || status === 'released' ? 'hold' : 'charge',
      amountCaptured,
      amountRefunded: refund,
      declineCode: status === 'declined' ? pick(DECLINE_WEIGHTS, random()) : undefined,
      created: end - Math.floor(((options.sessions - i) / options.sessions) * options.spreadDays * DAY_MS),
    };
  });
}

/** Each session's charge attempts (a declined one tried once or twice, a paid one once after a decline in ten) and its refunds. */
async function fillAttemptsAndRefunds(store: Store, payments: readonly PaymentRow[]): Promise<void> {
  const attempts = payments.flatMap((payment, i) => {
    if (['open', 'expired'].includes(payment.status) && i % 3 !== 0) return [];
    const count = payment.status === 'declined' || i % 10 === 0 ? 2 : 1;
    return Array.from({ length: count }, (_, n) => ({
      id: `ca_${payment.id}_${n}`,
      session_id: payment.id,
      attempt_no: n + 1,
      idempotency_key: `${payment.id}:${n + 1}`,
      status: n + 1 < count || payment.status === 'declined' ? 'declined' : 'succeeded',
      source_type: 'walletpay',
      charge_id: `ch_${payment.id}_${n}`,
      outcome: null,
      request_sealed: null,
      authentication_session: null,
      payment_method: null,
      created: payment.created + n * 30_000,
      updated: payment.created + n * 30_000,
    }));
  });
  for (let i = 0; i < attempts.length; i += 500) await store.insertInto('charge_attempts').values(attempts.slice(i, i + 500)).execute();
  const refunds = payments
    .filter((payment) => (payment.amountRefunded ?? 0) > 0)
    .map((payment) => ({
      id: `re_${payment.id}`,
      session_id: payment.id,
      app_id: payment.appId,
      amount: payment.amountRefunded!,
      currency: payment.currency!,
      reason: null,
      status: 'succeeded',
      charge_id: `ch_${payment.id}_0`,
      service_refund_id: `sre_${payment.id}`,
      idempotency_key: `${payment.id}:refund`,
      failure_code: null,
      failure_message: null,
      created: payment.created + DAY_MS,
      updated: payment.created + DAY_MS,
    }));
  for (let i = 0; i < refunds.length; i += 500) await store.insertInto('refunds').values(refunds.slice(i, i + 500)).execute();
}

async function benchEngine(store: Store, engine: 'sqlite' | 'postgres', options: OverviewBenchOptions): Promise<{ timing: OverviewTiming; inPeriod: number }> {
  const created = await createApp(store, { name: 'Bench Shop', merchant_id: 'Bench_Shop', allowed_origins: ['https://shop.example'] });
  if (!created.ok) throw new Error(created.error.message);
  const app: App = created.value.app;
  const today = new Date().toISOString().slice(0, 10);
  const end = Date.parse(today) + DAY_MS;
  const payments = paymentsOf(app.id, options, end);
  await insertPayments(store, payments);
  await fillAttemptsAndRefunds(store, payments);
  // PostgreSQL's autovacuum would have vacuumed and analysed tables this size long before; straight after a bulk load it has not yet.
  // SQLite is left as it runs in production: the app never runs ANALYZE there.
  if (engine === 'postgres') await sql`VACUUM ANALYZE sessions`.execute(store);
  const period = { from: new Date(end - 30 * DAY_MS).toISOString().slice(0, 10), to: today, time_zone: 'UTC' };
  const overview = async () => {
    const answered = await dashboardOverview(store, app, period);
    if (!answered.ok) throw new Error(answered.error.message);
    return answered.value;
  };
  const first = await overview();
  const inPeriod = first.statuses.reduce((sum, row) => sum + row.count, 0);
  for (let i = 0; i < 5; i++) await overview();
  const samples: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < options.runs; i++) {
    const begin = process.hrtime.bigint();
    await overview();
    samples.push(Number(process.hrtime.bigint() - begin) / 1e6);
  }
  const used = process.cpuUsage(cpu);
  return { timing: { p50Ms: median(samples), p99Ms: percentile(samples, 99), cpuMsPerRun: (used.user + used.system) / 1000 / options.runs }, inPeriod };
}

export async function benchOverview(options: OverviewBenchOptions): Promise<OverviewBench> {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-bench-overview-'));
  try {
    const sqliteStore = await openStore(dir);
    const sqlite = await benchEngine(sqliteStore, 'sqlite', options).finally(() => sqliteStore.destroy());
    const bin = findPostgresBinaries();
    if (!bin) return { options, goalMs: OVERVIEW_GOAL_MS, inPeriod: sqlite.inPeriod, sqlite: sqlite.timing, postgres: undefined };
    const cluster = await startPostgresCluster(bin);
    try {
      const pgStore = await openStore(dir, cluster.url);
      const postgres = await benchEngine(pgStore, 'postgres', options).finally(() => pgStore.destroy());
      return { options, goalMs: OVERVIEW_GOAL_MS, inPeriod: sqlite.inPeriod, sqlite: sqlite.timing, postgres: postgres.timing };
    } finally {
      await cluster.remove();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The table's rows (run.ts): each engine's p50 / p99 against the goal, the ratio p50 ÷ goal. */
export function overviewRows(bench: OverviewBench): [string, string, string, string, string][] {
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  return (['sqlite', 'postgres'] as const).map((engine) => {
    const timing = bench[engine];
    const title = `12. Overview (dashboard, last 30 days: ${bench.inPeriod.toLocaleString('en')} of ${bench.options.sessions.toLocaleString('en')} sessions), ${engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'}: p50 / p99`;
    if (!timing) return [title, 'not run: no PostgreSQL binaries', '', '', ''];
    // On SQLite the statement runs in this process: its CPU per run is what a calm machine's wall time would be.
    const cpu = engine === 'sqlite' ? `; CPU ${ms(timing.cpuMsPerRun)} a run` : '';
    return [title, `${ms(timing.p50Ms)} / ${ms(timing.p99Ms)}${cpu}`, `goal ${ms(bench.goalMs)}`, String(round(timing.p50Ms / bench.goalMs)), `p50 ≤ ${bench.goalMs} ms: ${verdict(timing.p50Ms <= bench.goalMs)}`];
  });
}

export const OVERVIEW_BENCH_OPTIONS: OverviewBenchOptions = { sessions: 100_000, spreadDays: 90, runs: 50 };

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await benchOverview(OVERVIEW_BENCH_OPTIONS), null, 2));
}
