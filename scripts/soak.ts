/**
 * Soak test (crash recovery and store outages under load): concurrent shoppers pay against the real
 * server, run as its own process, while the sandbox service fails a stated
 * share of charge requests; optionally the server is killed (kill -9) and
 * restarted, and optionally its PostgreSQL store is taken away during the run
 * (testing/soak.ts). Then the service's ledger is audited against the
 * store. Bounded in time; a short run with one outage is in the unit suite.
 *
 *   npm run soak -- [--shoppers 20] [--seconds 60] [--fault-rate 0.2] [--crash] [--crashes 3]
 *                   [--db-outage] [--outages 2] [--outage-seconds 5] [--fleet 3]
 *                   [--rolling-restart] [--rolling-restarts 2] [--express] [--mit]
 *
 * --express makes every session an express checkout priced by the merchant's
 * quote endpoint (testing/soak-express.ts): a soak-local endpoint prices by
 * zone and takes one promotion code; each shopper relays 1 to 4 changes of
 * the sheet (some overtaking the one before), pays with the latest quote
 * (some first with an older one, which must be refused), and every charge
 * is audited against the session's quote. It composes with every other flag.
 *
 * --mit has some shoppers keep their card for a subscription (their agreement
 * sent with the payment), and the merchant's billing runs charge the kept
 * cards (POST /api/payment_methods/{id}/charges), one Idempotency-Key per card
 * and period, some keys sent twice, at once or again, and every key without
 * an answer sent again (testing/soak-mit.ts). The audit holds each
 * merchant-initiated charge at the service to one key's one session, its card,
 * amount and stored credential. Not with --fleet (it reads the service's own
 * database).
 *
 * --fleet N runs the shoppers through nginx at N compiled instances on a
 * throwaway PostgreSQL cluster with the standalone sandbox (`npm run fleet`,
 * testing/fleet/fleet.ts); --crash then kill -9s a random instance (never the
 * sandbox or the database) and restarts it. It prints how many requests nginx
 * sent on to another instance, or could not place, from its access log. Not
 * with --db-outage. --rolling-restart restarts every instance gracefully,
 * one at a time, --rolling-restarts times (Fleet.rollingRestart: out of
 * nginx, SIGTERM, started again, ready, back in), and prints `failed requests
 * at the load balancer: N` (nginx's own 502/504s plus requests that got no
 * answer at all): a rolling restart must leave N at 0, or the run fails.
 *
 * --db-outage runs the store on a throwaway PostgreSQL cluster of its own
 * (from the installed binaries: it must be able to stop it), and at evenly
 * spaced moments terminates its backends and stops it hard (`pg_ctl -m
 * immediate`) for --outage-seconds. Without it, the store is DATABASE_URL if
 * set, else SQLite.
 *
 * Each flag defaults to SOAK_SHOPPERS, SOAK_SECONDS, SOAK_FAULT_RATE,
 * SOAK_CRASH=1, SOAK_CRASHES, SOAK_DB_OUTAGE=1, SOAK_OUTAGES,
 * SOAK_OUTAGE_SECONDS, SOAK_FLEET, SOAK_ROLLING_RESTART=1, SOAK_ROLLING_RESTARTS, SOAK_EXPRESS=1, SOAK_MIT=1. Exits 1 when the server died, or a duplicate, a lost
 * or mismatched charge, a pending payment, or (--express) a charge off its quote or a stale quote paid, or (--mit) a merchant-initiated charge duplicated, lost, mismatched, pending or without its stored credential is left; the data directory is then kept.
 */
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { faultKinds } from '../sandbox';
import { findPostgresBinaries, type PostgresCluster, startPostgresCluster } from '../testing/fleet/postgres-cluster';
import { startFleet } from '../testing/fleet/fleet';
import { findRedisServer } from '../testing/fleet/redis-server';
import { findNginx } from '../testing/fleet/nginx';
import { runFleetSoak, runSoak, SOAK_INSTANCE_ENV, type SoakOutcome, soakProblems } from '../testing/soak';
import { compiledLaunch } from '../testing/fleet/node-process';

