/**
 * The standalone sandbox as a process (what `npm run sandbox` runs): for the
 * fleet (fleet.ts, compiled) and the tests (from its sources through tsx).
 */
import { fileURLToPath } from 'node:url';
import { type NodeLaunch, startNodeProcess } from './node-process';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** What sandbox/main.ts prints once it listens, up to its service key (printed, or "(SANDBOX_SERVICE_KEY)" when it was given one). */
const SANDBOX_READY_LINE = /Sandbox:\s+(\S+)\s+Service key:/;
const SERVICE_KEY_LINE = /Service key:\s+(sk_sandbox_\S+)/;

export interface SandboxProcess {
  /** As the process printed them. */
  url: string;
  serviceKey: string;
  /** SIGTERM, the sandbox's graceful stop; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** kill -9, for a caller that failed half-way. */
  kill(): Promise<void>;
}

/**
 * Starts it on a free port (SANDBOX_PORT 0) with the data directory `env`
 * gives; by default its sources through tsx, or `launch` (the compiled
 * `dist/server/sandbox.js`). Resolves once it printed its URL and service key.
 */
export async function startSandboxProcess(env: Record<string, string>, launch: NodeLaunch = { args: ['--import', 'tsx', 'sandbox/main.ts'], cwd: repoRoot }): Promise<SandboxProcess> {
  const proc = await startNodeProcess({ launch, env: { LOG_LEVEL: 'warn', ...env }, ready: SANDBOX_READY_LINE, portVariable: 'SANDBOX_PORT' });
  const serviceKey = SERVICE_KEY_LINE.exec(proc.output())?.[1] ?? env.SANDBOX_SERVICE_KEY;
  if (!serviceKey) {
    await proc.kill();
    throw new Error(`the sandbox printed no service key:\n${proc.output()}`);
  }
  return { url: proc.url, serviceKey, stop: proc.stop, kill: proc.kill };
}
