import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import ts from 'typescript';
import type { LibraryFormats, Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * `vite build` builds the browser bundles into dist/web/, one Vite build
 * environment per bundle (lib mode emits a single IIFE per build):
 *   checkout.js        IIFE, the script-tag entry (global WalletCheckout)
 *   checkout.mjs       ESM, `import { mount } from '.../checkout.mjs'`
 *   checkout-frame.js  IIFE, the checkout frame's script (iframe mode, GET /frame)
 *   sandbox-wallet.js  IIFE, the stand-in for Google's pay.js
 *   dashboard.js       IIFE, the merchant's dashboard page (GET /dashboard)
 * and first the chunks, what the first paint does not need (web/checkout/chunks.ts):
 *   checkout-chunk-locale-<language>.js  IIFE, one language's words (English is in the bundles), not a Vite build
 *                                        but the chunk entry filled with the dictionary (buildLanguageChunks)
 *   checkout-chunk-locale-index.js       IIFE, each language chunk's versioned file and SRI hash
 *   checkout-chunk-challenge.js          IIFE, the 3-D Secure dialog (prefetched when the page is idle)
 *   checkout-chunk-frame-host.js         IIFE, iframe mode's side on the merchant's page (loaded by iframe mode alone)
 *   checkout-chunk-payment-flow.js       IIFE, what the widget does and shows after a click, the rest of English (prefetched when the page is idle)
 * then publishes them (see `publish`): a content-versioned copy of each, the
 * manifest naming those copies with their SRI hashes, checkout.d.ts, and each
 * script brotli- and gzip-compressed beside it (`precompress`).
 */
const outDir = fileURLToPath(new URL('./dist/web', import.meta.url));
const bundles: Record<string, { entry: string; format: LibraryFormats; fileName: string }> = {
  checkout: { entry: 'web/checkout/script-tag.ts', format: 'iife', fileName: 'checkout.js' },
  checkout_esm: { entry: 'web/checkout/index.ts', format: 'es', fileName: 'checkout.mjs' },
  checkout_frame: { entry: 'web/checkout/frame.ts', format: 'iife', fileName: 'checkout-frame.js' },
  sandbox_wallet: { entry: 'sandbox/pay-js/index.ts', format: 'iife', fileName: 'sandbox-wallet.js' },
  dashboard: { entry: 'web/dashboard/main.tsx', format: 'iife', fileName: 'dashboard.js' },
};

/**
 * The widget's languages: one dictionary file each in web/checkout/locales/, `<tag>.ts` exporting
 * `<tag without hyphens>: Messages` (pt-PT.ts exports ptPT). English is in the bundles; each other
 * language is a chunk of its own, named with its hash by the locale index (web/checkout/chunks.ts).
 */
const localesDir = fileURLToPath(new URL('./web/checkout/locales/', import.meta.url));
const languages = readdirSync(localesDir)
  .map((file) => /^([a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)\.ts$/.exec(file)?.[1])
  .filter((language): language is string => !!language)
  .sort();
const chunkLanguages = languages.filter((language) => language !== 'en');
/**
 * The languages written right to left, from their script as Intl infers it (Arabic, Hebrew, Thaana,
 * Syriac, N'Ko, Adlam): worked out here, as the widget's first paint would otherwise pay for Intl's
 * likely-subtags data to set its `dir`.
 */
const rightToLeft = languages.filter((language) => /Arab|Hebr|Thaa|Syrc|Nkoo|Adlm/.test(new Intl.Locale(language).maximize().script ?? ''));
const languageChunk = (language: string) => `locale-${language}`;

/**
 * Each chunk built by Vite: the module it carries and the export that is its content. `locale`: the
 * chunk entry around a placeholder, which each language's chunk and the locale index fill with
 * their data (`buildLanguageChunks`), rather than a Vite build each (forty would double the build's time).
 */
const chunks: Record<string, { module: string; exportName: string }> = {
  challenge: { module: 'web/checkout/challenge-dialog.ts', exportName: 'openChallenge' },
  'frame-host': { module: 'web/checkout/frame-host.ts', exportName: 'mountFrame' },
  'payment-flow': { module: 'web/checkout/payment-flow.ts', exportName: 'afterClick' },
};
const LOCALE_TEMPLATE = 'locale-template';
const CONTENT_PLACEHOLDER = '__WALLET_CHECKOUT_CHUNK_CONTENT__';
/** The chunks the bundles pin: the built ones and the locale index (not the languages': the index pins those). */
const pinnedChunks = [...Object.keys(chunks), 'locale-index'];
const chunkFileName = (name: string) => `checkout-chunk-${name}.js`;
const chunkEnvironment = (name: string) => `chunk_${name.replace(/\W/g, '_')}`;

/**
 * The versioned copy and SRI hash of each of `names` built in dist/web. Read from the files: Vite
 * loads this config anew for each environment, so nothing in memory outlives a build.
 */
async function builtChunks(names: readonly string[]): Promise<Record<string, { file: string; integrity: string }>> {
  const built = names.filter((name) => existsSync(join(outDir, chunkFileName(name))));
  return Object.fromEntries(await Promise.all(built.map(async (name) => [name, await versioned(chunkFileName(name))] as const)));
}

/**
 * Each language's chunk, and the locale index naming their versioned files and hashes: the
 * dictionary (plain data) evaluated here and written into the locale template's placeholder, as
 * JSON escaped to ASCII like every bundle (`asciiOnly`). A dictionary may import types only.
 */
async function buildLanguageChunks(): Promise<void> {
  const templateFile = join(outDir, chunkFileName(LOCALE_TEMPLATE));
  const template = await readFile(templateFile, 'utf8');
  // The minifier quotes the placeholder as it likes ("...", `...`).
  const placeholder = new RegExp(`(["'\`])${CONTENT_PLACEHOLDER}\\1`);
  if (!placeholder.test(template)) throw new Error('the locale chunk template lost its placeholder');
  const write = (name: string, content: unknown) =>
    writeFile(join(outDir, chunkFileName(name)), template.replace(placeholder, () => escapeToAscii(JSON.stringify(content))));
  for (const language of chunkLanguages) {
    const file = join(localesDir, `${language}.ts`);
    const { outputText } = ts.transpileModule(await readFile(file, 'utf8'), { fileName: file, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false } });
    if (/^\s*import\s/m.test(outputText)) throw new Error(`web/checkout/locales/${language}.ts imports a value: a dictionary may import types only`);
    const exportName = language.replace(/-/g, '');
    const messages = ((await import(`data:text/javascript;base64,${Buffer.from(outputText).toString('base64')}`)) as Record<string, unknown>)[exportName];
    if (!messages) throw new Error(`web/checkout/locales/${language}.ts does not export ${exportName}`);
    await write(languageChunk(language), messages);
  }
  const files = await builtChunks(chunkLanguages.map(languageChunk));
  await write('locale-index', Object.fromEntries(chunkLanguages.map((language) => [language, files[languageChunk(language)]])));
  await rm(templateFile);
}

/**
 * `wallet-checkout:chunk-content` (in a chunk's build): the export the chunk carries.
 * `wallet-checkout:chunk-manifest` (in the bundles'): the pinned chunks' files and hashes
 * (the chunks are built first). `wallet-checkout:languages`: the dictionaries' tags, and those
 * written right to left.
 */
const chunkModules: Plugin = {
  name: 'wallet-checkout:chunks',
  resolveId(id) {
    return ['wallet-checkout:chunk-content', 'wallet-checkout:chunk-manifest', 'wallet-checkout:languages'].includes(id) ? `\0${id}` : undefined;
  },
  async load(id) {
    if (id === '\0wallet-checkout:chunk-manifest') return `export default ${JSON.stringify(await builtChunks(pinnedChunks))};`;
    if (id === '\0wallet-checkout:languages') return `export default ${JSON.stringify(languages)}; export const rightToLeft = ${JSON.stringify(rightToLeft)};`;
    if (id !== '\0wallet-checkout:chunk-content') return undefined;
    if (this.environment.name === chunkEnvironment(LOCALE_TEMPLATE)) return `export default ${JSON.stringify(CONTENT_PLACEHOLDER)};`;
    const name = Object.keys(chunks).find((chunk) => chunkEnvironment(chunk) === this.environment.name);
    const chunk = name && chunks[name];
    if (!chunk) throw new Error(`wallet-checkout:chunk-content imported outside a chunk's build (${this.environment.name})`);
    return `export { ${chunk.exportName} as default } from ${JSON.stringify(fileURLToPath(new URL(`./${chunk.module}`, import.meta.url)))};`;
  },
};

/** A content-versioned copy of a built file, which never changes (served immutable), and its SRI hash. */
async function versioned(fileName: string): Promise<{ file: string; integrity: string }> {
  const bytes = await readFile(join(outDir, fileName));
  const digest = createHash('sha384').update(bytes).digest();
  const file = fileName.replace(/\.(m?js)$/, `.${digest.toString('hex').slice(0, 12)}.$1`);
  await writeFile(join(outDir, file), bytes);
  return { file, integrity: `sha384-${digest.toString('base64')}` };
}

/**
 * Escapes non-ASCII characters (•, —, …) in the emitted JS, so the bundles
 * read the same whatever charset the merchant's page or server declares.
 */
const escapeToAscii = (code: string) => code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const asciiOnly: Plugin = {
  name: 'wallet-checkout:ascii-only',
  generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type === 'chunk') chunk.code = escapeToAscii(chunk.code);
    }
  },
};