const { values: flags } = parseArgs({
  options: {
    shoppers: { type: 'string', default: process.env.SOAK_SHOPPERS ?? '20' },
    seconds: { type: 'string', default: process.env.SOAK_SECONDS ?? '60' },
    'fault-rate': { type: 'string', default: process.env.SOAK_FAULT_RATE ?? '0.2' },
    crash: { type: 'boolean', default: process.env.SOAK_CRASH === '1' },
    crashes: { type: 'string', default: process.env.SOAK_CRASHES ?? '3' },
    'db-outage': { type: 'boolean', default: process.env.SOAK_DB_OUTAGE === '1' },
    outages: { type: 'string', default: process.env.SOAK_OUTAGES ?? '2' },
    'outage-seconds': { type: 'string', default: process.env.SOAK_OUTAGE_SECONDS ?? '5' },
    fleet: { type: 'string', default: process.env.SOAK_FLEET ?? '0' },
    'rolling-restart': { type: 'boolean', default: process.env.SOAK_ROLLING_RESTART === '1' },
    'rolling-restarts': { type: 'string', default: process.env.SOAK_ROLLING_RESTARTS ?? '2' },
    express: { type: 'boolean', default: process.env.SOAK_EXPRESS === '1' },
    mit: { type: 'boolean', default: process.env.SOAK_MIT === '1' },
  },
});
const SHOPPERS = Number(flags.shoppers);
const SECONDS = Number(flags.seconds);
const FAULT_RATE = Number(flags['fault-rate']);
const CRASHES = flags.crash ? Number(flags.crashes) : 0;
const OUTAGES = flags['db-outage'] ? Number(flags.outages) : 0;
const OUTAGE_SECONDS = Number(flags['outage-seconds']);
const FLEET = Number(flags.fleet);
const ROLLING_RESTARTS = flags['rolling-restart'] ? Number(flags['rolling-restarts']) : 0;
const EXPRESS = flags.express;
const MIT = flags.mit;
const checkouts = `${EXPRESS ? 'express checkouts priced by the merchant\'s quote endpoint' : 'checkouts at the session\'s amount'}${MIT ? ', some keeping the card, charged by the merchant\'s billing runs' : ''}`;
if (
  ![SHOPPERS, SECONDS, CRASHES, OUTAGES, FLEET, ROLLING_RESTARTS].every(Number.isInteger) ||
  FLEET < 0 ||
  ROLLING_RESTARTS < 0 ||
  (ROLLING_RESTARTS > 0 && FLEET === 0) ||
  (FLEET > 0 && OUTAGES > 0) ||
  (FLEET > 0 && MIT) ||
  SHOPPERS < 1 ||
  SECONDS < 1 ||
  OUTAGES < 0 ||
  !(OUTAGE_SECONDS > 0) ||
  !(FAULT_RATE >= 0 && FAULT_RATE <= 1)
) {
  console.error('usage: npm run soak -- [--shoppers N>=1] [--seconds S>=1] [--fault-rate 0..1] [--crash] [--crashes N] [--db-outage] [--outages N] [--outage-seconds S>0] [--fleet N>=1, not with --db-outage] [--rolling-restart [--rolling-restarts N], with --fleet] [--express] [--mit, not with --fleet]');
  process.exit(2);
}
/** Time reconciliation is given, after the shoppers stop, to settle every payment (with faults still on). */
const DRAIN_TIMEOUT_MS = 45_000;

