/**
 * What a hostile body costs the event loop (docs/api.md, "Bodies"; the goal:
 * a 1 MiB body of any shape, under 20 ms).
 *
 * In-process: the edge's whole synchronous work on one 1 MiB body of each
 * shape, as if a route took 1 MiB (ours take at most 64 kB, 256 kB for the
 * demo's receiver): the shape scan of the raw bytes, then for a body the scan
 * lets through, UTF-8 decoding, JSON.parse and the storable-text walk. CPU
 * time (process.cpuUsage: on a shared machine wall time counts the other
 * processes too), median and worst of 15 runs after 5 untimed ones.
 *
 * Over HTTP: a test server (embedded sandbox) sent each shape as 1 MiB to
 * POST /api/sessions (limit 32 kB), with a Content-Length (refused before a
 * byte is read) and chunked (refused once 32 kB are read), five times over:
 * the CPU time per request (client and server, one process), and the event
 * loop's delay sampled every millisecond.
 *
 *   tsx scripts/bench/body-edge.ts   (npm run bench:body)
 */
import { isUtf8 } from 'node:buffer';
import { request } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { unstorableTextPath } from '../../contracts';
import { JSON_SHAPE_LIMITS, jsonShapeProblem } from '../../common/http/json-shape';
import { startTestServer } from '../../testing/harness';

const MIB = 1024 * 1024;

/** `unit` repeated inside `open`...`close` to about 1 MiB. */
const fill = (open: string, unit: string, close: string) => open + unit.repeat(Math.floor((MIB - open.length - close.length) / unit.length)) + close;

const shapes: Record<string, () => string> = {
  'arrays nested 1 MiB deep': () => `${'['.repeat(MIB / 2)}${']'.repeat(MIB / 2)}`,
  'objects nested deep': () => fill('', '{"a":', ''),
  'one object, 1 MiB of keys': () => `{${fill('', '"k":0,', '')}"z":0}`,
  'objects of 200 keys, 1 MiB of them': () => `[${fill('', `{${'"a":0,'.repeat(199)}"a":0},`, '')}{}]`,
  'one string of 1 MiB': () => `{"a":"${'x'.repeat(MIB - 10)}"}`,
  'strings of 16 kB, escapes in them': () => `[${fill('', `"${'\\\\'.repeat(8000)}",`, '')}""]`,
  'an array of 1 MiB of short strings': () => `{"a":[${fill('', '"ab",', '')}""]}`,
  'an array of 1 MiB of numbers': () => `{"a":[${fill('', '0,', '')}0]}`,
  '16,383 strings of 60 bytes (within the limits)': () => `{"a":[${`"${'x'.repeat(60)}",`.repeat(16_382)}""]}`,
  '64 strings of 16 kB (within the limits)': () => `{"a":[${`"${'x'.repeat(16_000)}",`.repeat(63)}""]}`,
  'arrays 32 deep, side by side': () => `{"a":[${fill('', `${'['.repeat(30)}${']'.repeat(30)},`, '')}[]]}`,
  'not UTF-8': () => Buffer.alloc(MIB, 0xff).toString('latin1'),
};


/** The edge's synchronous work on `bytes` (common/http/body.ts, parseJson and the text check, step for step): what it decided. */
function edgeWork(bytes: Buffer): string {
  const problem = jsonShapeProblem(bytes, JSON_SHAPE_LIMITS);
  if (problem) return `400: ${problem}`;
  if (!isUtf8(bytes)) return '400: not UTF-8';
  const text = bytes.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return '400: not JSON';
  }
  return unstorableTextPath(value) ? '400: unstorable' : 'read';
}

function inProcess(): { shape: string; bytes: number; medianMs: number; worstMs: number; outcome: string }[] {
  return Object.entries(shapes).map(([shape, make]) => {
    const bytes = Buffer.from(make(), 'latin1');
    let outcome = '';
    for (let i = 0; i < 5; i++) outcome = edgeWork(bytes);
    const samples: number[] = [];
    for (let i = 0; i < 15; i++) {
      const start = process.cpuUsage();
      edgeWork(bytes);
      const used = process.cpuUsage(start);
      samples.push((used.user + used.system) / 1000);
    }
    samples.sort((a, b) => a - b);
    return { shape, bytes: bytes.length, medianMs: samples[7]!, worstMs: samples.at(-1)!, outcome };
  });
}

function post(url: string, body: Buffer, chunked: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(body.length) }) };
    const outgoing = request(`${url}/api/sessions`, { method: 'POST', headers }, (incoming) => {
      incoming.resume().on('end', () => resolve(incoming.statusCode ?? 0));
    });
    // The server may answer and close before the whole body is sent: that is the point.
    outgoing.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? resolve(-1) : reject(error)));
    if (chunked) for (let at = 0; at < body.length; at += 16 * 1024) outgoing.write(body.subarray(at, at + 16 * 1024));
    outgoing.end(chunked ? undefined : body);
  });
}

async function overHttp(): Promise<{ statuses: string; maxDelayMs: number; p99DelayMs: number; cpuPerRequestMs: number }> {
  const server = await startTestServer();
  try {
    const delay = monitorEventLoopDelay({ resolution: 1 });
    const statuses = new Set<number>();
    // Made before the clock starts: this process is the client too.
    const bodies = Object.values(shapes).map((make) => Buffer.from(make(), 'latin1'));
    const rounds = 5;
    delay.enable();
    const start = process.cpuUsage();
    for (let round = 0; round < rounds; round++) {
      for (const body of bodies) {
        for (const chunked of [false, true]) statuses.add(await post(server.url, body, chunked));
      }
    }
    const used = process.cpuUsage(start);
    delay.disable();
    const requests = rounds * bodies.length * 2;
    return { statuses: [...statuses].sort().join(', '), maxDelayMs: delay.max / 1e6, p99DelayMs: delay.percentile(99) / 1e6, cpuPerRequestMs: (used.user + used.system) / 1000 / requests };
  } finally {
    await server.close();
  }
}

const rows = inProcess();
console.log("In-process, the edge's synchronous work on each body (CPU time, median / worst of 15):");
for (const { shape, bytes, medianMs, worstMs, outcome } of rows) {
  console.log(`  ${shape.padEnd(48)} ${(bytes / 1024).toFixed(0).padStart(5)} KiB ${medianMs.toFixed(2).padStart(7)} / ${worstMs.toFixed(2).padStart(7)} ms  ${outcome}`);
}
const worst = Math.max(...rows.map((row) => row.medianMs));
console.log(`  the costliest shape: ${worst.toFixed(2)} ms (goal: under 20 ms)`);
const http = await overHttp();
console.log(
  `Over HTTP to POST /api/sessions (32 kB), every shape at 1 MiB, Content-Length and chunked, 5 rounds: statuses ${http.statuses}; ` +
    `CPU per request ${http.cpuPerRequestMs.toFixed(2)} ms (client and server: one process); event-loop delay p99 ${http.p99DelayMs.toFixed(2)} ms, longest ${http.maxDelayMs.toFixed(2)} ms (wall time: on a busy machine, other processes' too)`,
);
console.log(`Load average ${loadavg().map((n) => n.toFixed(2)).join(' ')} on ${cpus().length} cores`);
if (worst >= 20) process.exitCode = 1;
