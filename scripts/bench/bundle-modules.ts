/**
 * Where checkout.js's bytes come from: `npx tsx scripts/bench/bundle-modules.ts` bundles the
 * script-tag entry with esbuild (a devDependency that reports each module's share of its output;
 * Vite's lib build does not) with the same JSX and package fields, minified, and prints each
 * module's minified bytes, largest first. esbuild's minifier is not Vite's: read the shares, and
 * take the bundle's own sizes from `npm run bench:widget`.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { repoRoot } from './children';

const virtualModules = /^wallet-checkout:/;
/** Vite's `?inline` import (the stylesheet): the file's text. */
const inlineImport = /\?inline$/;

const result = await build({
  absWorkingDir: repoRoot,
  entryPoints: ['web/checkout/script-tag.ts'],
  bundle: true,
  minify: true,
  write: false,
  metafile: true,
  format: 'iife',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  mainFields: ['module', 'browser'],
  // The build's own modules (vite.config.ts): the chunk manifest is a few hashes, nothing to weigh.
  plugins: [
    {
      name: 'wallet-checkout-virtual',
      setup(b) {
        b.onResolve({ filter: virtualModules }, (args) => ({ path: args.path, namespace: 'virtual' }));
        b.onLoad({ filter: /.*/, namespace: 'virtual' }, () => ({ contents: 'export default {}', loader: 'js' }));
        b.onResolve({ filter: inlineImport }, (args) => ({ path: join(args.resolveDir, args.path.replace(inlineImport, '')), namespace: 'inline' }));
        b.onLoad({ filter: /.*/, namespace: 'inline' }, async (args) => ({ contents: await readFile(args.path, 'utf8'), loader: 'text' }));
      },
    },
  ],
});
const [output] = Object.values(result.metafile.outputs);
if (!output) throw new Error('esbuild produced no output');
const modules = Object.entries(output.inputs)
  .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
  .sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)
  .map(([module, { bytesInOutput }]) => `${String(bytesInOutput).padStart(6)}  ${module}`);
console.log([`${output.bytes} B minified (esbuild), by module:`, ...modules].join('\n'));
