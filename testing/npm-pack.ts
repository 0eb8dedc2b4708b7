/** A package of packages/ as npm packs it for a merchant (built already: npm run build), for the checks and tests that install it outside the repository. */
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** The tarball of `dir` (e.g. packages/js) written into `into`; its prepack build is not run again. */
export async function packPackage(dir: string, into: string): Promise<string> {
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', into], { cwd: join(repoRoot, dir) });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  return join(into, filename);
}

/** `dir` packed and unpacked where npm installs it in `project` (node_modules/<name>): only the files the package ships. */
export async function installPacked(dir: string, name: string, project: string): Promise<void> {
  const tarball = await packPackage(dir, project);
  const target = join(project, 'node_modules', name);
  mkdirSync(target, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
}