/**
 * dist/web/manifest.json: `{"checkout.js": {"file": "checkout.<hash>.js", "integrity": "sha384-..."}, ...}`.
 * A versioned name never changes content, so the backend serves it as immutable
 * and a merchant can pin it with `integrity` (docs/embedding.md).
 */
async function publish(): Promise<void> {
  const manifest: Record<string, { file: string; integrity: string }> = {};
  for (const { fileName } of Object.values(bundles)) manifest[fileName] = await versioned(fileName);
  const everyChunk = [...pinnedChunks, ...chunkLanguages.map(languageChunk)];
  for (const [name, chunk] of Object.entries(await builtChunks(everyChunk))) manifest[chunkFileName(name)] = chunk;
  await writeFile(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await precompress(readdirSync(outDir).filter((file) => /\.m?js$/.test(file)));

  // checkout.mjs's types: the declarations of web/checkout/types.ts, which imports nothing, and the one value it exports.
  const typesFile = fileURLToPath(new URL('./web/checkout/types.ts', import.meta.url));
  const { outputText } = ts.transpileDeclaration(await readFile(typesFile, 'utf8'), { fileName: typesFile, compilerOptions: { strict: true } });
  await writeFile(join(outDir, 'checkout.d.ts'), `${outputText}export declare const mount: Mount;\n`);
}

/**
 * `<file>.br` and `<file>.gz` beside each script, at the highest levels: compressed once at build,
 * so the backend sends a browser the bytes it accepts without compressing on any request
 * (common/http/static.ts). SRI hashes are of the scripts themselves, which is what browsers check.
 */
async function precompress(files: string[]): Promise<void> {
  for (const file of files) {
    const bytes = await readFile(join(outDir, file));
    await writeFile(join(outDir, `${file}.br`), brotliCompressSync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }));
    await writeFile(join(outDir, `${file}.gz`), gzipSync(bytes, { level: 9 }));
  }
}

