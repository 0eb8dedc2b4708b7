/**
 * Soak test (issue 4): concurrent shoppers pay against the real server, run
 * as its own process, while the sandbox service fails a stated share of
 * charge requests; optionally the server is killed (kill -9) and restarted
 * during the run. Then reconciliation is given time to settle every payment
 * and the service's ledger is audited against the store. Bounded in time, not
 * part of `npm test`.
 *
 *   npm run soak -- [--shoppers 20] [--seconds 60] [--fault-rate 0.2] [--crash] [--crashes 3]
 *
 * Each flag defaults to SOAK_SHOPPERS, SOAK_SECONDS, SOAK_FAULT_RATE,
 * SOAK_CRASH=1, SOAK_CRASHES. Exits 1 when a duplicate, a lost or mismatched
 * charge, or a pending payment is left; the data directory is then kept.
 */
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type { CreatedSession } from '../server/contracts';
import { type FaultPlanInput, faultKinds } from '../server/sandbox';
import { auditLedger, readLedger, settledSessions, type ShopClient, shopClient, startChildServer } from '../server/testing/child-server';

const { values: flags } = parseArgs({
  options: {
    shoppers: { type: 'string', default: process.env.SOAK_SHOPPERS ?? '20' },
    seconds: { type: 'string', default: process.env.SOAK_SECONDS ?? '60' },
    'fault-rate': { type: 'string', default: process.env.SOAK_FAULT_RATE ?? '0.2' },
    crash: { type: 'boolean', default: process.env.SOAK_CRASH === '1' },
    crashes: { type: 'string', default: process.env.SOAK_CRASHES ?? '3' },
  },
});
const SHOPPERS = Number(flags.shoppers);
const SECONDS = Number(flags.seconds);
const FAULT_RATE = Number(flags['fault-rate']);
const CRASHES = flags.crash ? Number(flags.crashes) : 0;
if (![SHOPPERS, SECONDS, CRASHES].every(Number.isInteger) || SHOPPERS < 1 || SECONDS < 1 || !(FAULT_RATE >= 0 && FAULT_RATE <= 1)) {
  console.error('usage: npm run soak -- [--shoppers N>=1] [--seconds S>=1] [--fault-rate 0..1] [--crash] [--crashes N]');
  process.exit(2);
}

/** Every kind, with delays scaled to the 1 s service timeout below: a `timeout` outlasts it, a `latency` does not. */
const FAULTS: FaultPlanInput = { rate: FAULT_RATE, kinds: [...faultKinds], latencyMs: 200, timeoutMs: 1500 };
const SERVER_ENV = { SERVICE_TIMEOUT_MS: '1000', RECONCILE_INTERVAL_MS: '1000' };
/** Shares of shoppers' behaviour: a card that declines (then one retry with a good card), and a double click on pay. */
const DECLINE_SHARE = 0.15;
const DOUBLE_CLICK_SHARE = 0.1;
/** Time reconciliation is given, after the shoppers stop, to settle every payment (with faults still on). */
const DRAIN_TIMEOUT_MS = 45_000;

const server = await startChildServer({ env: SERVER_ENV });
const shop = shopClient(server);
await shop.setFaults(FAULTS);

const sessionIds: string[] = [];
const payLatenciesMs: number[] = [];
const replies = { succeeded: 0, authorized: 0, requires_authentication: 0, declined: 0, failed: 0, pending: 0, in_progress_409: 0, other_error: 0, cut_by_crash: 0 };

/** POST /pay, timed; a request the crash cut counts as such and answers undefined. */
async function timedPay(shopper: ShopClient, session: CreatedSession, cardId: string) {
  const paymentData = await shopper.walletPaymentData(session, cardId);
  const started = performance.now();
  const reply = await shopper.pay(session, paymentData).catch(() => undefined);
  if (!reply) {
    replies.cut_by_crash++;
    return undefined;
  }
  payLatenciesMs.push(performance.now() - started);
  const status = reply.body.outcome?.status;
  if (status) replies[status]++;
  else if (reply.body.error?.code === 'payment_in_progress') replies.in_progress_409++;
  else replies.other_error++;
  return status;
}

