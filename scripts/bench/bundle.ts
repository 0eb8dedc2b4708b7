/**
 * checkout.js against the floor bundle (Preact + the button element), both
 * built as the project builds its bundles: Vite lib mode, IIFE, minified,
 * packages' ES modules preferred. Also builds the bare page's element-only
 * bundle for the browser benchmarks.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'vite';
import { bundleBuild } from '../../vite.config';
import { repoRoot } from './children';

export interface BundleSize {
  minified: number;
  gzip: number;
  brotli: number;
}

export function sizeOf(file: string): BundleSize {
  const code = readFileSync(file);
  return {
    minified: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    brotli: brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/** Builds scripts/bench/<entry> into outDir/<fileName> with the project's bundle settings (vite.config.ts). */
export async function buildLikeCheckout(entry: string, outDir: string, fileName: string): Promise<string> {
  await build({
    configFile: false,
    root: repoRoot,
    logLevel: 'warn',
    publicDir: false,
    ...bundleBuild({ entry: join(repoRoot, 'scripts/bench', entry), format: 'iife', fileName, outDir, name: 'BenchBundle' }),
  });
  return join(outDir, fileName);
}
