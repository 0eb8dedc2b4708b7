/**
 * Builds @wallet-checkout/node into packages/node/dist/ (`npm run build:node-package`, part of
 * `npm run build`): the library bundled with what it uses of contracts (esbuild), as an
 * ES module and as CommonJS, and one declaration file for both (dts-bundle-generator) in which
 * the contracts' schemas are inlined, so the package needs nothing of this repository.
 *
 * zod is the one package the declarations import (its types spell the contracts'); the code
 * imports nothing but Node's modules, which this build checks.
 */
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDtsBundle } from 'dts-bundle-generator';
import { build, type Format, type Metafile } from 'esbuild';

const packageDir = fileURLToPath(new URL('.', import.meta.url));
const dist = join(packageDir, 'dist');
const entry = join(packageDir, 'src/index.ts');

/** The imports a bundle leaves to the installing project: only node: modules may be among them. */
function foreignImports(metafile: Metafile): string[] {
  const external = Object.values(metafile.inputs).flatMap((input) => input.imports.filter((i) => i.external && !i.path.startsWith('node:')).map((i) => i.path));
  return [...new Set(external)];
}

async function bundle(format: Format, outfile: string): Promise<void> {
  const { metafile } = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format,
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
  });
  const foreign = foreignImports(metafile);
  if (foreign.length > 0) throw new Error(`the library's code imports ${foreign.join(', ')}: it would need a runtime dependency; keep contracts' imports type-only`);
}

export async function buildNodePackage(): Promise<void> {
  rmSync(dist, { recursive: true, force: true });
  await bundle('esm', join(dist, 'index.js'));
  await bundle('cjs', join(dist, 'index.cjs'));
  const [declarations] = generateDtsBundle([{ filePath: entry, output: { noBanner: true, exportReferencedTypes: false } }], { preferredConfigPath: join(packageDir, 'tsconfig.json') });
  if (!declarations) throw new Error('dts-bundle-generator produced no declarations');
  writeFileSync(join(dist, 'index.d.ts'), declarations);
  // The same declarations for require(): TypeScript reads a .d.cts as CommonJS's.
  copyFileSync(join(dist, 'index.d.ts'), join(dist, 'index.d.cts'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  await buildNodePackage();
  console.log(`packages/node/dist/: index.js, index.cjs, index.d.ts (${Date.now() - started} ms)`);
}
