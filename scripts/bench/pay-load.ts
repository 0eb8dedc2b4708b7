/**
 * POST /api/sessions/{id}/pay under load: our backend (a child process) in
 * front of the sandbox payment service (another child) that answers every
 * charge after a fixed delay, against two baselines making the same outbound
 * call (bare-pay.ts): the bare Express handler, which writes nothing, and the
 * durable floor, which commits the same two transactions as our pay (the
 * attempt before the call, its outcome after, as exactly-once needs) to SQLite
 * on the same disk as our backend's.
 * autocannon drives the closed-loop rounds from this process, the paced sender
 * (paced.ts) the 200/s phase, during which a probe inside each server and the
 * service (tail-probe.ts, BENCH_TAIL_PROBE_DIR) records where the time went
 * (tail.ts); every request pays a session of its own with a token minted
 * before the timed runs (minting is the wallet's cost, not ours).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createApp } from '../../server/apps';
import type { CreatedSession, PaymentData, PublicSession } from '../../contracts';
import { mintPaymentData } from '../../testing/sandbox';
import { openStore } from '../../server/store';
import { compiledServerArgs } from '../../testing/fleet/node-process';
import { type Child, startChild } from './children';
import { type PacedSample, sendPaced } from './paced';
import { perfFile, perfNodeArgs, recordPerf } from './pay-perf';
import { schedulingSnapshot, type TailFigures, tailFigures, tailProbe } from './tail';
import { inBalancedRounds, median, percentile } from './stats';

export interface PayLoadOptions {
  /** The sandbox service's fixed answer delay. */
  serviceDelayMs: number;
  /** Closed-loop rounds per target, the targets in a balanced order (stats.ts, balancedOrder). */
  rounds: number;
  /** Requests per closed-loop round. */
  requestsPerRound: number;
  connections: number;
  /** Requests at the fixed rate of 200/s, per target. */
  fixedRateRequests: number;
  /**
   * What sends them: the paced sender (paced.ts, the default), request i due at i / 200 s, or
   * autocannon's `overallRate`, as figure 3 did before 2026-11-26 (20 connections of 10 requests a
   * second, each sent back to back from the top of the second), to reproduce its figures.
   */
  fixedRateSender?: 'paced' | 'autocannon';
  /** Our backend as production runs it (`dist/server/main.js`, after `npm run build`) or from the sources through tsx. */
  backend: 'compiled' | 'tsx';
  /** A directory for V8 CPU profiles (`--cpu-prof`) of our backend and the baselines, written in its `ours/`, `bare/` and `durable/` when each stops. */
  cpuProfileDir?: string;
  /** A directory for on-CPU perf recordings of the three servers over the timed rounds (pay-perf.ts), `ours`, `bare` and `durable` in it. */
  perfDir?: string;
  /**
   * Another build of our backend, run as a fourth target in the same rounds: the root of a checkout whose
   * `dist/` is built (a `git worktree` of another commit), to set one change against the code before it.
   */
  againstBuild?: string;
}

export interface TargetFigures {
  /** Median over the closed-loop rounds. */
  throughputPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** End-to-end minus the service's delay, at 200 requests/second. */
  addedAt200: { p50Ms: number; p99Ms: number };
  /** Where the 200/s phase's time went, from the probe inside the servers (tail.ts). */
  tailAt200: TailFigures;
  /** The server process's CPU time per request in the closed-loop rounds (the service's is apart). */
  cpuMsPerRequest: number;
  /** The same, round by round: each round runs every target once, so round i of each ran within seconds of the others'. */
  cpuMsPerRequestByRound: number[];
  /** The service's CPU time per request while this target was driving it. */
  serviceCpuMsPerRequest: number;
  peakRssBytes: number;
}

export interface PayLoadResult {
  options: PayLoadOptions;
  /** When the closed-loop rounds ran, on the monotonic clock in µs, as V8's CPU profiles time their samples: the profile of the pay path without the set-up. */
  roundsWindowUs: { start: number; end: number };
  /** Requests answered in the timed rounds, per target. */
  roundsRequests: number;
  /** The servers' process ids (perf's maps are named after them). */
  pids: Record<TargetName, number>;
  ours: TargetFigures;
  /** The bare handler: the same outbound call, nothing written. */
  bare: TargetFigures;
  /** The durable floor: the bare handler plus our pay's two commits, by our store's statements. */
  durable: TargetFigures;
  /** The other build of ours (`againstBuild`), when there is one. */
  against?: TargetFigures;
}

