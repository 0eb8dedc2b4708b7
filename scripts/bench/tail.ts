/**
 * Where the tail of figure 3's 200/s phase comes from, the bench's side of the
 * probe (tail-probe.ts): builds the probe for `node --import`, opens and
 * closes its windows around each target's phase (SIGUSR2), reads the kernel's
 * run-queue wait of each process's main thread (/proc/<pid>/task/<pid>/schedstat:
 * time runnable but not running, i.e. waiting for one of the shared cores) and
 * how busy the machine's cores were (/proc/stat), and joins the sender's
 * samples (paced.ts) to the server's requests by their sequence number.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildSync } from 'esbuild';
import { repoRoot } from './children';
import type { PacedSample } from './paced';
import { percentile } from './stats';
import type { ProbedRequest, ProbeWindow } from './tail-window';

export interface TailProbe {
  /** Where the probe is built and writes its windows: the bench removes it. */
  dir: string;
  /** `node` arguments that load the probe. */
  nodeArgs: string[];
  /** The environment that switches it on. */
  env: Record<string, string>;
  open(pid: number): Promise<void>;
  close(pid: number): Promise<ProbeWindow>;
}

/** Builds the probe into a temp directory of its own, where its windows are written too. */
export function tailProbe(): TailProbe {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-tail-probe-'));
  const file = join(dir, 'tail-probe.mjs');
  buildSync({ absWorkingDir: repoRoot, entryPoints: ['scripts/bench/tail-probe.ts'], outfile: file, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'warning' });
  const windows = new Map<number, number>();
  const signalled = async (pid: number, file: string) => {
    process.kill(pid, 'SIGUSR2');
    for (const deadline = Date.now() + 10_000; !existsSync(file); await sleep(5)) {
      if (Date.now() > deadline) throw new Error(`the probe in ${pid} did not write ${file}`);
    }
  };
  return {
    dir,
    nodeArgs: ['--import', file],
    env: { BENCH_TAIL_PROBE_DIR: dir },
    open: (pid) => signalled(pid, join(dir, `${pid}-${windows.get(pid) ?? 0}-open`)),
    async close(pid) {
      const index = windows.get(pid) ?? 0;
      const out = join(dir, `${pid}-${index}.json`);
      await signalled(pid, out);
      windows.set(pid, index + 1);
      return JSON.parse(readFileSync(out, 'utf8')) as ProbeWindow;
    },
  };
}

/** A process's main thread so far: ms on a core, and ms runnable but waiting for one. */
export function schedulerMs(pid: number): { onCpu: number; waiting: number } {
  const [onCpu = 0, waiting = 0] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(' ').map(Number);
  return { onCpu: onCpu / 1e6, waiting: waiting / 1e6 };
}

/** Every core's time so far in /proc/stat's ticks: all of it, and busy (neither idle nor waiting for I/O). */
export function coreTicks(): { total: number; busy: number } {
  const [, ...fields] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).map(Number);
  const total = fields.slice(0, 8).reduce((sum, n) => sum + n, 0);
  return { total, busy: total - (fields[3] ?? 0) - (fields[4] ?? 0) };
}

/** What the scheduler and the cores did over a phase: snapshots before and after. */
export interface SchedulingSnapshot {
  atMs: number;
  sender: { onCpu: number; waiting: number };
  server: { onCpu: number; waiting: number };
  service: { onCpu: number; waiting: number };
  cores: { total: number; busy: number };
}

export function schedulingSnapshot(serverPid: number, servicePid: number): SchedulingSnapshot {
  return { atMs: Date.now(), sender: schedulerMs(process.pid), server: schedulerMs(serverPid), service: schedulerMs(servicePid), cores: coreTicks() };
}

/**
 * Where a request's time went, in ms. `toServer`, `back` and `total` need the
 * sender's side (the paced sender's samples, joined by sequence number); with
 * autocannon they are absent and `total` is the server's own time.
 */
