/**
 * Builds the widget's packages for merchants' front ends (`npm run build:browser-packages`, part of
 * `npm run build` after the widget's own build, scripts/package-build.ts):
 *
 * - `@wallet-checkout/js` (packages/js/dist/): `index` (also the `pure` export) and `element`, with
 *   the release it loads written in: the versioned file and SRI hash that the widget's build gave
 *   checkout.js (dist/web/manifest.json). Its declarations are dts-bundle-generator's, the widget's
 *   types (web/checkout/types.ts) inlined, so the package needs nothing of this repository.
 * - `@wallet-checkout/react` and `@wallet-checkout/vue` (packages/react/dist/, packages/vue/dist/):
 *   one module each, leaving the framework and `@wallet-checkout/js` to the merchant's install, code
 *   and declarations alike (the compiler's declarations, which keep the import of
 *   `@wallet-checkout/js` as written).
 * - `@wallet-checkout/angular` (packages/angular/dist/): ng-packagr's build
 *   (scripts/build-angular-package.ts), after the js package's, whose declarations it reads.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDtsBundle } from 'dts-bundle-generator';
import type { Plugin } from 'esbuild';
import ts from 'typescript';
import { buildAngularPackage } from './build-angular-package';
import { buildPackage } from './package-build';
import { repoProgram } from './string-union';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const jsDir = join(repoRoot, 'packages/js/');
const JS = '@wallet-checkout/js';
/** The bindings built like React's: their folder, and the imports they leave to the merchant's install. */
const BINDINGS = [
  { name: '@wallet-checkout/react', dir: join(repoRoot, 'packages/react/'), imports: ['react', JS] },
  { name: '@wallet-checkout/vue', dir: join(repoRoot, 'packages/vue/'), imports: ['vue', JS] },
];

/** checkout.js's versioned file and SRI hash in the widget's build. */
export function pinnedBundle(manifestFile = join(repoRoot, 'dist/web/manifest.json')): { file: string; integrity: string } {
  if (!existsSync(manifestFile)) throw new Error(`${manifestFile} is missing: the widget's build (vite build) comes first, as in npm run build`);
  const entry = (JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, { file?: unknown; integrity?: unknown }>)['checkout.js'];
  if (typeof entry?.file !== 'string' || typeof entry.integrity !== 'string' || !/^sha384-/.test(entry.integrity)) throw new Error(`${manifestFile} has no versioned checkout.js with a sha384 integrity`);
  return { file: entry.file, integrity: entry.integrity };
}

/** `wallet-checkout:pinned-bundle`, the module that names the release (packages/js/src/pinned-bundle.d.ts). */
const pinnedBundleModule = (pinned: { file: string; integrity: string }): Plugin => ({
  name: 'wallet-checkout:pinned-bundle',
  setup(build) {
    build.onResolve({ filter: /^wallet-checkout:pinned-bundle$/ }, ({ path }) => ({ path, namespace: 'wallet-checkout' }));
    build.onLoad({ filter: /.*/, namespace: 'wallet-checkout' }, () => ({ contents: `export default ${JSON.stringify(pinned)};`, loader: 'js' }));
  },
});

/** `specifiers` left as imports: the repository's tsconfig paths would otherwise bundle `@wallet-checkout/js`'s sources. */
const keepImports = (specifiers: readonly string[]): Plugin => ({
  name: 'wallet-checkout:keep-imports',
  setup(build) {
    build.onResolve({ filter: /^[@\w]/ }, ({ path }) => (specifiers.includes(path) ? { path, external: true } : undefined));
  },
});

function bundledDeclarations(entry: string): string {
  const [declarations] = generateDtsBundle([{ filePath: entry, output: { noBanner: true, exportReferencedTypes: false, inlineDeclareGlobals: true } }], { preferredConfigPath: join(jsDir, 'tsconfig.json') });
  if (!declarations) throw new Error(`dts-bundle-generator produced no declarations for ${entry}`);
  const imports = ts.preProcessFile(declarations, true, true).importedFiles.map((imported) => imported.fileName);
  if (imports.length > 0) throw new Error(`the declarations of ${entry} import ${imports.join(', ')}: the package would need them installed`);
  return declarations;
}

/** The compiler's declarations of a binding's module, which may import its framework and `@wallet-checkout/js` alone. */
function bindingDeclarations(binding: (typeof BINDINGS)[number], entry: string): string {
  const program = repoProgram([entry], { noEmit: false, declaration: true, emitDeclarationOnly: true });
  let emitted: string | undefined;
  program.emit(program.getSourceFile(entry), (_name, text) => (emitted = text), undefined, true);
  if (!emitted) throw new Error(`the compiler emitted no declarations for ${entry}`);
  const foreign = ts.preProcessFile(emitted, true, true).importedFiles.map((imported) => imported.fileName).filter((name) => !binding.imports.includes(name));
  if (foreign.length > 0) throw new Error(`${binding.name}'s declarations import ${foreign.join(', ')}: a merchant installs ${binding.imports.join(' and ')} alone`);
  return emitted;
}

export async function buildBrowserPackages(): Promise<void> {
  await buildPackage({
    dir: jsDir,
    platform: 'browser',
    entries: { index: 'src/index.ts', element: 'src/element.ts' },
    plugins: [pinnedBundleModule(pinnedBundle()), keepImports([JS])],
    // The element's entry imports the package's own main entry, so that a page using both loads one copy.
    mayImport: (specifier) => specifier === JS,
    refusal: (foreign) => `${JS} imports ${foreign.join(', ')}: it has no dependencies`,
    declarations: bundledDeclarations,
  });
  for (const binding of BINDINGS) {
    await buildPackage({
      dir: binding.dir,
      platform: 'browser',
      plugins: [keepImports(binding.imports)],
      mayImport: (specifier) => binding.imports.includes(specifier),
      refusal: (foreign) => `${binding.name} imports ${foreign.join(', ')}: a merchant installs ${binding.imports.join(' and ')} alone`,
      declarations: (entry) => bindingDeclarations(binding, entry),
    });
  }
  await buildAngularPackage();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  await buildBrowserPackages();
  console.log(`packages/js/dist/ (index, element), packages/react/dist/ and packages/vue/dist/ (index): .js, .cjs, .d.ts; packages/angular/dist/ (ng-packagr) (${Date.now() - started} ms)`);
}
