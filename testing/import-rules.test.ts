/**
 * The arrows of docs/architecture.md, read from the sources. Each top-level
 * folder is one kind of thing, and says in its README what it may import;
 * this test holds every non-test module to that list, with no exceptions.
 * Imports are read with TypeScript's own pre-processor (static, type-only and
 * dynamic imports alike). Tests may import what they test and the helpers in
 * testing/; the rules below are for everything else.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(join(root, path)).isDirectory()) return sourcesUnder(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const isTest = (file: string) => /\.(test|spec)\.tsx?$/.test(file);

/** The repository files `file` imports (packages left out), as paths from the repository root. */
function localImports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => {
      // A Vite query (`./widget.css?inline`) names the same file.
      const base = resolve(root, dirname(file), specifier.replace(/\?.*$/, ''));
      const found = ['.ts', '.tsx', '/index.ts', '/index.tsx', ''].map((ending) => base + ending).find((path) => existsSync(path) && statSync(path).isFile());
      if (!found) throw new Error(`${file}: cannot resolve ${specifier}`);
      return relative(root, found);
    });
}

/**
 * Each kind of module and what it may import: the first kind whose folder
 * holds a file is that file's kind (so `common/browser/` is matched before
 * `common/`). Everything may import its own folder. The browser's code
 * (web/, the sandbox's pay.js) reaches only what a browser can run.
 */
const KINDS: readonly { folder: string; mayImport: readonly string[] }[] = [
  { folder: 'contracts/', mayImport: [] },
  { folder: 'common/browser/', mayImport: ['contracts/'] },
  { folder: 'common/', mayImport: ['contracts/'] },
  { folder: 'sandbox/pay-js/', mayImport: ['contracts/', 'common/browser/'] },
  { folder: 'sandbox/', mayImport: ['contracts/', 'common/'] },
  { folder: 'web/', mayImport: ['contracts/', 'common/browser/'] },
  // The composition root: the files directly in server/ start the backend, and embed the sandbox and the demo store through their entries.
  { folder: 'server/*', mayImport: ['contracts/', 'common/', 'server/', 'sandbox/index.ts', 'demo/server/index.ts'] },
  { folder: 'server/', mayImport: ['contracts/', 'common/'] },
  { folder: 'demo/', mayImport: ['contracts/', 'common/', 'server/', 'packages/node/src/', 'web/checkout/types.ts'] },
  { folder: 'packages/node/', mayImport: ['contracts/'] },
  { folder: 'packages/qa-kit/', mayImport: ['contracts/', 'web/checkout/types.ts'] },
  { folder: 'testing/', mayImport: ['contracts/', 'common/', 'server/', 'sandbox/', 'demo/', 'web/', 'packages/'] },
  { folder: 'e2e/', mayImport: ['contracts/', 'common/', 'server/', 'sandbox/', 'demo/', 'web/', 'packages/', 'testing/'] },
  { folder: 'scripts/', mayImport: ['contracts/', 'common/', 'server/', 'sandbox/', 'demo/', 'web/', 'packages/', 'testing/', 'e2e/', 'vite.config.ts'] },
];
const FOLDERS = ['contracts', 'common', 'sandbox', 'web', 'server', 'demo', 'packages', 'testing', 'e2e', 'scripts'];

const holds = (folder: string, file: string) => (folder.endsWith('/*') ? dirname(file) === folder.slice(0, -2) : file.startsWith(folder));
const kindOf = (file: string) => KINDS.find(({ folder }) => holds(folder, file));
const ownFolder = (folder: string) => (folder.endsWith('/*') ? `${folder.slice(0, -2)}/` : folder);

describe('import rules', () => {
  const sources = FOLDERS.flatMap(sourcesUnder);
  const modules = sources.filter((file) => !isTest(file));

  it('every top-level folder has a README saying what it is, what it may import and who imports it', () => {
    const missing = FOLDERS.filter((folder) => !existsSync(join(root, folder, 'README.md')));
    expect(missing).toEqual([]);
  });

  it('every module imports only what its folder may', () => {
    expect(modules.length).toBeGreaterThan(200);
    const offenders = modules.flatMap((file) => {
      const kind = kindOf(file);
      if (!kind) return [`${file}: in no folder of the rules`];
      const allowed = [ownFolder(kind.folder), ...kind.mayImport];
      return localImports(file)
        .filter((imported) => !allowed.some((prefix) => imported === prefix || imported.startsWith(prefix)))
        .map((imported) => `${file} -> ${imported}`);
    });
    expect(offenders).toEqual([]);
  });

});
