/**
 * The packages of this checkout's own version, as the build packed them into dist/packages/
 * (scripts/pack-packages.ts), served at `/packages/` so that a QA team installs the kit and the Node
 * library that match the host it tests, with npm and no registry:
 *
 * - `/packages/<name>-<version>.tgz` (e.g. wallet-checkout-qa-kit-0.1.0.tgz): the tarball, cached
 *   for a year. Its bytes never change under that name, so the integrity npm writes into a lockfile
 *   holds for `npm ci` ever after: this is the name to install.
 * - `/packages/<name>.tgz`: a redirect to this host's current version, cached for minutes. npm would
 *   record this address, not the redirect's, in a lockfile, whose integrity the next version breaks:
 *   it is for finding the current version, not for installing.
 *
 * Read once when the routes are made, like the widget's bundles (static.ts): the build comes first.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { IMMUTABLE, SHORT_CACHE } from './static';

const packagesDir = fileURLToPath(new URL('../../dist/packages/', import.meta.url));

interface PackedPackage {
  file: string;
  stable: string;
  integrity: string;
}

/** The build's manifest; empty when the packages were not packed (every path then answers 404). */
function readPackages(): PackedPackage[] {
  try {
    return Object.values(JSON.parse(readFileSync(`${packagesDir}manifest.json`, 'utf8')) as Record<string, PackedPackage>);
  } catch {
    return [];
  }
}

export function packageRoutes(): express.Router {
  const router = express.Router();
  for (const { file, stable } of readPackages()) {
    const body = readFileSync(`${packagesDir}${file}`);
    router.get(`/packages/${file}`, (_req, res) => {
      res.set('Cache-Control', IMMUTABLE);
      res.type('application/gzip').send(body);
    });
    router.get(`/packages/${stable}`, (_req, res) => {
      res.set('Cache-Control', SHORT_CACHE);
      res.redirect(302, file);
    });
  }
  return router;
}
