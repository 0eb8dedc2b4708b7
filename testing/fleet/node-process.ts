/**
 * A server of ours as a process of its own, plain `node` on what `args`
 * names: an instance of the backend (main.ts printing its banner) or
 * the standalone sandbox (printing "Sandbox: URL"). Killed (kill -9) and
 * started again on the same port and environment, which is what the fleet
 * (fleet.ts), the soak and the crash tests do to it. Not a test helper: the
 * fleet is an operator's tool.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killOnExit } from '../kill-on-exit';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * What the backend's main.ts prints once it listens: the URL shoppers use (PUBLIC_URL behind a proxy), read from
 * the banner's widget line, which every instance prints (the demo store's line only when the demo runs).
 */
export const INSTANCE_READY_LINE = /^\s+Widget:\s+(\S+?)\/checkout\.js$/m;

/** Enough of the process's output to say why it would not start. */
const OUTPUT_TAIL_CHARS = 8_000;

export interface NodeLaunch {
  /** Node's arguments, e.g. ['--enable-source-maps', 'dist/server/main.js']. */
  args: readonly string[];
  cwd: string;
}

/** Node's arguments for the compiled server, from the root: what `npm run start:prod` runs. */
export const compiledServerArgs: readonly string[] = ['--enable-source-maps', 'dist/server/main.js'];
/** And for the compiled standalone sandbox: what `npm run sandbox` runs. */
export const compiledSandboxArgs: readonly string[] = ['--enable-source-maps', 'dist/server/sandbox.js'];

/**
 * How the fleet (`npm run fleet`, the fleet soak, the bench) launches the
 * compiled backend and sandbox from this repository's dist/, running `npm run
 * build` first when dist/ lacks the server or the widget, or when `rebuild`.
 */
export function compiledLaunch({ rebuild = false } = {}): { instance: NodeLaunch; sandbox: NodeLaunch } {
  const built = ['dist/server/main.js', 'dist/server/sandbox.js', 'dist/web/manifest.json'].every((file) => existsSync(join(repoRoot, file)));
  if (rebuild || !built) execFileSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: 'inherit' });
  return { instance: { args: compiledServerArgs, cwd: repoRoot }, sandbox: { args: compiledSandboxArgs, cwd: repoRoot } };
}

export interface NodeProcessOptions {
  launch: NodeLaunch;
  /** Added to this process's environment. */
  env: Record<string, string>;
  /** The line it prints once it listens; its first group is the URL. */
  ready: RegExp;
  /** The variable that gives it its port: 0 the first time, the port it took after that, so a restart comes back where it was. */
  portVariable: string;
  /** How long it may take to print the ready line. */
  startTimeoutMs?: number;
}

export interface NodeProcess {
  /** The current process's id (undefined while stopped). */
  readonly pid: number | undefined;
  /** The URL it printed; the same after a restart. */
  readonly url: string;
  /** kill -9: no shutdown code runs, whatever was in flight is cut. */
  kill(): Promise<void>;
  /** SIGTERM: its own graceful shutdown; resolves with its exit code (null: ended by a signal). */
  stop(): Promise<number | null>;
  /** Starts it again on the same port (after kill or stop; kills it first if it runs). */
  restart(): Promise<void>;
  /** The latest output of the current process, to explain a failure. */
  output(): string;
}

export async function startNodeProcess(options: NodeProcessOptions): Promise<NodeProcess> {
  let port = options.env[options.portVariable] ?? '0';
  let child: ChildProcess | undefined;
  let tail = '';
  let url = '';

  const exited = (proc: ChildProcess) =>
    proc.exitCode !== null || proc.signalCode !== null ? Promise.resolve(proc.exitCode) : new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));

  async function launch(): Promise<void> {
    tail = '';
    const { args, cwd } = options.launch;
    const proc = spawn(process.execPath, args, { cwd, env: { ...process.env, ...options.env, [options.portVariable]: port }, stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    // A caller that throws or is interrupted must not leave a server running.
    killOnExit(proc);
    // Read both pipes to the end, always: a full pipe would block the server.
    const keep = (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-OUTPUT_TAIL_CHARS);
    };
    proc.stdout?.on('data', keep);
    proc.stderr?.on('data', keep);
    const timeoutMs = options.startTimeoutMs ?? 30_000;
    url = await new Promise<string>((resolve, reject) => {
      const fail = (why: string) => {
        clearTimeout(timer);
        proc.kill('SIGKILL');
        reject(new Error(`node ${args.join(' ')} ${why}:\n${tail}`));
      };
      const timer = setTimeout(() => fail(`printed no URL within ${timeoutMs} ms`), timeoutMs);
      const onData = () => {
        const found = options.ready.exec(tail)?.[1];
        if (!found) return;
        clearTimeout(timer);
        proc.stdout?.off('data', onData);
        proc.off('exit', onExit);
        resolve(found);
      };
      const onExit = (code: number | null, signal: string | null) => fail(`exited (${signal ?? code}) before listening`);
      proc.stdout?.on('data', onData);
      proc.once('exit', onExit);
    });
    // An instance behind a proxy prints the proxy's URL (PUBLIC_URL): a port it was given stays its own.
    if (port === '0') port = new URL(url).port;
  }

  async function signal(sig: NodeJS.Signals): Promise<number | null> {
    const proc = child;
    if (!proc) return null;
    child = undefined;
    const done = exited(proc);
    proc.kill(sig);
    return done;
  }

  await launch();
  return {
    get pid() {
      return child?.pid;
    },
    get url() {
      return url;
    },
    kill: () => signal('SIGKILL').then(() => undefined),
    stop: () => signal('SIGTERM'),
    async restart() {
      await signal('SIGKILL');
      await launch();
    },
    output: () => tail,
  };
}
