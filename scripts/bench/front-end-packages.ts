/**
 * What each layer of the front-end packages adds to a merchant's bundle (figure 10 of `npm run
 * bench`; alone: `npm run bench:packages`, after the build): the built packages (packages/js/dist,
 * packages/react/dist) bundled by esbuild, minified and tree-shaken as a merchant's bundler would,
 * from an entry that uses one layer's exports, and each layer's gzip -9 size measured as the
 * difference from the layer it stands on: the loader alone, the controller over the loader, and
 * the <wallet-checkout> element and the React layer each over the controller (React itself, which
 * the merchant's app already carries, left out).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';
import { repoRoot } from './children';

export interface PackageLayers {
  /** gzip bytes of each bundle: `loader`, then each layer with all it stands on. */
  bundles: { loader: number; controller: number; element: number; react: number };
  /** gzip bytes each layer adds over the one it stands on. */
  added: { controller: number; element: number; react: number };
}

const BUILT: Record<string, string> = {
  '@wallet-checkout/js': 'packages/js/dist/index.js',
  '@wallet-checkout/js/element': 'packages/js/dist/element.js',
  '@wallet-checkout/react': 'packages/react/dist/index.js',
};

/** The packages' names resolved to their builds (not to the sources the repository's tsconfig names), React left out. */
const builtPackages: Plugin = {
  name: 'built-packages',
  setup(b) {
    b.onResolve({ filter: /^(@wallet-checkout\/|react)/ }, ({ path }) => {
      const built = BUILT[path];
      return built ? { path: join(repoRoot, built) } : { path, external: true };
    });
  },
};

async function gzipOf(entry: string): Promise<number> {
  const { outputFiles } = await build({
    stdin: { contents: entry, resolveDir: repoRoot, loader: 'js' },
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    target: 'es2022',
    plugins: [builtPackages],
    logLevel: 'warning',
  });
  return gzipSync(outputFiles[0]?.contents ?? new Uint8Array(), { level: 9 }).length;
}

export async function benchPackageLayers(): Promise<PackageLayers> {
  for (const built of Object.values(BUILT)) if (!existsSync(join(repoRoot, built))) throw new Error(`${built} is missing: run npm run build first`);
  const bundles = {
    loader: await gzipOf(`export { loadWalletCheckout } from '@wallet-checkout/js';`),
    controller: await gzipOf(`export { createCheckoutController } from '@wallet-checkout/js';`),
    element: await gzipOf(`import '@wallet-checkout/js/element'; export { createCheckoutController } from '@wallet-checkout/js';`),
    react: await gzipOf(`export { WalletCheckout, useWalletCheckout } from '@wallet-checkout/react'; export { createCheckoutController } from '@wallet-checkout/js';`),
  };
  return { bundles, added: { controller: bundles.controller - bundles.loader, element: bundles.element - bundles.controller, react: bundles.react - bundles.controller } };
}

/** The layers' rows of the table: gzip bytes over the loader, the element and React under 2 KiB each. */
export function packageLayerRows(layers: PackageLayers): [string, string, string, string, string][] {
  const size = (bytes: number) => `${(bytes / 1024).toFixed(2)} KiB (${bytes} B)`;
  const under2KiB = (bytes: number) => `< 2 KiB: ${bytes < 2048 ? 'met' : '**missed**'}`;
  return [
    ['10. @wallet-checkout/js loader, gzip (minified, in a merchant\'s bundle)', size(layers.bundles.loader), '', '', ''],
    ['10. … the controller, over the loader', `+${size(layers.added.controller)}`, '', '', ''],
    ['10. … the `<wallet-checkout>` element, over the controller', `+${size(layers.added.element)}`, '', '', under2KiB(layers.added.element)],
    ['10. … @wallet-checkout/react, over the controller (React apart)', `+${size(layers.added.react)}`, '', '', under2KiB(layers.added.react)],
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const layers = await benchPackageLayers();
  for (const row of packageLayerRows(layers)) console.log(`${row[0]}: ${row[1]}${row[4] ? ` (${row[4]})` : ''}`);
}
