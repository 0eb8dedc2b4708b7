/**
 * Figure 3 alone (the pay endpoint under load, also part of `npm run bench`):
 * `npm run bench:pay -- [--tsx] [--cpu-prof] [--perf] [--rounds N] [--requests N] [--sender paced|autocannon] [--against DIR]` builds, runs it and
 * prints our server's CPU per pay and added p99 at 200/s against both baselines
 * (the bare handler, and the durable floor that also commits our pay's two
 * transactions; bare-pay.ts), with their goals, without touching
 * docs/benchmarks.md, for a quick before/after, and where the 200/s phase's
 * time went in each server (tail.ts). `--sender autocannon` sends that phase
 * as figure 3 did before 2026-11-26 (paced.ts says why it no longer does). `--cpu-prof` also writes V8
 * CPU profiles of the three servers and prints where their time went during the
 * timed rounds (cpu-profile.ts); `--perf` records them with Linux perf over the
 * timed rounds and prints their on-CPU time per pay by category (pay-perf.ts); `--tsx` runs our backend from its sources through tsx
 * instead of the compiled dist/server/main.js that `npm start` runs. `--against DIR` runs another build of
 * ours (DIR: a checkout of another commit, `dist/` built) as a fourth target in the same rounds, and
 * prints ours against it: a change set against the code before it, in one run.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { mainThreadProfile, summarizeProfile } from './cpu-profile';
import { benchPayLoad, FIXED_RATE_PER_SECOND, TARGET_NAMES } from './pay-load';
import { cpuRatioRounds, payGoals } from './pay-goals';
import { perfFile, perfTable, removePerfMap, summarizePerf } from './pay-perf';
import { round } from './stats';
import { rigLine, serverLine, splitLine } from './tail';

const { values } = parseArgs({
  options: {
    tsx: { type: 'boolean', default: false },
    'cpu-prof': { type: 'boolean', default: false },
    perf: { type: 'boolean', default: false },
    /** With --perf: keep /tmp/perf-<pid>.map, so that `perf report -i <recording>` names the JS functions afterwards. */
    'keep-perf-maps': { type: 'boolean', default: false },
    rounds: { type: 'string', default: '3' },
    /** Per closed-loop round; as many again at 200/s. Fewer make a quicker, noisier run. */
    requests: { type: 'string', default: '1500' },
    /** What sends the 200/s phase: `paced` (open loop, the default) or `autocannon` (figure 3's sender before 2026-11-26). */
    sender: { type: 'string', default: 'paced' },
    /** Another build of ours as a fourth target: the root of a checkout of another commit, its `dist/` built (docs/benchmarks.md, "Two builds in one run"). */
    against: { type: 'string' },
  },
});
if (values.sender !== 'paced' && values.sender !== 'autocannon') throw new Error(`--sender is paced or autocannon, not ${values.sender}`);
const cpuProfileDir = values['cpu-prof'] ? mkdtempSync(join(tmpdir(), 'wallet-checkout-pay-profile-')) : undefined;
const perfDir = values.perf ? mkdtempSync(join(tmpdir(), 'wallet-checkout-pay-perf-')) : undefined;
const result = await benchPayLoad({
  serviceDelayMs: 20,
  rounds: Number(values.rounds),
  requestsPerRound: Number(values.requests),
  connections: 32,
  fixedRateRequests: Number(values.requests),
  fixedRateSender: values.sender,
  backend: values.tsx ? 'tsx' : 'compiled',
  cpuProfileDir,
  perfDir,
  ...(values.against && { againstBuild: resolve(values.against) }),
});
const { ours, bare, durable, against, roundsWindowUs, roundsRequests, pids } = result;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const goals = payGoals(result);
console.log(
  [
    `backend: ${values.tsx ? 'server/main.ts through tsx' : 'dist/server/main.js (compiled)'}`,
    `server CPU per pay: ours ${ours.cpuMsPerRequest.toFixed(2)} ms, bare ${bare.cpuMsPerRequest.toFixed(2)} ms: ${goals.cpuOverBare.ratio}x (${goals.cpuOverBare.goal})`,
    `server CPU per pay: ours ${ours.cpuMsPerRequest.toFixed(2)} ms, durable floor ${durable.cpuMsPerRequest.toFixed(2)} ms: ${goals.cpuOverDurable.ratio}x (${goals.cpuOverDurable.goal}); round by round ${goals.cpuOverDurable.rounds.lowest}x to ${goals.cpuOverDurable.rounds.highest}x`,
    `throughput: ours ${Math.round(ours.throughputPerSecond)}/s, bare ${Math.round(bare.throughputPerSecond)}/s: ${round(ours.throughputPerSecond / bare.throughputPerSecond)}x, durable floor ${Math.round(durable.throughputPerSecond)}/s`,
    `added latency p50 / p99 at 200/s: ours ${ours.addedAt200.p50Ms.toFixed(1)} / ${ours.addedAt200.p99Ms.toFixed(1)} ms, bare ${bare.addedAt200.p50Ms.toFixed(1)} / ${bare.addedAt200.p99Ms.toFixed(1)} ms, durable floor ${durable.addedAt200.p50Ms.toFixed(1)} / ${durable.addedAt200.p99Ms.toFixed(1)} ms`,
    `p99 at 200/s added over the bare handler: ${goals.p99OverBare.ms.toFixed(1)} ms (${goals.p99OverBare.goal}); over the durable floor: ${goals.p99OverDurable.ms.toFixed(1)} ms`,
    `peak memory (VmHWM): ours ${mib(ours.peakRssBytes)}, bare ${mib(bare.peakRssBytes)}: ${round(ours.peakRssBytes / bare.peakRssBytes)}x, durable floor ${mib(durable.peakRssBytes)}`,
  ].join('\n'),
);
if (against) {
  const rounds = cpuRatioRounds(ours, against);
  console.log(
    [
      `against the other build (${values.against}): server CPU per pay ${ours.cpuMsPerRequest.toFixed(2)} ms ÷ ${against.cpuMsPerRequest.toFixed(2)} ms: ${round(ours.cpuMsPerRequest / against.cpuMsPerRequest)}x; round by round ${rounds.lowest}x to ${rounds.highest}x`,
      `against the other build: added latency p50 / p99 at 200/s: ours ${ours.addedAt200.p50Ms.toFixed(1)} / ${ours.addedAt200.p99Ms.toFixed(1)} ms, the other ${against.addedAt200.p50Ms.toFixed(1)} / ${against.addedAt200.p99Ms.toFixed(1)} ms`,
    ].join('\n'),
  );
}
// An open-loop 200/s past what a server answers in closed loop is a queue that grows for the whole phase, not added latency.
for (const name of TARGET_NAMES) {
  const { throughputPerSecond } = result[name];
  if (throughputPerSecond < FIXED_RATE_PER_SECOND) console.log(`note: ${name} answered ${Math.round(throughputPerSecond)}/s in closed loop in this run, under the 200/s sent: its p99 at 200/s is a growing queue`);
}
console.log(`\nthe 200/s phase, where the time went (ms; the probe inside each server, scripts/bench/tail.ts; sent by ${values.sender === 'paced' ? 'the paced sender' : 'autocannon'}):`);
for (const name of TARGET_NAMES) {
  const { tailAt200: tail } = result[name];
  console.log(
    [
      `${name}: slowest 1%: ${splitLine(tail.slowest, result.options.serviceDelayMs)}`,
      `${name}: median:      ${splitLine(tail.median, result.options.serviceDelayMs)}`,
      `${name}: ${serverLine(tail)}`,
      `${name}: ${rigLine(tail)}`,
    ].join('\n'),
  );
}
if (perfDir) {
  const [oursPerf, ...baselines] = TARGET_NAMES.map((name) => summarizePerf(perfFile(perfDir, name), roundsRequests));
  if (!values['keep-perf-maps']) for (const name of TARGET_NAMES) removePerfMap(pids[name]);
  console.log(`\nperf recordings: ${perfDir}`);
  baselines.forEach((baseline, i) => console.log(perfTable(oursPerf as Map<string, number>, baseline, TARGET_NAMES[i + 1] as string)));
}
if (cpuProfileDir) {
  console.log(`timed rounds (monotonic µs, for cpu-profile.ts): ${roundsWindowUs.start} ${roundsWindowUs.end}`);
  for (const name of TARGET_NAMES) {
    const file = mainThreadProfile(join(cpuProfileDir, name));
    console.log(`\n${name}: ${file}\n${summarizeProfile(file, { windowUs: roundsWindowUs })}`);
  }
}
