/**
 * The compiled server (`npm run start:prod`: node on dist/server/main.js)
 * against today's start through tsx (`node --import tsx server/main.ts`):
 * start-up time, spawn to the first `/readyz` 200, and resident memory just
 * after that and after a short load of whole payments. Both run the default
 * set-up (SQLite, the embedded sandbox, the demo), each on its own DATA_DIR,
 * started once beforehand so every measured start opens an existing store, as
 * a restart in production does; the rounds alternate between the two.
 * Also on its own: `npm run bench:start`.
 */
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ChildServer, shopClient, startChildServer } from '../../testing/child-server';
import { compiledServerArgs } from '../../testing/fleet/node-process';
import { memoryBytes, repoRoot } from './children';
import { interleaved, median, round } from './stats';

export interface ServerStartOptions {
  /** Measured starts per target. */
  rounds: number;
  /** Whole payments (session, wallet token, pay) after the last start, before memory is read again. */
  loadPayments: number;
}

export interface StartFigures {
  /** Median over the rounds, spawn to the first /readyz 200. */
  startMs: number;
  startSamplesMs: number[];
  /** Median over the rounds, read at that first 200. */
  rssAfterStartBytes: number;
  rssAfterLoadBytes: number;
  peakRssBytes: number;
}

export interface ServerStartResult {
  options: ServerStartOptions;
  compiled: StartFigures;
  tsx: StartFigures;
}

const LOAD_CONCURRENCY = 8;
const READY_POLL_MS = 10;

/**
 * Vite's build() sets NODE_ENV to production in the bench's process, and a
 * server started with that refuses the embedded sandbox: both run as `npm start` does.
 */
const development = { NODE_ENV: 'development' };
const targets = {
  compiled: { launch: { args: [...compiledServerArgs], cwd: repoRoot }, env: { ...development, NODE_OPTIONS: '' } },
  tsx: { launch: { args: ['--import', 'tsx', 'server/main.ts'], cwd: repoRoot }, env: development },
};

async function readyAfter(server: ChildServer): Promise<void> {
  while (!(await fetch(`${server.url}/readyz`).then((r) => r.ok, () => false))) await sleep(READY_POLL_MS);
}

/** Restarts `server` (stopped gracefully first) and measures it. */
async function measuredStart(server: ChildServer): Promise<{ ms: number; rssBytes: number }> {
  await server.stop();
  const started = performance.now();
  await server.restart();
  await readyAfter(server);
  const ms = performance.now() - started;
  return { ms, rssBytes: memoryBytes(server.pid!, 'VmRSS') };
}

async function load(server: ChildServer, payments: number): Promise<void> {
  const shop = shopClient(server);
  let next = 0;
  const worker = async () => {
    while (next < payments) {
      next++;
      const session = await shop.createSession();
      const paid = await shop.pay(session, await shop.walletPaymentData(session, 'visa-success-3ds'));
      if (paid.status !== 200) throw new Error(`a payment under load answered ${paid.status}: ${JSON.stringify(paid.body)}`);
    }
  };
  await Promise.all(Array.from({ length: LOAD_CONCURRENCY }, worker));
}

export async function benchServerStart(options: ServerStartOptions): Promise<ServerStartResult> {
  const servers: ChildServer[] = [];
  try {
    // The first start of each creates its store, sandbox keys and demo app: not measured.
    const compiled = await startChildServer(targets.compiled);
    servers.push(compiled);
    const tsx = await startChildServer(targets.tsx);
    servers.push(tsx);
    const starts = await interleaved(options.rounds, () => measuredStart(compiled), () => measuredStart(tsx));
    const figures = async (server: ChildServer, samples: { ms: number; rssBytes: number }[]): Promise<StartFigures> => {
      await load(server, options.loadPayments);
      return {
        startMs: median(samples.map((s) => s.ms)),
        startSamplesMs: samples.map((s) => round(s.ms, 1)),
        rssAfterStartBytes: median(samples.map((s) => s.rssBytes)),
        rssAfterLoadBytes: memoryBytes(server.pid!, 'VmRSS'),
        peakRssBytes: memoryBytes(server.pid!, 'VmHWM'),
      };
    };
    return { options, compiled: await figures(compiled, starts.a), tsx: await figures(tsx, starts.b) };
  } finally {
    for (const server of servers) {
      await server.stop();
      rmSync(server.dataDir, { recursive: true, force: true });
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchServerStart({ rounds: 7, loadPayments: 200 });
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  for (const [name, f] of Object.entries({ compiled: result.compiled, tsx: result.tsx })) {
    console.log(`${name}: start ${f.startMs.toFixed(0)} ms (${f.startSamplesMs.join(', ')}), RSS after start ${mb(f.rssAfterStartBytes)}, after load ${mb(f.rssAfterLoadBytes)}, peak ${mb(f.peakRssBytes)}`);
  }
  console.log(`ratios compiled/tsx: start ${round(result.compiled.startMs / result.tsx.startMs)}, RSS after start ${round(result.compiled.rssAfterStartBytes / result.tsx.rssAfterStartBytes)}, after load ${round(result.compiled.rssAfterLoadBytes / result.tsx.rssAfterLoadBytes)}`);
}
