/**
 * Child processes for the benchmarks: started with a readiness line on stdout,
 * always ended by their own pid (SIGTERM, then SIGKILL), including when the
 * bench itself fails or is interrupted.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { killOnExit } from '../../testing/kill-on-exit';

/** Children run from the repository root, whatever directory the bench was started in. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface Child {
  pid: number;
  /** The first stdout line that matched `ready`. */
  readyLine: string;
  /** CPU time (user + system) the process has used so far, in ms. */
  cpuMs(): number;
  /** Resident set size (VmRSS) now, in bytes. */
  rssBytes(): number;
  /** Peak resident set size (VmHWM) so far, in bytes. */
  peakRssBytes(): number;
  stop(): Promise<void>;
}

/**
 * The environment the bench was started with. Vite's build() sets NODE_ENV to
 * production in this process, and a backend started with that refuses a
 * local, http payment service.
 */
const startingEnv = { ...process.env };

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => process.exit(130));
}

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these ticks. */
const CLOCK_TICKS_PER_SECOND = 100;

/** A process's resident set size now (VmRSS) or at its peak so far (VmHWM), from /proc. */
export function memoryBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

export function startChild(args: string[], env: Record<string, string>, ready: RegExp, timeoutMs = 60_000): Promise<Child> {
  const [command, ...rest] = args;
  if (!command) throw new Error('startChild needs a command');
  const child = spawn(command, rest, { cwd: repoRoot, env: { ...startingEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  // A bench that throws or is interrupted still takes its children down with it.
  killOnExit(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(killer);
  };

  return new Promise<Child>((resolve, reject) => {
    let stdout = '';
    const fail = (why: string) => {
      clearTimeout(timer);
      void stop().then(() => reject(new Error(`${args.join(' ')}: ${why}\n${stderr}`)));
    };
    const timer = setTimeout(() => fail(`not ready after ${timeoutMs} ms`), timeoutMs);
    child.once('exit', (code) => fail(`exited with ${code} before it was ready`));
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n').find((l) => ready.test(l));
      if (!line) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.stdout?.removeAllListeners('data');
      // Keep draining stdout so a chatty child never blocks on a full pipe.
      child.stdout?.resume();
      const pid = child.pid as number;
      resolve({
        pid,
        readyLine: line,
        cpuMs() {
          // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
          const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
          const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
        },
        rssBytes: () => memoryBytes(pid, 'VmRSS'),
        peakRssBytes: () => memoryBytes(pid, 'VmHWM'),
        stop,
      });
    });
  });
}
