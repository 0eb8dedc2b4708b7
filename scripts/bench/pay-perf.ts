/**
 * On-CPU profiles of the pay bench's servers with Linux perf (`npm run bench:pay -- --perf`).
 * V8's `--cpu-prof` samples a thread while it is busy, including while it
 * blocks in a system call (an fsync at COMMIT, a socket write) or waits for a
 * core on a loaded machine, and charges that to the JS function on top: it put
 * 20% of our time in Kysely's executeQuery, most of which was the commits'
 * fsyncs. perf's cpu-clock samples only what runs on a core, in every thread
 * (the collector's and the compiler's too) and in the kernel, as the bench's
 * CPU per pay counts it; `--perf-basic-prof` lets it name JS functions.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

/** node's flag that writes /tmp/perf-<pid>.map, from which perf names JS functions. */
export const perfNodeArgs = ['--perf-basic-prof'];

/** perf's sampling period with `-F 4000`, in ms. */
const SAMPLE_MS = 0.25;

export interface PerfRecording {
  /** Ends the recording (perf writes its file on SIGINT). */
  stop(): Promise<void>;
}

export function recordPerf(pid: number, file: string): PerfRecording {
  const perf: ChildProcess = spawn('perf', ['record', '-e', 'cpu-clock', '-F', '4000', '-g', '-o', file, '-p', String(pid)], { stdio: 'ignore' });
  return {
    async stop() {
      if (perf.exitCode !== null) return;
      perf.kill('SIGINT');
      await once(perf, 'exit');
    },
  };
}

/**
 * Where each sample's time goes: the innermost frame of its stack that a rule
 * knows names it, so that a statement's execution is SQLite's, a system call
 * the kernel's, and neither is charged to the JS that made it.
 */
const CATEGORIES: [name: string, frame: RegExp][] = [
  ['SQLite (native)', /Statement::JS_|sqlite3_/],
  ['garbage collector', /Scavenger|MarkCompact|Heap::|IncrementalMarking|Sweeper/],
  ['V8 compiler', /compiler::|Compiler::|Baseline|CompileLazy|Maglev/],
  ['kysely', /^JS:.*node_modules\/kysely\//],
  ['zod', /^JS:.*node_modules\/zod\//],
  ['fetch (undici)', /^JS:.*undici/],
  ['pino, pino-http', /^JS:.*node_modules\/pino/],
  ['express-rate-limit, helmet, cors, prom-client', /^JS:.*node_modules\/(express-rate-limit|helmet|cors|prom-client)\//],
  ['crypto', /node::crypto|EVP_|^JS:.*internal\/crypto/],
  ['JSON', /JsonStringifier|JsonParser/],
  ['body-parser, raw-body', /^JS:.*node_modules\/(body-parser|raw-body)\//],
  ['node:http, sockets', /^JS:.*(node:_http|node:net|stream_base|internal\/streams)|llhttp|HTTPParser/],
  ['our code', /^JS:.*(dist\/server|\/server\/|bare-pay)/],
  ['express, router', /^JS:.*node_modules\/(express|router)\//],
  ['kernel', /\(\[kernel\.kallsyms\]\)$/],
];

const SQLITE = CATEGORIES[0]![1];

function categoryOf(frames: string[]): string {
  const category = frames.map((frame) => CATEGORIES.find(([, pattern]) => pattern.test(frame))?.[0]).find((name) => name !== undefined);
  // The kernel's time for SQLite (its WAL writes, fsyncs, file locks) apart from the sockets'.
  if (category === 'kernel' && frames.some((frame) => SQLITE.test(frame))) return 'kernel, for SQLite';
  return category ?? 'other (V8 runtime, promises, malloc)';
}

interface Sample {
  tid: string;
  frames: string[];
}

/**
 * The samples of `perf script -F tid,ip,sym,dso`: a line with the thread id (right-aligned, so
 * indented when it has fewer digits than perf pads to), then a line per frame, then a blank line.
 */
export function* samplesOf(script: string): Generator<Sample> {
  let current: Sample | undefined;
  for (const line of script.split('\n')) {
    const tid = /^\s*(\d+)\s*$/.exec(line)?.[1];
    if (line.trim() === '') {
      if (current) yield current;
      current = undefined;
    } else if (tid) {
      current = { tid, frames: [] };
    } else if (current) {
      // "    7fcfb83e9f0b JS:*pay file:///…/main.js:3269:19 (/tmp/perf-1.map)": the address, the symbol, where it lives.
      current.frames.push(line.trim().replace(/^\S+\s+/, ''));
    }
  }
  if (current) yield current;
}

/** µs per request by category, the process's main thread apart from its other threads (the collector's, the compiler's, libuv's). */
export function summarizePerf(file: string, requests: number): Map<string, number> {
  const script = execFileSync('perf', ['script', '-i', file, '-F', 'tid,ip,sym,dso'], { encoding: 'utf8', maxBuffer: 2 ** 31 - 1, stdio: ['ignore', 'pipe', 'ignore'] });
  const samples = [...samplesOf(script)];
  // Seen once under heavy load: a recording perf script read as empty; a table of zeros would read as "no CPU".
  if (samples.length === 0) throw new Error(`perf script found no samples in ${file}`);
  const perThread = new Map<string, number>();
  for (const { tid } of samples) perThread.set(tid, (perThread.get(tid) ?? 0) + 1);
  const mainThread = [...perThread].sort((a, b) => b[1] - a[1])[0]?.[0];
  const totals = new Map<string, number>();
  for (const sample of samples) {
    const category = sample.tid === mainThread ? categoryOf(sample.frames) : 'other threads (collector, compiler, libuv)';
    totals.set(category, (totals.get(category) ?? 0) + 1);
  }
  return new Map([...totals].map(([name, count]) => [name, (count * SAMPLE_MS * 1000) / requests]));
}

/** Ours against a baseline (`bare` or `durable`), µs of CPU per request in each category, the largest differences first. */
export function perfTable(ours: Map<string, number>, baseline: Map<string, number>, baselineName: string): string {
  const names = [...new Set([...ours.keys(), ...baseline.keys()])];
  const total = (m: Map<string, number>) => [...m.values()].reduce((sum, v) => sum + v, 0);
  const row = (name: string, a: number, b: number) => `  ${a.toFixed(0).padStart(6)}  ${b.toFixed(0).padStart(7)}  ${(a - b).toFixed(0).padStart(6)}  ${name}`;
  return [
    `on-CPU µs per pay (perf, timed rounds):    ours  ${baselineName.padStart(7)}    diff`,
    ...names.map((name) => ({ name, a: ours.get(name) ?? 0, b: baseline.get(name) ?? 0 })).sort((x, y) => y.a - y.b - (x.a - x.b)).map(({ name, a, b }) => row(name, a, b)),
    row('total', total(ours), total(baseline)),
  ].join('\n');
}

export const perfFile = (dir: string, name: string): string => join(dir, `${name}.perf.data`);

/** The map node wrote for perf (perfNodeArgs), once perf script has read it: they are large and /tmp keeps them. */
export const removePerfMap = (pid: number): void => rmSync(`/tmp/perf-${pid}.map`, { force: true });
