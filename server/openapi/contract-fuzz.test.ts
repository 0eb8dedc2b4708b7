/**
 * The contract fuzz in `npm test` (testing/fuzz/run.ts; docs/testing.md, "The contract
 * fuzz"): every operation of /openapi.json, valid requests and invalid variants of each, against
 * the real server in a process of its own. Seeded and bounded; `npm run fuzz -- --runs 5000` runs
 * longer, `--seed N --op ID --path P` replays a failure.
 */
import { expect, it } from 'vitest';
import { DEFAULT_RUNS, DEFAULT_SEED, HEAP_GROWTH_BOUND_BYTES, formatFindings, runContractFuzz } from '../../testing/fuzz/run';

const seed = Number(process.env.FUZZ_SEED ?? DEFAULT_SEED);
const runs = Number(process.env.FUZZ_RUNS ?? DEFAULT_RUNS);
const operations = process.env.FUZZ_OPERATIONS?.split(',').filter(Boolean);
const path = process.env.FUZZ_PATH || undefined;
const verbose = process.env.FUZZ_VERBOSE === '1';

it(`every operation of the OpenAPI document holds against valid and invalid requests (seed ${seed}, ${runs} runs an operation)`, async () => {
  const report = await runContractFuzz({ seed, runs, operations, path, log: verbose ? (line) => console.log(line) : undefined });
  const summary = formatFindings(report);
  if (report.findings.length > 0 || verbose) console.log(`${summary}\n(${report.durationMs} ms; heap ${Math.round(report.heapBeforeBytes / 2 ** 20)} MiB before, ${Math.round(report.heapAfterBytes / 2 ** 20)} MiB after)`);
  if (report.findings.length > 0) expect.fail(summary);
  expect(report.aliveAtEnd, 'the server answers /healthz after the fuzz').toBe(true);
  expect(report.heapAfterBytes - report.heapBeforeBytes, `the server's heap grew from ${report.heapBeforeBytes} to ${report.heapAfterBytes} bytes`).toBeLessThan(HEAP_GROWTH_BOUND_BYTES);
}, 240_000 + runs * 2_000);
