/**
 * Packs every package we publish into dist/packages/ (`npm run build:package-tarballs`, the last
 * step of `npm run build`), for the checkout host to serve at `/packages/` (common/http/packages.ts):
 * a QA team installs the kit and the Node library of the very checkout it tests, with
 * `npm install https://CHECKOUT_HOST/packages/<name>-<version>.tgz`, no registry needed.
 *
 * Each tarball keeps npm's versioned name, and `manifest.json` gives each package's versioned file,
 * its stable name (the versioned one without its version, which the host redirects) and npm's
 * integrity of the tarball, the one a lockfile records.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packPackage } from '../testing/npm-pack';
import { PUBLISHED_PACKAGES } from './published-packages';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
export const packagesDir = join(repoRoot, 'dist/packages');

export interface PackedPackage {
  /** npm's name of the tarball, e.g. wallet-checkout-qa-kit-0.1.0.tgz. */
  file: string;
  /** The same without its version (wallet-checkout-qa-kit.tgz): the host redirects it to `file`. */
  stable: string;
  /** npm's integrity of the tarball (sha512), as a lockfile records it. */
  integrity: string;
}

export async function packPackages(into = packagesDir): Promise<Record<string, PackedPackage>> {
  rmSync(into, { recursive: true, force: true });
  mkdirSync(into, { recursive: true });
  const manifest: Record<string, PackedPackage> = {};
  for (const { dir } of PUBLISHED_PACKAGES) {
    const { name, version } = JSON.parse(readFileSync(join(repoRoot, dir, 'package.json'), 'utf8')) as { name: string; version: string };
    const file = basename(await packPackage(dir, into));
    const stable = file.replace(`-${version}.tgz`, '.tgz');
    if (stable === file) throw new Error(`npm packed ${name} as ${file}, without its version ${version}`);
    const integrity = `sha512-${createHash('sha512').update(readFileSync(join(into, file))).digest('base64')}`;
    manifest[name] = { file, stable, integrity };
  }
  writeFileSync(join(into, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const manifest = await packPackages();
  console.log(`dist/packages/: ${Object.values(manifest).map(({ file }) => file).join(', ')} (${Date.now() - started} ms)`);
}