/** How every bundle is built; the benchmarks build their floor bundle the same way (scripts/bench/bundle.ts). */
export function bundleBuild(b: { entry: string; format: LibraryFormats; fileName: string; outDir: string; name: string }) {
  return {
    // Prefer packages' ES modules (the button element's `browser` field is a UMD build).
    resolve: { mainFields: ['module', 'browser', 'jsnext:main', 'jsnext'] },
    build: {
      outDir: b.outDir,
      emptyOutDir: false,
      copyPublicDir: false,
      minify: true,
      sourcemap: false,
      lib: { entry: b.entry, formats: [b.format], name: b.name, fileName: () => b.fileName },
    },
  };
}

export default defineConfig({
  // JSX for Preact (Vite 8 transforms with oxc; this replaces the old `esbuild.jsx` setting).
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  publicDir: false,
  plugins: [asciiOnly, chunkModules],
  environments: {
    ...Object.fromEntries(
      [...Object.keys(chunks), LOCALE_TEMPLATE].map((name) => [
        chunkEnvironment(name),
        { consumer: 'client' as const, ...bundleBuild({ entry: 'web/checkout/chunk-entry.ts', format: 'iife', fileName: chunkFileName(name), outDir, name: 'WalletCheckoutChunk' }) },
      ]),
    ),
    ...Object.fromEntries(
      Object.entries(bundles).map(([name, b]) => [
        name,
        { consumer: 'client' as const, ...bundleBuild({ ...b, outDir, name: 'WalletCheckoutBundle' }) },
      ]),
    ),
  },
  builder: {
    async buildApp(builder) {
      await rm(outDir, { recursive: true, force: true });
      // The chunks first: the bundles carry their hashes.
      for (const name of [...Object.keys(chunks), LOCALE_TEMPLATE]) {
        const env = builder.environments[chunkEnvironment(name)];
        if (env) await builder.build(env);
      }
      await buildLanguageChunks();
      for (const name of Object.keys(bundles)) {
        const env = builder.environments[name];
        if (env) await builder.build(env);
      }
      await publish();
    },
  },
  test: {
    include: ['{contracts,common,server,sandbox,web,demo,testing,packages,scripts}/**/*.test.{ts,tsx}'],
    // A throwaway PostgreSQL for the store's tests on PostgreSQL (skipped, with a notice, where none is installed).
    globalSetup: ['testing/postgres-global-setup.ts'],
    // Every reply a test receives from our servers is held against the OpenAPI document (testing/api-contract.ts).
    setupFiles: ['testing/api-contract-setup.ts'],
    environment: 'node',
    // The packages' published names as their sources, as tsconfig.json's paths have them (the framework packages import the widget's).
    alias: [
      { find: /^@wallet-checkout\/js(\/pure)?$/, replacement: fileURLToPath(new URL('./packages/js/src/index.ts', import.meta.url)) },
      { find: /^@wallet-checkout\/js\/element$/, replacement: fileURLToPath(new URL('./packages/js/src/element.ts', import.meta.url)) },
      { find: /^@wallet-checkout\/react$/, replacement: fileURLToPath(new URL('./packages/react/src/index.ts', import.meta.url)) },
      { find: /^@wallet-checkout\/vue$/, replacement: fileURLToPath(new URL('./packages/vue/src/index.ts', import.meta.url)) },
      // Built by npm run build: the component's partial compilation, which Angular's JIT compiler links when a test loads it.
      { find: /^@wallet-checkout\/angular$/, replacement: fileURLToPath(new URL('./packages/angular/dist/fesm2022/wallet-checkout-angular.mjs', import.meta.url)) },
      { find: /^wallet-checkout:pinned-bundle$/, replacement: fileURLToPath(new URL('./testing/pinned-bundle.ts', import.meta.url)) },
    ],
    testTimeout: 20_000,
    // Vitest's default is one fewer than the cores: a single worker on 2 cores, where most files spend their
    // time waiting on child servers, PostgreSQL and nginx. Two files at a time there take a third off the run.
    maxWorkers: Math.max(availableParallelism() - 1, 2),
  },
});
