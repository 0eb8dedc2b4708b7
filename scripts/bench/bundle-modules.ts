/**
 * Where checkout.js's bytes come from: `npx tsx scripts/bench/bundle-modules.ts` bundles the
 * script-tag entry with esbuild (a devDependency that reports each module's share of its output;
 * Vite's lib build does not) with the same package fields, minified, and prints each
 * module's minified bytes, largest first. esbuild's minifier is not Vite's: read the shares, and
 * take the bundle's own sizes from `npm run bench:widget`.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { repoRoot } from './children';

const virtualModules = /^wallet-checkout:/;
/** Each build-written module's exports, empty: a few hashes and tags, nothing to weigh. */
const virtualStubs: Record<string, string> = { 'wallet-checkout:languages': 'export default []; export const rightToLeft = [];' };
/** Vite's `?inline` import (the stylesheet): the file's text. */
const inlineImport = /\?inline$/;

/** The first script's modules (repository paths; `inline:` for the stylesheet) and each one's minified bytes in it. */
export async function firstScriptModules(): Promise<{ bytes: number; modules: Record<string, number> }> {
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: ['web/checkout/script-tag.ts'],
    bundle: true,
    minify: true,
    write: false,
    metafile: true,
    format: 'iife',
    mainFields: ['module', 'browser'],
    // The build's own modules (vite.config.ts), as stubs.
    plugins: [
      {
        name: 'wallet-checkout-virtual',
        setup(b) {
          b.onResolve({ filter: virtualModules }, (args) => ({ path: args.path, namespace: 'virtual' }));
          b.onLoad({ filter: /.*/, namespace: 'virtual' }, (args) => ({ contents: virtualStubs[args.path] ?? 'export default {}', loader: 'js' }));
          b.onResolve({ filter: inlineImport }, (args) => ({ path: join(args.resolveDir, args.path.replace(inlineImport, '')), namespace: 'inline' }));
          b.onLoad({ filter: /.*/, namespace: 'inline' }, async (args) => ({ contents: await readFile(args.path, 'utf8'), loader: 'text' }));
        },
      },
    ],
  });
  const [output] = Object.values(result.metafile.outputs);
  if (!output) throw new Error('esbuild produced no output');
  const modules = Object.entries(output.inputs).filter(([, { bytesInOutput }]) => bytesInOutput > 0);
  return { bytes: output.bytes, modules: Object.fromEntries(modules.map(([module, { bytesInOutput }]) => [module, bytesInOutput])) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { bytes, modules } = await firstScriptModules();
  const lines = Object.entries(modules)
    .sort((a, b) => b[1] - a[1])
    .map(([module, size]) => `${String(size).padStart(6)}  ${module}`);
  console.log([`${bytes} B minified (esbuild), by module:`, ...lines].join('\n'));
}
