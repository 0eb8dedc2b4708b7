/**
 * The compiled server laid out as a production host holds it, in a temporary
 * directory: only the files docs/operations.md ("Production build") says it
 * reads at run time, and a node_modules of the production dependencies alone
 * (what `npm ci --omit=dev` installs: no tsx, no TypeScript, no esbuild). No
 * source file is there, so whatever runs from it runs compiled or not at all.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledServerArgs } from './fleet/node-process';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * Stands in for Vite's dist/web (built by `npm run build`, and removed and
 * rebuilt by it, which tests running beside this one must not see): the
 * server only needs to find it where the compiled output looks.
 */
export const STAGED_WIDGET = { file: 'checkout.000000000000.js', body: '/* staged checkout.js */\n' };

export interface StagedServer {
  readonly dir: string;
  /** For startChildServer: plain node on the bundle, with source maps. */
  readonly launch: { args: string[]; cwd: string };
  /** Nothing of this process's module set-up reaches the child: no --import tsx through NODE_OPTIONS, no NODE_PATH. */
  readonly env: Record<string, string>;
  remove(): void;
}

/** The top-level packages of package-lock.json that a production install has (nested ones come inside them). */
function productionPackages(): string[] {
  const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; devOptional?: boolean }> };
  return Object.entries(lock.packages)
    .filter(([path, entry]) => /^node_modules\/(@[^/]+\/)?[^/]+$/.test(path) && !entry.dev && !entry.devOptional)
    .map(([path]) => path);
}

export async function stageCompiledServer(): Promise<StagedServer> {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-compiled-'));
  try {
    // The build script as `npm run build` runs it, into the staged host's dist/server/.
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-server.ts', join(dir, 'dist/server')], { cwd: repoRoot, stdio: 'pipe' });
    mkdirSync(join(dir, 'dist/web'), { recursive: true });
    for (const file of ['checkout.js', STAGED_WIDGET.file]) writeFileSync(join(dir, 'dist/web', file), STAGED_WIDGET.body);
    writeFileSync(join(dir, 'dist/web/manifest.json'), JSON.stringify({ 'checkout.js': { file: STAGED_WIDGET.file, integrity: 'sha384-staged' } }));
    cpSync(join(repoRoot, 'demo/pages'), join(dir, 'demo/pages'), { recursive: true });
    // Its "type": "module" is what makes node read dist/server/*.js as ES modules.
    copyFileSync(join(repoRoot, 'package.json'), join(dir, 'package.json'));
    for (const path of productionPackages()) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      symlinkSync(join(repoRoot, path), join(dir, path), 'dir');
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    dir,
    launch: { args: [...compiledServerArgs], cwd: dir },
    env: { NODE_OPTIONS: '', NODE_PATH: '' },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