export interface Split {
  /** Written by the sender, headers parsed by the server: the socket, and the server's loop busy with something else. */
  toServer?: number;
  /** Arrival to the service call: parsing, checks, the claim's transaction (of it, SQLite on the loop: `beforeSqlite`). */
  beforeCall: number;
  beforeSqlite: number;
  /** The service call, its fixed delay included; what is above the delay is the service's own wait and the server's loop noticing the reply. */
  call: number;
  /** The reply's body received to the server's reply written: the outcome's transaction (`afterSqlite`), the view. */
  after: number;
  afterSqlite: number;
  /** The server's reply written to its last byte read by the sender. */
  back?: number;
  /** Collector pauses in the server while the request was open. */
  gc: number;
  total: number;
}

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

export interface TailFigures {
  /** Requests split (all the phase's, unless the probe missed one's service call). */
  split: number;
  /** Mean split of the slowest 1% (end to end with the paced sender; by the server's own time with autocannon), and the median request's, for contrast. */
  slowest: Split;
  median: Split;
  /** Most requests that arrived within any 100 ms (200/s evenly paced: 20), and most open at once in the server. */
  arrivals: { peakPer100Ms: number; peakOpen: number };
  /** The paced sender's lateness (sent − due); absent with autocannon, which has no schedule. */
  senderLatenessMs?: { p50: number; p99: number; max: number };
  /** Run-queue wait: ms per second of the phase that a main thread was runnable but had no core. */
  runQueueWaitMsPerSecond: { sender: number; server: number; service: number };
  server: {
    eventLoopDelayMs: { p50: number; p99: number; max: number };
    gc: { count: number; totalMs: number; maxMs: number; byKind: Record<string, { count: number; totalMs: number; maxMs: number }> };
    commits: { count: number; p50Ms: number; p99Ms: number; maxMs: number; totalMs: number };
    /** The commits that ran SQLite's automatic checkpoint. */
    checkpoints: { count: number; totalMs: number; maxMs: number };
    onCpuMsPerSecond: number;
  };
  service: { eventLoopDelayMsP99: number };
  /** Share of all cores busy during the phase (sender, service, servers and anything else on the machine). */
  coresBusy: number;
}

const mean = (values: readonly number[]) => (values.length === 0 ? Number.NaN : values.reduce((sum, n) => sum + n, 0) / values.length);
const sum = (values: readonly number[]) => values.reduce((total, n) => total + n, 0);
type Complete = Required<Omit<ProbedRequest, 'seq'>> & Pick<ProbedRequest, 'seq'>;

function splitOf(request: Complete, gc: ProbeWindow['gc'], sample: PacedSample | undefined): Split {
  const from = sample?.sentMs ?? request.arrivedMs;
  const to = sample?.doneMs ?? request.finishedMs;
  return {
    ...(sample && { toServer: request.arrivedMs - sample.sentMs, back: sample.doneMs - request.finishedMs }),
    beforeCall: request.serviceStartMs - request.arrivedMs,
    beforeSqlite: request.sqliteBeforeMs,
    call: request.serviceEndMs - request.serviceStartMs,
    after: request.finishedMs - request.serviceEndMs,
    afterSqlite: request.sqliteAfterMs,
    gc: sum(gc.map(([start, duration]) => Math.max(0, Math.min(start + duration, to) - Math.max(start, from)))),
    total: to - from,
  };
}

function meanSplit(splits: readonly Split[]): Split {
  const keys = Object.keys(splits[0] ?? {}) as (keyof Split)[];
  return Object.fromEntries(keys.map((key) => [key, mean(splits.map((s) => s[key] ?? Number.NaN))])) as unknown as Split;
}

function gcFigures(gc: ProbeWindow['gc']): TailFigures['server']['gc'] {
  const of = (entries: ProbeWindow['gc']) => ({ count: entries.length, totalMs: sum(entries.map(([, d]) => d)), maxMs: Math.max(0, ...entries.map(([, d]) => d)) });
  const kinds = [...new Set(gc.map(([, , kind]) => kind))];
  return { ...of(gc), byKind: Object.fromEntries(kinds.map((kind) => [GC_KINDS[kind] ?? String(kind), of(gc.filter(([, , k]) => k === kind))])) };
}

/** Most of `times` (sorted) within any `spanMs`. */
function peakWithin(times: readonly number[], spanMs: number): number {
  let peak = 0;
  for (let first = 0, last = 0; last < times.length; last++) {
    while ((times[last] as number) - (times[first] as number) >= spanMs) first++;
    peak = Math.max(peak, last - first + 1);
  }
  return peak;
}

