/**
 * The example apps of testing/framework-apps/ (Vite + React, Next.js, Vue, Angular) built as their
 * merchants build them, outside the repository: each copied into a temporary folder, its
 * frameworks installed from the registry by `npm ci --prefer-offline` against its own committed
 * lockfile (npm's cache makes a second run local), our packages installed by npm from the tarballs
 * `npm pack` makes of their builds, and the app built by its framework's own command. The four
 * run at once, under `nice` so that the browser tests running beside them keep the processor
 * first; each step's wall time is kept for the report.
 */
import { execFile, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { packPackage } from '../../testing/npm-pack';

const run = promisify(execFile);

/** Each app: the packages of ours it installs (their folders as npm packs them), and where its build writes what is served. */
export const FRAMEWORK_APPS = {
  'vite-react': { packages: ['packages/js', 'packages/react'], output: 'dist' },
  next: { packages: ['packages/js', 'packages/react'], output: '.next' },
  vue: { packages: ['packages/js', 'packages/vue'], output: 'dist' },
  angular: { packages: ['packages/js', 'packages/angular/dist'], output: 'dist/browser' },
} as const;

export type FrameworkApp = keyof typeof FRAMEWORK_APPS;

/** The apps' folders outside the repository; the seconds each step took. */
export interface BuiltApps {
  dir(app: FrameworkApp): string;
  output(app: FrameworkApp): string;
  timings: Record<FrameworkApp, { install: number; ours: number; build: number }> & { pack: number; total: number };
  /** Starts removing the apps (about 700 MB of node_modules, 26 s on a loaded machine) without waiting for it. */
  dispose(): void;
}

/** Tools' own chatter off: no telemetry, no prompts, dev dependencies installed whatever NODE_ENV says. */
const ENV = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NG_CLI_ANALYTICS: 'false', npm_config_update_notifier: 'false' };

/** `npm args` in `cwd`, niced; its seconds, or an error that carries the end of its output. */
async function npm(cwd: string, args: string[]): Promise<number> {
  const started = Date.now();
  try {
    await run('nice', ['-n', '10', 'npm', ...args], { cwd, env: ENV, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${basename(cwd)}: npm ${args.join(' ')} failed\n${`${stdout}\n${stderr}`.slice(-4000)}`);
  }
  return (Date.now() - started) / 1000;
}

export async function buildFrameworkApps(): Promise<BuiltApps> {
  const started = Date.now();
  const root = mkdtempSync(join(tmpdir(), 'framework-apps-'));
  try {
    const packs = join(root, 'packs');
    mkdirSync(packs);
    const dirs = [...new Set(Object.values(FRAMEWORK_APPS).flatMap((app) => app.packages))];
    const tarballs = Object.fromEntries(await Promise.all(dirs.map(async (dir) => [dir, await packPackage(dir, packs)] as const)));
    const pack = (Date.now() - started) / 1000;

    const build = async (app: FrameworkApp) => {
      const dir = join(root, app);
      // Sources only, should a developer have installed or built the app in the repository.
      cpSync(resolve('testing/framework-apps', app), dir, { recursive: true, filter: (source) => !/(^|\/)(node_modules|dist|\.next|\.angular)$/.test(source) });
      const install = await npm(dir, ['ci', '--prefer-offline', '--include=dev', '--no-audit', '--no-fund']);
      const ours = await npm(dir, ['install', '--no-save', '--prefer-offline', '--no-audit', '--no-fund', ...FRAMEWORK_APPS[app].packages.map((pkg) => tarballs[pkg] as string)]);
      const built = await npm(dir, ['run', 'build']);
      return [app, { install, ours, build: built }] as const;
    };
    const apps = Object.fromEntries(await Promise.all((Object.keys(FRAMEWORK_APPS) as FrameworkApp[]).map(build))) as Record<FrameworkApp, { install: number; ours: number; build: number }>;
    return {
      dir: (app) => join(root, app),
      output: (app) => join(root, app, FRAMEWORK_APPS[app].output),
      timings: { ...apps, pack, total: (Date.now() - started) / 1000 },
      dispose: () => spawn('rm', ['-rf', root], { detached: true, stdio: 'ignore' }).unref(),
    };
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}
