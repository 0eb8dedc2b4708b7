/**
 * `npm run lint:packages` (part of `npm test`, after the build): each front-end package packed by
 * npm as a merchant would install it (packages/js, packages/react), then held to publint (strict:
 * its warnings fail too) and to Are the Types Wrong (every entry's types resolve for ES modules and
 * CommonJS, under Node 16+ and bundler resolution; TypeScript's pre-exports `node10` resolution,
 * which cannot see subpath exports, is left out, as its `node16` profile does).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { packPackage } from '../testing/npm-pack';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) => join(repoRoot, 'node_modules/.bin', name);
const BROWSER_PACKAGES = ['packages/js', 'packages/react'];

async function lint(dir: string, into: string): Promise<string | undefined> {
  const tarball = await packPackage(dir, into);
  const checks = [
    [bin('publint'), ['run', tarball, '--strict']],
    [bin('attw'), [tarball, '--profile', 'node16', '--format', 'ascii', '--no-color']],
  ] as const;
  for (const [command, args] of checks) {
    try {
      await run(command, [...args], { env: { ...process.env, NO_COLOR: '1' } });
    } catch (error) {
      const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
      return `${dir}: ${command.split('/').pop()} failed\n${stdout}${stderr}`;
    }
  }
  return undefined;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const into = mkdtempSync(join(tmpdir(), 'browser-packages-'));
  try {
    const failures = (await Promise.all(BROWSER_PACKAGES.map((dir) => lint(dir, into)))).filter((failure) => failure !== undefined);
    if (failures.length > 0) {
      console.error(failures.join('\n'));
      process.exitCode = 1;
    } else console.log(`${BROWSER_PACKAGES.join(', ')}: packed, publint --strict and attw (node16) pass`);
  } finally {
    rmSync(into, { recursive: true, force: true });
  }
}
