/**
 * The server as plain JavaScript (`npm run build`, after the widget's bundles):
 * one ES module per command an operator runs, in dist/server/, each with its
 * source map (`node --enable-source-maps dist/server/main.js`). The project's
 * own code is bundled (its imports carry no `.js` extensions, which only a
 * bundler or tsx resolves); npm packages stay external, loaded from
 * node_modules at run time as they are under tsx.
 *
 * Every output sits directly in dist/server/, two levels below the root like
 * the sources in server/<folder>/: the paths the server builds from
 * `import.meta.url` (`../../dist/web/`, `../../demo/pages/`, docs/operations.md
 * "Production build") then resolve the same in the bundle as under tsx.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** dist/server/<name>.js from server/<source>: the server and the operator's commands (README, docs/operations.md). */
export const serverEntries: Readonly<Record<string, string>> = {
  main: 'server/main.ts',
  sandbox: 'sandbox/main.ts',
  'app-create': 'server/apps/cli.ts',
  'app-update': 'server/apps/update-cli.ts',
  'app-roll-key': 'server/apps/roll-key-cli.ts',
  'direct-keys': 'server/direct-mode/cli.ts',
};

/** `express` from `express`, `@types/x` from `@types/x/y`: the package an import names. */
const packageOf = (specifier: string): string => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/**
 * The packages the bundles import that `npm ci --omit=dev` would not install:
 * a production host installs only `dependencies`, so any of these would fail
 * there at start, not here.
 */
function devOnlyImports(metafile: Metafile): string[] {
  const { dependencies } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const imported = Object.values(metafile.inputs).flatMap((input) => input.imports.filter((i) => i.external && !i.path.startsWith('node:')).map((i) => packageOf(i.path)));
  return [...new Set(imported)].filter((name) => !(name in dependencies)).sort();
}

/** Builds every entry into `outDir` (default dist/server/, emptied first). */
export async function buildServer(outDir = join(repoRoot, 'dist/server')): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  const { metafile } = await build({
    absWorkingDir: repoRoot,
    entryPoints: Object.entries(serverEntries).map(([out, source]) => ({ in: source, out })),
    outdir: outDir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    // Stack traces need the mappings only; the sources stay out of what is deployed.
    sourcesContent: false,
    metafile: true,
    logLevel: 'warning',
  });
  const missing = devOnlyImports(metafile);
  if (missing.length > 0) throw new Error(`the server imports ${missing.join(', ')}, which package.json lists only under devDependencies: a production install lacks them`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  // An output directory other than dist/server/ (the staged production host of testing/compiled-server.ts).
  const outDir = process.argv[2];
  await buildServer(outDir);
  console.log(`${outDir ?? 'dist/server/'}: ${Object.keys(serverEntries).map((name) => `${name}.js`).join(', ')} (${Date.now() - started} ms)`);
}