export const TARGET_NAMES = ['ours', 'bare', 'durable'] as const;
export type TargetName = (typeof TARGET_NAMES)[number];

export const FIXED_RATE_PER_SECOND = 200;
/** Enough connections that 200/s never waits on a free one, even at the service's delay plus ours. */
const FIXED_RATE_CONNECTIONS = 20;
/**
 * Per server, before anything is timed. V8 keeps compiling the hot path for a few thousand requests:
 * after 300, the timed rounds still held about 0.3 ms of compiler threads per pay in each server
 * (perf), a cost the same for all three that a long-running server no longer pays, and that drew the
 * ratios toward 1 (docs/benchmarks.md, "Warm before timing").
 */
const WARMUP_REQUESTS = 2_000;
const CARD = 'visa-success-3ds';
const MERCHANT_ID = 'bench';
const PREPARE_CONCURRENCY = 8;

interface PreparedRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}

interface RatedPhase {
  latenciesMs: number[];
  tail: TailFigures;
}

interface RunFigures {
  count: number;
  seconds: number;
  latenciesMs: number[];
  serverCpuMs: number;
  serviceCpuMs: number;
}

/** process.hrtime's clock (CLOCK_MONOTONIC), which V8's profiles of other processes on this machine also use. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** Runs `task` for 0..n-1 with a few in flight at once; results in index order. */
async function pool<T>(n: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array<T>(n);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < n; i = next++) out[i] = await task(i);
  };
  await Promise.all(Array.from({ length: PREPARE_CONCURRENCY }, worker));
  return out;
}

/** Takes prepared requests in order; a run that would need more than were prepared reuses the last (which fails, and is counted). */
function cursor(items: PreparedRequest[]) {
  let next = 0;
  return () => items[Math.min(next++, items.length - 1)] as PreparedRequest;
}

function drive(
  url: string,
  take: () => PreparedRequest,
  amount: number,
  connections: number,
  overallRate: number | undefined,
  server: Child,
  service: Child,
): Promise<RunFigures> {
  return new Promise((resolve, reject) => {
    const latenciesMs: number[] = [];
    let failed = 0;
    const cpuBefore = { server: server.cpuMs(), service: service.cpuMs() };
    const start = process.hrtime.bigint();
    // autocannon notices its last reply only at its next once-a-second tick: the run ends at the last reply, not then.
    let lastReply = start;
    const instance = autocannon(
      {
        url,
        connections,
        amount,
        timeout: 30,
        ...(overallRate !== undefined && { overallRate }),
        requests: [{ method: 'POST', setupRequest: () => ({ method: 'POST', ...take() }) }],
      },
      (error, result) => {
        if (error) return reject(error);
        const seconds = Number(lastReply - start) / 1e9;
        if (failed > 0 || result.errors > 0 || result.timeouts > 0) {
          return reject(new Error(`${url}: ${failed} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`));
        }
        resolve({
          count: latenciesMs.length,
          seconds,
          latenciesMs,
          serverCpuMs: server.cpuMs() - cpuBefore.server,
          serviceCpuMs: service.cpuMs() - cpuBefore.service,
        });
      },
    );
    // autocannon's own histogram keeps whole milliseconds; added latency needs finer.
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      lastReply = process.hrtime.bigint();
      if (statusCode >= 200 && statusCode < 300) latenciesMs.push(responseTime);
      else failed++;
    });
  });
}

