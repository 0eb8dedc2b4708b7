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
  { folder: 'demo/', mayImport: ['contracts/', 'common/', 'packages/node/src/', 'web/checkout/types.ts'] },
  { folder: 'packages/node/', mayImport: ['contracts/'] },
  { folder: 'packages/qa-kit/', mayImport: ['contracts/', 'web/checkout/types.ts', 'sandbox/test-cards.ts'] },
  // The widget's package re-exports the widget's types (type-only; its build writes them out); the framework layers import it by its name.
  { folder: 'packages/js/', mayImport: ['web/checkout/types.ts'] },
  { folder: 'packages/react/', mayImport: [] },
  { folder: 'packages/vue/', mayImport: [] },
  { folder: 'packages/angular/', mayImport: [] },
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

  it('no module reaches itself through its imports: every arrow points one way', () => {
    expect(importCycles(modules)).toEqual([]);
  });

  it('only the store layers build queries: no other module of the product imports kysely or starts a query', () => {
    const product = modules.filter((file) => !TOOLS.some((folder) => file.startsWith(folder)));
    const offenders = product
      .filter((file) => !STORE_LAYERS.some((layer) => file.startsWith(layer)))
      .flatMap((file) => [
        ...(packageImports(file).includes('kysely') ? [`${file} imports kysely`] : []),
        ...queryStarts(file).map((call) => `${file} calls ${call}`),
      ]);
    expect(offenders).toEqual([]);
  });

  it('the configuration is read by the features and reads none of them', () => {
    const features = localImports('server/config.ts').filter((imported) => !['contracts/', 'common/'].some((folder) => imported.startsWith(folder)));
    expect(features).toEqual([]);
  });
});

/** Where queries are built: the backend's store, the ground floor's (database, idempotency keys), the sandbox's own. */
const STORE_LAYERS = ['server/store/', 'common/store/', 'sandbox/store.ts'];
/** Tests' helpers, browser tests and scripts (the benchmarks fill their stores directly) are tools around the product, like tests. */
const TOOLS = ['testing/', 'e2e/', 'scripts/'];
/** The query builder's entry points (Kysely's and its raw `sql` template, which needs its import). */
const QUERY_METHODS = new Set(['selectFrom', 'insertInto', 'replaceInto', 'updateTable', 'deleteFrom', 'mergeInto']);

/** The packages `file` imports, as the pre-processor reads them (comments and strings left out). */
function packageImports(file: string): string[] {
  return ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true).importedFiles.map(({ fileName }) => fileName).filter((specifier) => !specifier.startsWith('.'));
}

/** The calls `x.selectFrom(...)` and the like in `file`, read from its syntax tree: a comment or a string naming one is no call. */
function queryStarts(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && QUERY_METHODS.has(node.expression.name.text)) {
      found.push(`.${node.expression.name.text}( at line ${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}


/**
 * The strongly connected groups of the import graph among `modules` that are
 * cycles (more than one member, or a module importing itself), by Tarjan's
 * algorithm: every module in a group reaches every other.
 */
function importCycles(modules: readonly string[]): string[][] {
  const imports = new Map(modules.map((file) => [file, localImports(file).filter((imported) => modules.includes(imported))]));
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string) => {
    order.set(file, order.size);
    lowest.set(file, order.get(file)!);
    stack.push(file);
    for (const imported of imports.get(file)!) {
      if (!order.has(imported)) visit(imported);
      if (stack.includes(imported)) lowest.set(file, Math.min(lowest.get(file)!, lowest.get(imported)!));
    }
    if (lowest.get(file) !== order.get(file)) return;
    const group = stack.splice(stack.indexOf(file));
    if (group.length > 1 || imports.get(file)!.includes(file)) cycles.push(group);
  };
  for (const file of modules) if (!order.has(file)) visit(file);
  return cycles;
}