/** Most intervals open at once. */
function peakOpen(intervals: readonly [number, number][]): number {
  const edges = intervals.flatMap(([start, end]): [number, number][] => [[start, 1], [end, -1]]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let peak = 0;
  for (const [, step] of edges) peak = Math.max(peak, (open += step));
  return peak;
}

export interface TailInputs {
  server: ProbeWindow;
  service: ProbeWindow;
  before: SchedulingSnapshot;
  after: SchedulingSnapshot;
  /** The paced sender's samples; absent with autocannon. */
  samples?: readonly PacedSample[];
}

export function tailFigures({ server, service, before, after, samples }: TailInputs): TailFigures {
  const complete = (r: ProbedRequest): r is Complete => r.serviceStartMs !== undefined && r.serviceEndMs !== undefined && r.finishedMs !== undefined;
  const requests = server.requests.filter(complete);
  const sampleOf = new Map(samples?.map((s) => [s.seq, s]));
  const splits = requests.flatMap((request) => {
    const sample = request.seq === undefined ? undefined : sampleOf.get(request.seq);
    return samples && !sample ? [] : [splitOf(request, server.gc, sample)];
  });
  const byTotal = [...splits].sort((a, b) => a.total - b.total);
  const slowest = byTotal.slice(-Math.max(1, Math.ceil(byTotal.length / 100)));
  const median = byTotal[Math.floor(byTotal.length / 2)];
  const seconds = (after.atMs - before.atMs) / 1000;
  const perSecond = (a: number, b: number) => (b - a) / seconds;
  const lateness = samples?.map((s) => s.sentMs - s.dueMs);
  return {
    split: splits.length,
    slowest: meanSplit(slowest),
    median: meanSplit(median ? [median] : []),
    arrivals: {
      peakPer100Ms: peakWithin(server.requests.map((r) => r.arrivedMs).sort((a, b) => a - b), 100),
      peakOpen: peakOpen(requests.map((r) => [r.arrivedMs, r.finishedMs])),
    },
    ...(lateness && { senderLatenessMs: { p50: percentile(lateness, 50), p99: percentile(lateness, 99), max: Math.max(...lateness) } }),
    runQueueWaitMsPerSecond: {
      sender: perSecond(before.sender.waiting, after.sender.waiting),
      server: perSecond(before.server.waiting, after.server.waiting),
      service: perSecond(before.service.waiting, after.service.waiting),
    },
    server: {
      eventLoopDelayMs: { p50: server.eventLoopDelayMs.p50, p99: server.eventLoopDelayMs.p99, max: server.eventLoopDelayMs.max },
      gc: gcFigures(server.gc),
      commits: {
        count: server.commitsMs.length,
        p50Ms: percentile(server.commitsMs, 50),
        p99Ms: percentile(server.commitsMs, 99),
        maxMs: Math.max(0, ...server.commitsMs),
        totalMs: sum(server.commitsMs),
      },
      checkpoints: { count: server.checkpointsMs.length, totalMs: sum(server.checkpointsMs), maxMs: Math.max(0, ...server.checkpointsMs) },
      onCpuMsPerSecond: perSecond(before.server.onCpu, after.server.onCpu),
    },
    service: { eventLoopDelayMsP99: service.eventLoopDelayMs.p99 },
    coresBusy: (after.cores.busy - before.cores.busy) / (after.cores.total - before.cores.total),
  };
}

const f1 = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? 'n/a' : n.toFixed(1));

/** A split as the bench prints it. */
export function splitLine(split: Split, serviceDelayMs: number): string {
  return [
    ...(split.toServer === undefined ? [] : [`to server ${f1(split.toServer)}`]),
    `before the call ${f1(split.beforeCall)} (SQLite ${f1(split.beforeSqlite)})`,
    `call ${f1(split.call)} (${f1(split.call - serviceDelayMs)} over the service's delay)`,
    `after ${f1(split.after)} (SQLite ${f1(split.afterSqlite)})`,
    ...(split.back === undefined ? [] : [`back ${f1(split.back)}`]),
    `total ${f1(split.total)}; collector ${f1(split.gc)} ms`,
  ].join(', ');
}

