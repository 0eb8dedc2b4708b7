/**
 * How a package of packages/ is built into its dist/: its entry bundled by esbuild as an ES module
 * (index.js) and as CommonJS (index.cjs), and one declaration file for both (index.d.ts, and the
 * same as index.d.cts, which TypeScript reads as CommonJS's). Each package says which imports its
 * code may leave to the installing project; any other fails the build, not the merchant's install.
 */
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Format, type Metafile } from 'esbuild';

export interface PackageBuild {
  /** The package's folder, e.g. packages/node/. */
  dir: string;
  /** The imports its bundled code may keep (everything else is bundled or refused). */
  mayImport(specifier: string): boolean;
  /** Why `foreign` imports are refused, for the build's error. */
  refusal(foreign: readonly string[]): string;
  /** The declarations, written once the code is bundled. */
  declarations(entry: string): string;
}

/** The packages a bundle leaves to the installing project. */
const externalImports = (metafile: Metafile) => Object.values(metafile.inputs).flatMap((input) => input.imports.filter((i) => i.external).map((i) => i.path));

export async function buildPackage(pkg: PackageBuild): Promise<void> {
  const dist = join(pkg.dir, 'dist');
  const entry = join(pkg.dir, 'src/index.ts');
  rmSync(dist, { recursive: true, force: true });
  for (const [format, file] of [['esm', 'index.js'], ['cjs', 'index.cjs']] as [Format, string][]) {
    const { metafile } = await build({
      entryPoints: [entry],
      outfile: join(dist, file),
      bundle: true,
      platform: 'node',
      format,
      target: 'node20',
      packages: 'external',
      sourcemap: true,
      metafile: true,
      logLevel: 'warning',
    });
    const foreign = [...new Set(externalImports(metafile).filter((specifier) => !pkg.mayImport(specifier)))];
    if (foreign.length > 0) throw new Error(pkg.refusal(foreign));
  }
  writeFileSync(join(dist, 'index.d.ts'), pkg.declarations(entry));
  copyFileSync(join(dist, 'index.d.ts'), join(dist, 'index.d.cts'));
}
