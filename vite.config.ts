import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { LibraryFormats, Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * `vite build` builds the browser bundles into dist/web/, one Vite build
 * environment per bundle (lib mode emits a single IIFE per build):
 *   checkout.js        IIFE, the script-tag entry (global WalletCheckout)
 *   checkout.mjs       ESM, `import { mount } from '.../checkout.mjs'`
 *   sandbox-wallet.js  IIFE, the stand-in for Google's pay.js
 */
const outDir = fileURLToPath(new URL('./dist/web', import.meta.url));
const bundles: Record<string, { entry: string; format: LibraryFormats; fileName: string }> = {
  checkout: { entry: 'web/checkout/script-tag.ts', format: 'iife', fileName: 'checkout.js' },
  checkout_esm: { entry: 'web/checkout/index.ts', format: 'es', fileName: 'checkout.mjs' },
  sandbox_wallet: { entry: 'web/sandbox-wallet/index.ts', format: 'iife', fileName: 'sandbox-wallet.js' },
};

/**
 * Escapes non-ASCII characters (•, —, …) in the emitted JS, so the bundles
 * read the same whatever charset the merchant's page or server declares.
 */
const asciiOnly: Plugin = {
  name: 'wallet-checkout:ascii-only',
  generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type === 'chunk') {
        chunk.code = chunk.code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
      }
    }
  },
};

export default defineConfig({
  // JSX for Preact (Vite 8 transforms with oxc; this replaces the old `esbuild.jsx` setting).
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  publicDir: false,
  plugins: [asciiOnly],
  environments: Object.fromEntries(
    Object.entries(bundles).map(([name, b]) => [
      name,
      {
        consumer: 'client' as const,
        // Prefer packages' ES modules (the button element's `browser` field is a UMD build).
        resolve: { mainFields: ['module', 'browser', 'jsnext:main', 'jsnext'] },
        build: {
          outDir,
          emptyOutDir: false,
          copyPublicDir: false,
          minify: true,
          sourcemap: false,
          lib: { entry: b.entry, formats: [b.format], name: 'WalletCheckoutBundle', fileName: () => b.fileName },
        },
      },
    ]),
  ),
  builder: {
    async buildApp(builder) {
      await rm(outDir, { recursive: true, force: true });
      for (const name of Object.keys(bundles)) {
        const env = builder.environments[name];
        if (env) await builder.build(env);
      }
    },
  },
  test: {
    include: ['server/**/*.test.ts', 'web/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 20_000,
  },
});