/** The server's loop, collector and commits over the phase, as the bench prints them. */
export function serverLine({ server, runQueueWaitMsPerSecond }: TailFigures): string {
  const { eventLoopDelayMs: delay, gc, commits } = server;
  const kinds = Object.entries(gc.byKind).map(([kind, k]) => `${kind} ${k.count} / ${f1(k.totalMs)} / ${f1(k.maxMs)}`).join(', ');
  return (
    `event-loop delay p50 / p99 / max ${f1(delay.p50)} / ${f1(delay.p99)} / ${f1(delay.max)} ms; ` +
    `collector ${gc.count} pauses, ${f1(gc.totalMs)} ms, longest ${f1(gc.maxMs)} (count / ms / longest: ${kinds || 'none'}); ` +
    `commits ${commits.count}, p50 / p99 / max ${f1(commits.p50Ms)} / ${f1(commits.p99Ms)} / ${f1(commits.maxMs)} ms, ${f1(commits.totalMs)} ms on the loop, of which ${server.checkpoints.count} checkpointed: ${f1(server.checkpoints.totalMs)} ms, longest ${f1(server.checkpoints.maxMs)}; ` +
    `on a core ${Math.round(server.onCpuMsPerSecond)} ms/s, waiting for one ${f1(runQueueWaitMsPerSecond.server)} ms/s`
  );
}

/** The rig around the server over the phase: the sender, the service, the cores. */
export function rigLine({ senderLatenessMs: lateness, runQueueWaitMsPerSecond: wait, service, arrivals, coresBusy }: TailFigures): string {
  return (
    `sender late p50 / p99 / max ${lateness ? `${f1(lateness.p50)} / ${f1(lateness.p99)} / ${f1(lateness.max)} ms` : 'n/a (autocannon: no schedule)'}, waiting for a core ${f1(wait.sender)} ms/s; ` +
    `arrivals at most ${arrivals.peakPer100Ms} in 100 ms, ${arrivals.peakOpen} open at once; ` +
    `service event-loop delay p99 ${f1(service.eventLoopDelayMsP99)} ms, waiting for a core ${f1(wait.service)} ms/s; cores busy ${Math.round(coresBusy * 100)}%`
  );
}

type Row = [figure: string, ours: string, baseline: string, ratio: string, goal: string];

/** Figure 3's rows for `npm run bench` (run.ts): where the 200/s phase's slowest 1% went, ours against both baselines. */
export function tailRows(figures: Record<'ours' | 'bare' | 'durable', { tailAt200: TailFigures }>): Row[] {
  const short = (s: Split) =>
    `to server ${f1(s.toServer)}, before ${f1(s.beforeCall)} (SQLite ${f1(s.beforeSqlite)}), call ${f1(s.call)}, after ${f1(s.after)} (SQLite ${f1(s.afterSqlite)}), back ${f1(s.back)}; collector ${f1(s.gc)}`;
  const loop = ({ server }: TailFigures) =>
    `${f1(server.eventLoopDelayMs.p99)} / ${f1(server.gc.maxMs)} / ${f1(server.commits.p99Ms)} ms; ${server.checkpoints.count} checkpoints, longest ${f1(server.checkpoints.maxMs)} ms`;
  const rig = ({ senderLatenessMs, runQueueWaitMsPerSecond: wait, coresBusy }: TailFigures) =>
    `${f1(senderLatenessMs?.p99)} ms; ${f1(wait.sender)} / ${f1(wait.server)} / ${f1(wait.service)} ms/s; ${Math.round(coresBusy * 100)}%`;
  const row = (title: string, cell: (tail: TailFigures) => string): Row => [
    title,
    cell(figures.ours.tailAt200),
    `bare handler ${cell(figures.bare.tailAt200)}; durable floor ${cell(figures.durable.tailAt200)}`,
    '',
    '',
  ];
  return [
    row('3. … the slowest 1% at 200/s, where its time went (ms, mean; the probe in each server)', (tail) => short(tail.slowest)),
    row('3. … the server at 200/s: event-loop delay p99 / longest collector pause / commit p99; checkpoints run by a commit', loop),
    row('3. … the rig at 200/s: sender late p99; waiting for a core, sender / server / service; cores busy', rig),
  ];
}