if (FLEET > 0) {
  const postgresBin = findPostgresBinaries();
  const nginx = findNginx();
  if (!postgresBin || !nginx) {
    console.error('--fleet needs PostgreSQL and nginx installed (scripts/ensure-postgres.sh, scripts/ensure-nginx.sh)');
    process.exit(2);
  }
  const fleet = await startFleet({ instances: FLEET, port: 0, launch: compiledLaunch(), postgresBin, nginx, redisServer: findRedisServer(), env: SOAK_INSTANCE_ENV });
  console.log(`soak: ${SHOPPERS} shoppers for ${SECONDS} s through nginx at ${FLEET} compiled instances on PostgreSQL, ${checkouts}, ${FAULT_RATE * 100}% of charge requests faulted (${faultKinds.join(', ')}), ${CRASHES} instance crash(es), ${ROLLING_RESTARTS} rolling restart(s)`);
  const report = await runFleetSoak(fleet, { shoppers: SHOPPERS, seconds: SECONDS, faultRate: FAULT_RATE, crashes: CRASHES, rollingRestarts: ROLLING_RESTARTS, drainTimeoutMs: DRAIN_TIMEOUT_MS, express: EXPRESS }).catch(async (error: unknown) => {
    await fleet.stop({ keepFiles: true });
    throw error;
  });
  const answering = await Promise.all(fleet.instances.map((instance) => fetch(`http://${instance.address}/readyz`).then((r) => r.ok, () => false)));
  const notAnswered = Object.values(report.unanswered).reduce((a, b) => a + b, 0);
  const failedAtLoadBalancer = report.proxy.unanswered + notAnswered;
  if (report.rollingSteps.length > 0) console.log(['', 'rolling restarts, step by step:', ...report.rollingSteps.map((line) => `  ${line}`)].join('\n'));
  printReport(report, [
    ['shoppers / duration / fault rate', `${SHOPPERS} / ${SECONDS} s / ${FAULT_RATE * 100}%`],
    ['instances / crashes (kill -9 of a random instance, restarted)', `${FLEET} / ${CRASHES}${report.killed.length > 0 ? ` (${report.killed.join(', ')})` : ''}`],
    ['instances ready at the end', `${answering.filter(Boolean).length} of ${FLEET}`],
    ['rolling restarts (every instance, one at a time)', `${ROLLING_RESTARTS} (${report.rollingSteps.filter((line) => line.endsWith('back in nginx')).length} instance restarts)`],
    ['requests through nginx', report.proxy.requests],
    ['  sent on to another instance (the first refused or timed out)', report.proxy.failedOver],
    ['  answered 502/504 by nginx itself (cut mid-request by a crash, or no instance could take them)', report.proxy.unanswered],
    ['  answered 502/504 on the demo store (the merchant\'s own server, away while instance 1 restarts)', report.proxy.demoStoreUnanswered],
    ['  kept-alive connection closed under a request by a reload, resent as browsers do', Object.entries(report.resent).map(([why, n]) => `${why} ${n}`).join(', ') || 'none'],
    ['  no answer at all as the client saw it, even once resent (refused, reset), by cause', `${notAnswered}${notAnswered > 0 ? ` (${Object.entries(report.unanswered).map(([why, n]) => `${why} ${n}`).join(', ')})` : ''}`],
  ]);
  console.log(`failed requests at the load balancer: ${failedAtLoadBalancer}`);
  const problems = [
    ...(answering.every(Boolean) ? [] : ['an instance is not ready at the end']),
    // A crash cuts requests by nature; a rolling restart must not.
    ...(ROLLING_RESTARTS > 0 && CRASHES === 0 && failedAtLoadBalancer > 0 ? [`${failedAtLoadBalancer} failed request(s) at the load balancer during rolling restarts`] : []),
    ...soakProblems(report),
  ];
  await fleet.stop({ keepFiles: problems.length > 0 });
  finish(problems, fleet.dir);
}

let cluster: PostgresCluster | undefined;
if (OUTAGES > 0) {
  const bin = findPostgresBinaries();
  if (!bin) {
    console.error('--db-outage needs the PostgreSQL binaries (initdb, pg_ctl) to run a cluster it may stop: install postgresql (scripts/ensure-postgres.sh)');
    process.exit(2);
  }
  cluster = await startPostgresCluster(bin);
}