async function shopperLoop(until: number): Promise<void> {
  while (Date.now() < until) {
    try {
      const session = await shop.createSession({ amount: 100 + Math.floor(Math.random() * 9900) });
      sessionIds.push(session.id);
      const card = Math.random() < DECLINE_SHARE ? 'visa-decline-3ds' : 'visa-success-3ds';
      const clicks = Math.random() < DOUBLE_CLICK_SHARE ? 2 : 1;
      const outcomes = await Promise.all(Array.from({ length: clicks }, () => timedPay(shop, session, card)));
      // A shopper told "declined" tries once more, with another card: a new attempt, a new key.
      if (outcomes.includes('declined') || outcomes.includes('failed')) await timedPay(shop, session, 'mastercard-success-3ds');
    } catch {
      // The server is down (a crash) or answered an error outside /pay: wait and go on with a new session.
      await sleep(200);
    }
  }
}

/** kill -9 at evenly spaced moments, each followed by a restart on the same data (and port). */
async function crashLoop(started: number): Promise<void> {
  for (let crash = 1; crash <= CRASHES; crash++) {
    await sleep(Math.max(0, started + (SECONDS * 1000 * crash) / (CRASHES + 1) - Date.now()));
    await server.kill();
    await server.restart();
    // The fault plan is the sandbox's memory: it starts again without one.
    await shop.setFaults(FAULTS);
  }
}

const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

const started = Date.now();
const until = started + SECONDS * 1000;
console.log(`soak: ${SHOPPERS} shoppers for ${SECONDS} s, ${FAULT_RATE * 100}% of charge requests faulted (${faultKinds.join(', ')}), ${CRASHES} crash(es); data in ${server.dataDir}`);
await Promise.all([...Array.from({ length: SHOPPERS }, () => shopperLoop(until)), crashLoop(started)]);

const drainStarted = Date.now();
const sessions = await settledSessions(shop, sessionIds, DRAIN_TIMEOUT_MS, 1000);
const drainedMs = Date.now() - drainStarted;
const audit = auditLedger(sessions, await readLedger(server.dataDir));
await server.stop();

const latencies = [...payLatenciesMs].sort((a, b) => a - b);
const ms = (value: number) => `${Math.round(value)} ms`;
const rows: [string, string | number][] = [
  ['shoppers / duration / fault rate / crashes', `${SHOPPERS} / ${SECONDS} s / ${FAULT_RATE * 100}% / ${CRASHES}`],
  ['sessions', audit.sessions],
  ['  succeeded / declined / open (never reached pay)', `${audit.succeeded} / ${audit.declined} / ${sessions.filter((s) => s.status === 'open').length}`],
  ['pay requests', Object.values(replies).reduce((a, b) => a + b, 0)],
  ['  replies: succeeded / declined / pending / 409 in progress / cut by a crash', `${replies.succeeded} / ${replies.declined} / ${replies.pending} / ${replies.in_progress_409} / ${replies.cut_by_crash}`],
  ['charges at the service', audit.charges],
  ['duplicates (must be 0)', audit.duplicates.length],
  ['lost (must be 0)', audit.lost.length],
  ['mismatched amount or outcome (must be 0)', audit.mismatched.length],
  ['pending after reconciliation (must be 0)', audit.pending.length],
  ['reconciliation drained in', ms(drainedMs)],
  ['pay latency p50 / p99 / max', `${ms(percentile(latencies, 50))} / ${ms(percentile(latencies, 99))} / ${ms(latencies.at(-1) ?? NaN)}`],
];
const width = Math.max(...rows.map(([label]) => label.length));
console.log(['', ...rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`)].join('\n'));

const problems = [...audit.duplicates.map((id) => `duplicate: ${id}`), ...audit.lost, ...audit.mismatched, ...audit.pending.map((id) => `pending: ${id}`)];
if (problems.length > 0) {
  console.error(`\nFAILED: ${problems.length} problem(s), e.g.\n  ${problems.slice(0, 10).join('\n  ')}\ndata kept in ${server.dataDir}`);
  process.exit(1);
}
rmSync(server.dataDir, { recursive: true, force: true });
console.log('\nOK: no duplicate, nothing lost, nothing pending.');
