/**
 * How a package of packages/ is built into its dist/: each entry (src/index.ts, unless the package
 * names others) bundled by esbuild as an ES module (<entry>.js) and as CommonJS (<entry>.cjs), and one
 * declaration file for both (<entry>.d.ts, and the same as <entry>.d.cts, which TypeScript reads as
 * CommonJS's). Each package says which imports its code may leave to the installing project; any
 * other fails the build, not the merchant's install. A browser package is built for the browsers
 * the widget runs in rather than for Node.
 */
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Format, type Metafile, type Plugin } from 'esbuild';

export interface PackageBuild {
  /** The package's folder, e.g. packages/node/. */
  dir: string;
  /** The imports the bundled code of entry `name` may keep (everything else is bundled or refused). */
  mayImport(specifier: string, name: string): boolean;
  /** Why `foreign` imports of entry `name` are refused, for the build's error. */
  refusal(foreign: readonly string[], name: string): string;
  /** The declarations of one entry, written once the code is bundled. */
  declarations(entry: string): string;
  /** Each entry's name in dist/ and its source in the package (default: index, src/index.ts). */
  entries?: Record<string, string>;
  /** `browser`: code for the widget's browsers (ES2022) instead of Node 20. */
  platform?: 'node' | 'browser';
  /** esbuild plugins (modules the build writes). */
  plugins?: Plugin[];
}

/** The packages a bundle leaves to the installing project. */
const externalImports = (metafile: Metafile) => Object.values(metafile.inputs).flatMap((input) => input.imports.filter((i) => i.external).map((i) => i.path));

export async function buildPackage(pkg: PackageBuild): Promise<void> {
  const dist = join(pkg.dir, 'dist');
  const browser = pkg.platform === 'browser';
  rmSync(dist, { recursive: true, force: true });
  for (const [name, source] of Object.entries(pkg.entries ?? { index: 'src/index.ts' })) {
    const entry = join(pkg.dir, source);
    for (const [format, file] of [['esm', `${name}.js`], ['cjs', `${name}.cjs`]] as [Format, string][]) {
      const { metafile } = await build({
        entryPoints: [entry],
        outfile: join(dist, file),
        bundle: true,
        platform: browser ? 'browser' : 'node',
        format,
        target: browser ? 'es2022' : 'node20',
        packages: 'external',
        plugins: pkg.plugins ?? [],
        sourcemap: true,
        metafile: true,
        logLevel: 'warning',
      });
      const foreign = [...new Set(externalImports(metafile).filter((specifier) => !pkg.mayImport(specifier, name)))];
      if (foreign.length > 0) throw new Error(pkg.refusal(foreign, name));
    }
    writeFileSync(join(dist, `${name}.d.ts`), pkg.declarations(entry));
    copyFileSync(join(dist, `${name}.d.ts`), join(dist, `${name}.d.cts`));
  }
}
