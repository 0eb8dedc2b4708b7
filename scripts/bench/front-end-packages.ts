/**
 * What each layer of the front-end packages adds to a merchant's bundle (figure 10 of `npm run
 * bench`; alone: `npm run bench:packages`, after the build): the built packages (packages/js/dist,
 * packages/react/dist, packages/vue/dist, packages/angular/dist) bundled by esbuild, minified and
 * tree-shaken as a merchant's bundler would, from an entry that uses one layer's exports, and each
 * layer's gzip -9 size measured as the difference from the layer it stands on: the loader alone,
 * the controller over the loader, and the <wallet-checkout> element and the React, Vue and Angular
 * layers each over the controller (the framework itself, which the merchant's app already carries,
 * left out). The Angular layer is measured as the Angular CLI ships it in a production build:
 * linked by Angular's own linker (its partial compilation turned into the component's definition)
 * and with Angular's development-mode code (`ngDevMode`) dropped.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { transformAsync } from '@babel/core';
import { ConsoleLogger, LogLevel, NodeJSFileSystem } from '@angular/compiler-cli';
import { createEs2015LinkerPlugin } from '@angular/compiler-cli/linker/babel';
import { build, type Plugin } from 'esbuild';
import { repoRoot } from './children';

const LAYERS = ['element', 'react', 'vue', 'angular'] as const;
type Layer = (typeof LAYERS)[number];

export interface PackageLayers {
  /** gzip bytes of each bundle: `loader`, then each layer with all it stands on. */
  bundles: Record<'loader' | 'controller' | Layer, number>;
  /** gzip bytes each layer adds over the one it stands on. */
  added: Record<'controller' | Layer, number>;
}

const BUILT: Record<string, string> = {
  '@wallet-checkout/js': 'packages/js/dist/index.js',
  '@wallet-checkout/js/element': 'packages/js/dist/element.js',
  '@wallet-checkout/react': 'packages/react/dist/index.js',
  '@wallet-checkout/vue': 'packages/vue/dist/index.js',
  '@wallet-checkout/angular': 'packages/angular/dist/fesm2022/wallet-checkout-angular.mjs',
};

/** The packages' names resolved to their builds (not to the sources the repository's tsconfig names), the frameworks left out. */
const builtPackages: Plugin = {
  name: 'built-packages',
  setup(b) {
    b.onResolve({ filter: /^(@wallet-checkout\/|react|vue|@angular\/)/ }, ({ path }) => {
      const built = BUILT[path];
      return built ? { path: join(repoRoot, built) } : { path, external: true };
    });
  },
};

/** The Angular package's module as the Angular CLI's production build takes it: linked (partial declarations made definitions). */
const angularLinker: Plugin = {
  name: 'angular-linker',
  setup(b) {
    const linker = createEs2015LinkerPlugin({ fileSystem: new NodeJSFileSystem(), logger: new ConsoleLogger(LogLevel.warn), linkerJitMode: false });
    b.onLoad({ filter: /wallet-checkout-angular\.mjs$/ }, async ({ path }) => {
      const linked = await transformAsync(await readFile(path, 'utf8'), { filename: path, plugins: [linker], configFile: false, babelrc: false, compact: false, sourceMaps: false });
      if (!linked?.code) throw new Error(`Angular's linker returned nothing for ${path}`);
      return { contents: linked.code, loader: 'js' };
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
    // What the Angular CLI defines in a production build; nothing else reads them.
    define: { ngDevMode: 'false', ngJitMode: 'false', ngI18nClosureMode: 'false' },
    plugins: [builtPackages, angularLinker],
    logLevel: 'warning',
  });
  return gzipSync(outputFiles[0]?.contents ?? new Uint8Array(), { level: 9 }).length;
}

const CONTROLLER = `export { createCheckoutController } from '@wallet-checkout/js';`;

/** Each layer's entry, over the controller's. */
const ENTRIES: Record<Layer, string> = {
  element: `import '@wallet-checkout/js/element'; ${CONTROLLER}`,
  react: `export { WalletCheckout, useWalletCheckout } from '@wallet-checkout/react'; ${CONTROLLER}`,
  vue: `export { WalletCheckout, useWalletCheckout } from '@wallet-checkout/vue'; ${CONTROLLER}`,
  angular: `export { WalletCheckoutComponent } from '@wallet-checkout/angular'; ${CONTROLLER}`,
};

export async function benchPackageLayers(): Promise<PackageLayers> {
  for (const built of Object.values(BUILT)) if (!existsSync(join(repoRoot, built))) throw new Error(`${built} is missing: run npm run build first`);
  const loader = await gzipOf(`export { loadWalletCheckout } from '@wallet-checkout/js';`);
  const controller = await gzipOf(CONTROLLER);
  const layers = {} as Record<Layer, number>;
  for (const layer of LAYERS) layers[layer] = await gzipOf(ENTRIES[layer]);
  const added = Object.fromEntries(LAYERS.map((layer) => [layer, layers[layer] - controller])) as Record<Layer, number>;
  return { bundles: { loader, controller, ...layers }, added: { controller: controller - loader, ...added } };
}

const LABELS: Record<Layer, string> = {
  element: 'the `<wallet-checkout>` element, over the controller',
  react: '@wallet-checkout/react, over the controller (React apart)',
  vue: '@wallet-checkout/vue, over the controller (Vue apart)',
  angular: '@wallet-checkout/angular, over the controller (Angular apart; linked, production mode)',
};

/** The layers' rows of the table: gzip bytes over the loader, each framework layer and the element under 2 KiB. */
export function packageLayerRows(layers: PackageLayers): [string, string, string, string, string][] {
  const size = (bytes: number) => `${(bytes / 1024).toFixed(2)} KiB (${bytes} B)`;
  const under2KiB = (bytes: number) => `< 2 KiB: ${bytes < 2048 ? 'met' : '**missed**'}`;
  return [
    ['10. @wallet-checkout/js loader, gzip (minified, in a merchant\'s bundle)', size(layers.bundles.loader), '', '', ''],
    ['10. … the controller, over the loader', `+${size(layers.added.controller)}`, '', '', ''],
    ...LAYERS.map((layer): [string, string, string, string, string] => [`10. … ${LABELS[layer]}`, `+${size(layers.added[layer])}`, '', '', under2KiB(layers.added[layer])]),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const layers = await benchPackageLayers();
  for (const row of packageLayerRows(layers)) console.log(`${row[0]}: ${row[1]}${row[4] ? ` (${row[4]})` : ''}`);
}