const store = cluster ? `PostgreSQL, ${OUTAGES} outage(s) of ${OUTAGE_SECONDS} s` : process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'SQLite';
console.log(`soak: ${SHOPPERS} shoppers for ${SECONDS} s, ${checkouts}, ${FAULT_RATE * 100}% of charge requests faulted (${faultKinds.join(', ')}), ${CRASHES} crash(es), store ${store}`);
const report = await runSoak({
  shoppers: SHOPPERS,
  seconds: SECONDS,
  faultRate: FAULT_RATE,
  crashes: CRASHES,
  ...(cluster && { database: { cluster, url: cluster.url, outages: OUTAGES, outageMs: OUTAGE_SECONDS * 1000 } }),
  drainTimeoutMs: DRAIN_TIMEOUT_MS,
  express: EXPRESS,
  mit: MIT,
}).catch(async (error: unknown) => {
  await cluster?.remove();
  throw error;
});
const { server } = report;
// The process that lived through every outage (crashes restart it) must still answer.
const alive = await fetch(`${server.url}/healthz`).then((response) => response.ok, () => false);
await server.stop();
await cluster?.remove();

printReport(report, [
  ['shoppers / duration / fault rate / crashes / store outages', `${SHOPPERS} / ${SECONDS} s / ${FAULT_RATE * 100}% / ${CRASHES} / ${OUTAGES}`],
  ['backends terminated', report.backendsTerminated],
  ['server alive at the end', alive ? 'yes' : 'NO'],
]);
finish([...(alive ? [] : ['the server process is not answering']), ...soakProblems(report)], server.dataDir);


