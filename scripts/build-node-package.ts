/**
 * Builds @wallet-checkout/node into packages/node/dist/ (`npm run build:node-package`, part of
 * `npm run build`, scripts/package-build.ts): the library bundled with what it uses of contracts (esbuild), as an
 * ES module and as CommonJS, and one declaration file for both (dts-bundle-generator) in which
 * the contracts' schemas are inlined, so the package needs nothing of this repository; and its
 * command, `wallet-checkout` (dist/cli.js, package.json `bin`: listen and trigger, src/cli/).
 *
 * zod is the one package the declarations import (its types spell the contracts'); the code
 * imports nothing but Node's modules, which this build checks.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDtsBundle } from 'dts-bundle-generator';
import { buildPackage } from './package-build';

const packageDir = fileURLToPath(new URL('../packages/node/', import.meta.url));

export async function buildNodePackage(): Promise<void> {
  await buildPackage({
    dir: packageDir,
    bins: { cli: 'src/cli/main.ts' },
    mayImport: (specifier) => specifier.startsWith('node:'),
    refusal: (foreign) => `the library's code imports ${foreign.join(', ')}: it would need a runtime dependency; keep contracts' imports type-only`,
    declarations(entry) {
      const [declarations] = generateDtsBundle([{ filePath: entry, output: { noBanner: true, exportReferencedTypes: false } }], { preferredConfigPath: join(packageDir, 'tsconfig.json') });
      if (!declarations) throw new Error('dts-bundle-generator produced no declarations');
      return declarations;
    },
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  await buildNodePackage();
  console.log(`packages/node/dist/: index.js, index.cjs, index.d.ts, cli.js (${Date.now() - started} ms)`);
}
