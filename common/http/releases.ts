/**
 * Earlier releases of the widget, kept servable. A page's pinned tag and every version of
 * `@wallet-checkout/js` name one release's content-versioned files with their SRI hashes, so a
 * deploy must not take those files away: each start copies the running build's versioned files
 * (and their precompressed copies) into the release archive, and a versioned name the running
 * build does not have is served from there, immutable, as the build that made it served it. An
 * archived file is never rewritten: its name is its content's hash.
 */
import { chmodSync, copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import express from 'express';
import { privateDirectory } from '../private-files';
import { builtBundleDir, type Bundle, IMMUTABLE, type Manifest, readBundle, sendBundle } from './static';

/** A content-versioned file's name as the build writes it (vite.config.ts): a name, 12 hex digits of its hash, an extension. */
const VERSIONED = /^[a-z][a-z0-9-]*\.[0-9a-f]{12}\.(js|mjs|d\.ts)$/;

const COPIES = ['', '.br', '.gz'];

/** Copies each versioned file of `manifest` from the build into `archiveDir`; one already there stays as it is. */
export function archiveRelease(manifest: Manifest, archiveDir: string, buildDir = builtBundleDir): void {
  // Under DATA_DIR, whose every directory and file only the server's user reads (common/private-files.ts), as the rest of it.
  privateDirectory(archiveDir);
  for (const { file } of Object.values(manifest)) {
    if (!VERSIONED.test(file)) continue;
    for (const suffix of COPIES) {
      const from = join(buildDir, `${file}${suffix}`);
      const to = join(archiveDir, `${file}${suffix}`);
      if (existsSync(from) && !existsSync(to)) {
        copyFileSync(from, to);
        chmodSync(to, 0o600);
      }
    }
  }
}

/** Serves the archive's versioned files (after the running build's routes, which answer their own names first). */
export function archivedReleaseRoutes(archiveDir: string): express.Router {
  const router = express.Router();
  // A file found is read once, then served from memory (a name's bytes never change); a name not found is not remembered, so requests for made-up names cost no memory.
  const found = new Map<string, Bundle>();
  router.get('/:file', (req, res, next) => {
    const { file } = req.params;
    if (!VERSIONED.test(file)) return next();
    const bundle = found.get(file) ?? readBundle(file, archiveDir);
    if (!bundle) return next();
    found.set(file, bundle);
    sendBundle(req, res, file, bundle, IMMUTABLE);
  });
  return router;
}