/** The figures every soak prints, after the lines of its own set-up (`first`). */
function printReport(report: SoakOutcome, first: [string, string | number][]): void {
  const { audit, replies } = report;
  const latencies = [...report.payLatenciesMs].sort((a, b) => a - b);
  const percentile = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  const ms = (value: number) => `${Math.round(value)} ms`;
  const rows: [string, string | number][] = [
    ...first,
    ['sessions', audit.sessions],
    ['  succeeded / declined / open (never reached pay)', `${audit.succeeded} / ${audit.declined} / ${report.open}`],
    ['pay requests', Object.values(replies).reduce((a, b) => a + b, 0)],
    [
      '  replies: succeeded / declined / pending / 409 in progress or paid / 409 quote mismatch / 503 store unavailable / other error / cut by a crash',
      `${replies.succeeded} / ${replies.declined} / ${replies.pending} / ${replies.in_progress_or_paid_409} / ${replies.quote_mismatch_409} / ${replies.store_unavailable_503} / ${replies.other_error} / ${replies.cut_by_crash}`,
    ],
    ['  other errors, by code', Object.entries(report.otherErrors).map(([code, count]) => `${code} ${count}`).join(', ') || 'none'],
    ['requests before pay (a new session, its view, a quote relay) refused, by code', Object.entries(report.refusedBeforePay).map(([code, count]) => `${code} ${count}`).join(', ') || 'none'],
    ...expressRows(report),
    ...mitRows(report),
    ['charges at the service', audit.charges],
    ['duplicates (must be 0)', audit.duplicates.length],
    ['lost (must be 0)', audit.lost.length],
    ['mismatched amount or outcome (must be 0)', audit.mismatched.length],
    ['pending after reconciliation (must be 0)', audit.pending.length],
    ['refund requests answered: pending / succeeded / failed', `${report.refundReplies.pending} / ${report.refundReplies.succeeded} / ${report.refundReplies.failed}`],
    ['  refund requests sent again or refused, by code', Object.entries(report.refundErrors).map(([code, count]) => `${code} ${count}`).join(', ') || 'none'],
    ['refunds at the service', audit.refunds.count],
    ['refunds duplicated at the service, or made twice for one request (must be 0)', `${audit.refunds.duplicates.length}, ${report.refundsMadeTwice.length}`],
    ['refunds lost (must be 0)', audit.refunds.lost.length],
    ['sessions refunded above what they took (must be 0)', audit.refunds.overRefunded.length],
    ['events recorded / received by the merchant / delivered again (at least once)', `${report.webhooks.recorded} / ${report.webhooks.received} / ${report.webhooks.redelivered}`],
    ['events missing (must be 0)', report.webhooks.missing.length],
    ['events received that the store does not hold (must be 0)', report.webhooks.unrecorded.length],
    ['reconciliation drained in', ms(report.drainedMs)],
    ['pay latency p50 / p99 / max', `${ms(percentile(50))} / ${ms(percentile(99))} / ${ms(latencies.at(-1) ?? NaN)}`],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  console.log(['', ...rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`)].join('\n'));
}

/** What an express soak adds: the sheets' relays, the stale and repriced payments, the quote endpoint, and the charges held to their quotes. */
function expressRows({ express }: SoakOutcome): [string, string | number][] {
  if (!express) return [];
  const { relays, stale, endpoint, quoteAudit } = express;
  return [
    ['quote relays: priced / priced, a code refused / address refused / endpoint failed', `${relays.priced} / ${relays.codeRefused} / ${relays.addressRefused} / ${relays.failed}`],
    ['  changes made while one was being priced / replies superseded by a newer change', `${express.concurrent} / ${express.superseded}`],
    ['  shoppers who left without a sheet that may pay', express.gaveUp],
    ['quote endpoint requests: sheet / authorization / signature not verified (must be 0)', `${endpoint.sheet} / ${endpoint.authorization} / ${endpoint.unsigned}`],
    ['payments with an older quote, on purpose: sent / refused 409 quote_mismatch', `${stale.sent} / ${stale.refused}`],
    ['  ... that took a payment (must be 0)', stale.charged.length],
    ['payments refused as not the latest quote (an earlier change stored last), priced and paid again', express.repriced],
    ['charges held to their quote / off the session\'s quote total (must be 0)', `${quoteAudit.charges} / ${quoteAudit.offQuote.length}`],
  ];
}

/** What a soak with merchant-initiated charges adds: the billing job's runs and answers, and its keys audited. */
function mitRows({ mit }: SoakOutcome): [string, string | number][] {
  if (!mit) return [];
  const { audit } = mit;
  return [
    ['kept cards (saving sessions paid) / billing runs / keys (card, period)', `${mit.kept} / ${mit.runs} / ${mit.keys}`],
    ['  keys sent twice at once / sent again after their answer', `${mit.concurrent} / ${mit.repeated}`],
    ['merchant-initiated charge requests', mit.requests],
    ['  answers, by status or code', Object.entries(mit.replies).sort(([, a], [, b]) => b - a).map(([what, n]) => `${what} ${n}`).join(', ')],
    ['merchant-initiated sessions: succeeded / declined', `${audit.sessions}: ${audit.succeeded} / ${audit.declined}`],
    ['merchant-initiated charges at the service', audit.charges],
    ['  duplicates: a key with two sessions or charges (must be 0)', audit.duplicates.length],
    ['  lost (must be 0)', audit.lost.length],
    ['  mismatched amount, card or outcome (must be 0)', audit.mismatched.length],
    ['  without the kept card\'s stored credential and first reference (must be 0)', audit.credentials.length],
    ['  pending after reconciliation (must be 0)', audit.pending.length],
  ];
}

/** Exits 1 listing the problems, keeping the data; else removes it and exits 0. */
function finish(problems: string[], dataDir: string): never {
  if (problems.length > 0) {
    console.error(`\nFAILED: ${problems.length} problem(s), e.g.\n  ${problems.slice(0, 10).join('\n  ')}\ndata kept in ${dataDir}`);
    process.exit(1);
  }
  rmSync(dataDir, { recursive: true, force: true });
  console.log(`\nOK: every server stayed up; no payment or refund duplicated or lost, nothing pending, every event received${EXPRESS ? ", every charge its quote's total" : ''}${MIT ? ', every merchant-initiated charge one key\'s, with its stored credential' : ''}.`);
  process.exit(0);
}