export async function benchPayLoad(options: PayLoadOptions): Promise<PayLoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-bench-'));
  // The service should cost its fixed delay and nothing more: its SQLite commits
  // go to memory, not to a disk whose fsyncs would make it the bottleneck.
  const serviceDir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'wallet-checkout-bench-service-'));
  const children: Child[] = [];
  const probe = tailProbe();
  try {
    const service = await startChild(['node', ...probe.nodeArgs, '--import', 'tsx', 'scripts/bench/sandbox-service.ts'], {
      ...probe.env,
      BENCH_DATA_DIR: serviceDir,
      BENCH_SERVICE_DELAY_MS: String(options.serviceDelayMs),
    }, /^READY /);
    children.push(service);
    const { url: serviceUrl, serviceSecretKey } = JSON.parse(service.readyLine.slice('READY '.length)) as { url: string; serviceSecretKey: string };

    const serviceEnv = { PAYMENT_SERVICE_URL: `${serviceUrl}/service`, PAYMENT_SERVICE_KEY: serviceSecretKey };
    // A folder per target: V8 writes a profile per thread, and tsx's loader has a thread of its own.
    const profiled = (name: string) => [
      ...(options.cpuProfileDir ? ['--cpu-prof', '--cpu-prof-dir', join(options.cpuProfileDir, name)] : []),
      ...(options.perfDir ? perfNodeArgs : []),
    ];
    /** A backend of ours on a store of its own, with the bench's app; `name` names its store and profile folders. */
    const startOurs = async (name: string, serverArgs: readonly string[]) => {
      // The app is created in the store before the backend opens it: one writer at a time.
      const dataDir = join(dir, name);
      const store = await openStore(dataDir);
      const created = await createApp(store, { name: 'Bench shop', merchant_id: MERCHANT_ID, allowed_origins: ['https://shop.example'], environment: 'TEST' });
      await store.destroy();
      if (!created.ok) throw new Error(created.error.message);
      const server = await startChild(['node', ...profiled(name), ...probe.nodeArgs, ...serverArgs], {
        ...serviceEnv,
        ...probe.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        WALLET_ENVIRONMENT: 'TEST',
        DEMO: 'off',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PAY_PER_MINUTE: '100000000',
        RATE_LIMIT_READS_PER_MINUTE: '100000000',
        RATE_LIMIT_MERCHANT_PER_MINUTE: '100000000',
        // No load balancer to drain from: it stops at once, in the time the bench gives it before SIGKILL, so a CPU profile gets written.
        SHUTDOWN_DRAIN_DELAY_MS: '0',
      }, /Widget:\s+\S+\/checkout\.js/);
      children.push(server);
      return { server, url: /Widget:\s+(\S+)\/checkout\.js/.exec(server.readyLine)?.[1] as string, secretKey: created.value.secretKey };
    };
    const ours = await startOurs('ours', options.backend === 'compiled' ? compiledServerArgs : ['--import', 'tsx', 'server/main.ts']);
    const { againstBuild } = options;
    // The same arguments as ours compiled, its entry point under the other checkout.
    const against = againstBuild ? await startOurs('against', compiledServerArgs.map((arg) => (arg.endsWith('.js') ? join(againstBuild, arg) : arg))) : undefined;
    const startBaseline = async (name: 'bare' | 'durable', env: Record<string, string>) => {
      const child = await startChild(['node', ...profiled(name), ...probe.nodeArgs, '--import', 'tsx', 'scripts/bench/bare-pay.ts'], { ...serviceEnv, ...probe.env, BENCH_MERCHANT_ID: MERCHANT_ID, ...env }, /^READY /);
      children.push(child);
      return child;
    };
    const perTarget = options.rounds * options.requestsPerRound + options.fixedRateRequests + WARMUP_REQUESTS;
    // autocannon builds one request per connection up front that is never sent: room for those too.
    const needed = perTarget + 4 * options.connections;
    const bare = await startBaseline('bare', {});
    // On the disk beside our backend's DATA_DIR: the same fsyncs.
    const durableDir = join(dir, 'durable');
    mkdirSync(durableDir);
    const durable = await startBaseline('durable', { BENCH_DURABLE_DATA_DIR: durableDir, BENCH_DURABLE_SESSIONS: String(needed) });
    const urlOf = (child: Child) => child.readyLine.slice('READY '.length).trim();

    const mint = (request: PublicSession['payment_data_request']) => mintPaymentData(`${serviceUrl}/wallet`, CARD, request);

    const newSession = async ({ url, secretKey }: typeof ours) => {
      const session = await json<CreatedSession>(await fetch(`${url}/api/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 2400, currency: 'USD', country_code: 'US' }),
      }));
      const view = await json<PublicSession>(await fetch(`${url}/api/sessions/${session.id}/public`, { headers: { authorization: `Bearer ${session.client_secret}` } }));
      return { session, view };
    };
    const payRequest = (sessionId: string, clientSecret: string, paymentData: PaymentData): PreparedRequest => ({
      path: `/api/sessions/${sessionId}/pay`,
      headers: { authorization: `Bearer ${clientSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ payment_data: paymentData }),
    });
    const paysOf = (backend: typeof ours) =>
      pool(needed, async () => {
        const { session, view } = await newSession(backend);
        return payRequest(session.id, session.client_secret, await mint(view.payment_data_request));
      });
    // The baselines look nothing up: the request our sessions carry, and ids of their own (the durable floor's sessions, made as it started).
    const { view } = await newSession(ours);
    const baselineItems = (name: string) => pool(needed, async (i) => payRequest(`cs_${name}${i}`, 'unchecked', await mint(view.payment_data_request)));

    const target = (url: string, items: PreparedRequest[], server: Child) => ({ url, take: cursor(items), server });
    const targets = [
      target(ours.url, await paysOf(ours), ours.server),
      target(urlOf(bare), await baselineItems('bare'), bare),
      target(urlOf(durable), await baselineItems('durable'), durable),
      ...(against ? [target(against.url, await paysOf(against), against.server)] : []),
    ];
    type Target = (typeof targets)[number];
    const closed = (t: Target, amount: number) => drive(t.url, t.take, amount, options.connections, undefined, t.server, service);
    /** One target's 200/s phase, the probe's window open in it and in the service over the phase. */
    const fixedRate = async (t: Target): Promise<RatedPhase> => {
      await probe.open(t.server.pid);
      await probe.open(service.pid);
      const before = schedulingSnapshot(t.server.pid, service.pid);
      let samples: PacedSample[] | undefined;
      let latenciesMs: number[];
      if (options.fixedRateSender === 'autocannon') {
        ({ latenciesMs } = await drive(t.url, t.take, options.fixedRateRequests, FIXED_RATE_CONNECTIONS, FIXED_RATE_PER_SECOND, t.server, service));
      } else {
        samples = await sendPaced(t.url, t.take, options.fixedRateRequests, FIXED_RATE_PER_SECOND);
        latenciesMs = samples.map((sample) => sample.doneMs - sample.sentMs);
      }
      const after = schedulingSnapshot(t.server.pid, service.pid);
      const serverWindow = await probe.close(t.server.pid);
      const serviceWindow = await probe.close(service.pid);
      return { latenciesMs, tail: tailFigures({ server: serverWindow, service: serviceWindow, before, after, ...(samples && { samples }) }) };
    };

    // Warm them all (JIT, connection pools, SQLite pages) before anything is timed.
    for (const t of targets) await closed(t, WARMUP_REQUESTS);
    const { perfDir } = options;
    const perf = perfDir ? TARGET_NAMES.map((name, i) => recordPerf((targets[i] as Target).server.pid, perfFile(perfDir, name))) : [];
    const roundsStart = monotonicUs();
    const rounds = await inBalancedRounds(options.rounds, targets.map((t) => () => closed(t, options.requestsPerRound)));
    const roundsWindowUs = { start: roundsStart, end: monotonicUs() };
    for (const recording of perf) await recording.stop();
    const atRate = await inBalancedRounds(1, targets.map((t) => () => fixedRate(t)));

    const figures = (runs: RunFigures[], rated: RatedPhase, server: Child): TargetFigures => {
      const all = runs.flatMap((r) => r.latenciesMs);
      const added = rated.latenciesMs.map((ms) => ms - options.serviceDelayMs);
      const count = runs.reduce((sum, r) => sum + r.count, 0);
      return {
        throughputPerSecond: median(runs.map((r) => r.count / r.seconds)),
        p50Ms: percentile(all, 50),
        p99Ms: percentile(all, 99),
        addedAt200: { p50Ms: percentile(added, 50), p99Ms: percentile(added, 99) },
        tailAt200: rated.tail,
        cpuMsPerRequest: runs.reduce((sum, r) => sum + r.serverCpuMs, 0) / count,
        cpuMsPerRequestByRound: runs.map((r) => r.serverCpuMs / r.count),
        serviceCpuMsPerRequest: runs.reduce((sum, r) => sum + r.serviceCpuMs, 0) / count,
        peakRssBytes: server.peakRssBytes(),
      };
    };
    const [oursFigures, bareFigures, durableFigures, againstFigures] = targets.map((t, i) => figures(rounds[i] ?? [], atRate[i]?.[0] as RatedPhase, t.server));
    const roundsRequests = (rounds[0] ?? []).reduce((sum, r) => sum + r.count, 0);
    return {
      options,
      roundsWindowUs,
      roundsRequests,
      pids: { ours: ours.server.pid, bare: bare.pid, durable: durable.pid },
      ours: oursFigures as TargetFigures,
      bare: bareFigures as TargetFigures,
      durable: durableFigures as TargetFigures,
      ...(againstFigures && { against: againstFigures }),
    };
  } finally {
    for (const child of children.reverse()) await child.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(serviceDir, { recursive: true, force: true });
    rmSync(probe.dir, { recursive: true, force: true });
  }
}
