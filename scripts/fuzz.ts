/**
 * The contract fuzz, longer than `npm test` runs it (server/openapi/contract-fuzz.test.ts;
 * docs/testing.md, "The contract fuzz"):
 *
 *   npm run fuzz -- [--runs 1000] [--seed N] [--op createSession,getApp] [--path 12:3:0] [--verbose]
 *
 * --runs: requests an operation (npm test sends 40). --seed: the run's seed, printed on every
 * failure; without it a new one is drawn and printed first (npm test always uses the same one).
 * --op: only these operations. --path: fast-check's path of a failure, with its seed and operation,
 * to send the failing request at once. --verbose: a line per operation as it goes.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000' },
    seed: { type: 'string' },
    op: { type: 'string' },
    path: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
});

const runs = Number(flags.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, not ${flags.runs}`);
const seed = flags.seed !== undefined ? Number(flags.seed) : Math.floor(Math.random() * 2 ** 31);
if (!Number.isInteger(seed)) throw new Error(`--seed must be an integer, not ${flags.seed}`);
console.log(`contract fuzz: seed ${seed}, ${runs} runs an operation${flags.op ? `, only ${flags.op}` : ''}${flags.path ? `, from path ${flags.path}` : ''}`);

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const vitest = spawn(process.execPath, [fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url)), 'run', 'server/openapi/contract-fuzz.test.ts'], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: {
    ...process.env,
    FUZZ_SEED: String(seed),
    FUZZ_RUNS: String(runs),
    ...(flags.op ? { FUZZ_OPERATIONS: flags.op } : {}),
    ...(flags.path ? { FUZZ_PATH: flags.path } : {}),
    ...(flags.verbose ? { FUZZ_VERBOSE: '1' } : {}),
  },
});
vitest.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
