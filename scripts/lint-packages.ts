/**
 * `npm run lint:packages` (part of `npm test`, after the build): every package we publish packed by
 * npm as its user would install it (the front end's packages/js, packages/react, packages/vue and
 * the package ng-packagr writes into packages/angular/dist; the merchant server's packages/node;
 * the QA teams' packages/qa-kit), then held to publint (strict: its warnings fail too) and to Are
 * the Types Wrong (every entry's types resolve for ES modules and CommonJS, under Node 16+ and
 * bundler resolution; TypeScript's pre-exports `node10` resolution, which cannot see subpath
 * exports, is left out, as its `node16` profile does). The Angular package is ES modules only, as
 * the Angular Package Format is: attw's `esm-only` profile leaves out CommonJS's resolution too.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { packPackage } from '../testing/npm-pack';
import { PUBLISHED_PACKAGES as PACKAGES } from './published-packages';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) => join(repoRoot, 'node_modules/.bin', name);

async function lint({ dir, profile }: (typeof PACKAGES)[number], into: string): Promise<string | undefined> {
  // `npm publish` refuses a private package: each of these is meant to be installed from the registry.
  if ((JSON.parse(readFileSync(join(repoRoot, dir, 'package.json'), 'utf8')) as { private?: boolean }).private) return `${dir}: package.json says private, so npm would not publish it`;
  const tarball = await packPackage(dir, into);
  const checks = [
    [bin('publint'), ['run', tarball, '--strict']],
    [bin('attw'), [tarball, '--profile', profile, '--format', 'ascii', '--no-color']],
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
  const into = mkdtempSync(join(tmpdir(), 'packages-'));
  try {
    const failures = (await Promise.all(PACKAGES.map((pkg) => lint(pkg, into)))).filter((failure) => failure !== undefined);
    if (failures.length > 0) {
      console.error(failures.join('\n'));
      process.exitCode = 1;
    } else console.log(`${PACKAGES.map(({ dir, profile }) => `${dir} (attw ${profile})`).join(', ')}: packed, publint --strict and attw pass`);
  } finally {
    rmSync(into, { recursive: true, force: true });
  }
}
