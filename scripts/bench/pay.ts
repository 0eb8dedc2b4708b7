/**
 * Figure 3 alone (the pay endpoint under load, also part of `npm run bench`):
 * `npm run bench:pay -- [--tsx] [--cpu-prof] [--perf] [--rounds N] [--requests N]` builds, runs it and
 * prints our server's CPU per pay against the bare handler's, without touching
 * docs/benchmarks.md, for a quick before/after. `--cpu-prof` also writes V8
 * CPU profiles of both servers and prints where their time went during the
 * timed rounds (cpu-profile.ts); `--perf` records both with Linux perf over the
 * timed rounds and prints their on-CPU time per pay by category (pay-perf.ts); `--tsx` runs our backend from its sources through tsx
 * instead of the compiled dist/server/main.js that `npm start` runs.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { mainThreadProfile, summarizeProfile } from './cpu-profile';
import { benchPayLoad } from './pay-load';
import { perfFile, perfTable, removePerfMap, summarizePerf } from './pay-perf';
import { round } from './stats';

const { values } = parseArgs({
  options: {
    tsx: { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
    perf: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '3' },
    /** Per closed-loop round; as many again at 200/s. Fewer make a quicker, noisier run. */
    requests: { type: 'string', default: '1500' },
  },
});
const cpuProfileDir = values['cpu-prof'] ? mkdtempSync(join(tmpdir(), 'wallet-checkout-pay-profile-')) : undefined;
const perfDir = values.perf ? mkdtempSync(join(tmpdir(), 'wallet-checkout-pay-perf-')) : undefined;
const { ours, bare, roundsWindowUs, roundsRequests, pids } = await benchPayLoad({
  serviceDelayMs: 20,
  rounds: Number(values.rounds),
  requestsPerRound: Number(values.requests),
  connections: 32,
  fixedRateRequests: Number(values.requests),
  backend: values.tsx ? 'tsx' : 'compiled',
  cpuProfileDir,
  perfDir,
});
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
console.log(
  [
    `backend: ${values.tsx ? 'server/main.ts through tsx' : 'dist/server/main.js (compiled)'}`,
    `server CPU per pay: ours ${ours.cpuMsPerRequest.toFixed(2)} ms, bare ${bare.cpuMsPerRequest.toFixed(2)} ms: ${round(ours.cpuMsPerRequest / bare.cpuMsPerRequest)}x`,
    `throughput: ours ${Math.round(ours.throughputPerSecond)}/s, bare ${Math.round(bare.throughputPerSecond)}/s: ${round(ours.throughputPerSecond / bare.throughputPerSecond)}x`,
    `added latency p50 / p99 at 200/s: ours ${ours.addedAt200.p50Ms.toFixed(1)} / ${ours.addedAt200.p99Ms.toFixed(1)} ms, bare ${bare.addedAt200.p50Ms.toFixed(1)} / ${bare.addedAt200.p99Ms.toFixed(1)} ms`,
    `peak memory (VmHWM): ours ${mib(ours.peakRssBytes)}, bare ${mib(bare.peakRssBytes)}: ${round(ours.peakRssBytes / bare.peakRssBytes)}x`,
  ].join('\n'),
);
if (perfDir) {
  const table = perfTable(summarizePerf(perfFile(perfDir, 'ours'), roundsRequests), summarizePerf(perfFile(perfDir, 'bare'), roundsRequests));
  removePerfMap(pids.ours);
  removePerfMap(pids.bare);
  console.log(`\nperf recordings: ${perfDir}\n${table}`);
}
if (cpuProfileDir) {
  console.log(`timed rounds (monotonic µs, for cpu-profile.ts): ${roundsWindowUs.start} ${roundsWindowUs.end}`);
  for (const name of ['ours', 'bare']) {
    const file = mainThreadProfile(join(cpuProfileDir, name));
    console.log(`\n${name}: ${file}\n${summarizeProfile(file, { windowUs: roundsWindowUs })}`);
  }
}
