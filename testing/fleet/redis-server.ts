/**
 * A throwaway redis-server from the installed binary (scripts/ensure-redis.sh),
 * where the limiters count (REDIS_URL, docs/operations.md "Rate limits"): for
 * the fleet on one machine (`npm run fleet`, fleet.ts) and the tests of the
 * limiters' shared budget and of their fallback when Redis dies (killed hard,
 * SIGKILL, as a crash; started again on the same port, empty).
 *
 * It listens on 127.0.0.1 only, on a free port, in protected mode, keeps
 * nothing on disk (no RDB snapshot, no AOF: a rate-limit window is worth a
 * minute), and runs as whoever starts it: Redis needs no user of its own.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../free-port';
import { killOnExit } from '../kill-on-exit';

export interface RedisServer {
  /** `redis://127.0.0.1:port`: REDIS_URL for the instances. */
  readonly url: string;
  /** SIGKILL: gone at once, its counts with it, as in a crash. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty; resolves once it accepts connections. */
  start(): Promise<void>;
  /** SIGSTOP: a hung Redis, whose connections stay open and whose commands get no answer. */
  freeze(): void;
  /** SIGCONT: it answers again, the commands it was sent meanwhile too. */
  thaw(): void;
  /** Kills it and deletes its directory. */
  remove(): Promise<void>;
}

/** REDIS_SERVER_PATH, Debian's /usr/bin/redis-server, or redis-server on PATH; undefined: not installed. */
export function findRedisServer(): string | undefined {
  const candidates = [process.env.REDIS_SERVER_PATH, '/usr/bin/redis-server', ...(process.env.PATH ?? '').split(':').map((dir) => join(dir, 'redis-server'))];
  return candidates.find((candidate): candidate is string => candidate !== undefined && candidate !== '' && existsSync(candidate));
}

/** How long redis-server may take to accept connections; it normally does within milliseconds. */
const START_TIMEOUT_MS = 10_000;

async function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startRedisServer(binary: string): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-redis-'));
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'warning'];
  let proc: ChildProcess | undefined;

  const start = async () => {
    const started = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    started.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    proc = started;
    // A caller that throws or is interrupted must not leave redis-server running.
    killOnExit(started);
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(await acceptsConnections(port))) {
      if (started.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start on port ${port}: ${stderr}`);
      await sleep(20);
    }
  };
  const kill = async () => {
    const running = proc;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGKILL');
    await exited;
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    kill,
    start,
    freeze: () => void proc?.kill('SIGSTOP'),
    thaw: () => void proc?.kill('SIGCONT'),
    async remove() {
      proc?.kill('SIGCONT');
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
