/**
 * The arrows of docs/architecture.md, read from the sources: the sandbox is a
 * service of its own (it reaches only shared contracts, the wallet crypto and
 * generic libraries), the widget and the sandbox wallet reach the server only
 * through contracts, the backend embeds the sandbox only at its composition
 * root, and no production module imports a test helper. Imports are read with
 * TypeScript's own pre-processor (static, type-only and dynamic imports alike).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sourcesUnder(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const isTest = (file: string) => /\.(test|spec)\.tsx?$/.test(file);
/** Test helpers live in server/testing/ only: one anywhere else counts as production code and meets these rules. */
const isTestHelper = (file: string) => file.startsWith('server/testing/');
/** What runs in production: the server and the browser bundles, without tests and their helpers. */
const isProduction = (file: string) => (file.startsWith('server/') || file.startsWith('web/')) && !isTest(file) && !isTestHelper(file);

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

/** Every repository file reachable from `entries` by imports, with the import that first reached it. */
function reachable(entries: string[]): Map<string, string> {
  const reachedFrom = new Map<string, string>(entries.map((entry) => [entry, '(entry)']));
  const queue = [...entries];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const imported of localImports(file)) {
      if (reachedFrom.has(imported)) continue;
      reachedFrom.set(imported, file);
      queue.push(imported);
    }
  }
  return reachedFrom;
}

const outside = (reached: Map<string, string>, allowed: (file: string) => boolean) =>
  [...reached].filter(([file]) => !allowed(file)).map(([file, from]) => `${from} -> ${file}`);

/** The generic store helpers a service of its own may use: opening a database, the idempotency table. */
const genericStore = ['server/store/database.ts', 'server/store/idempotency.ts', 'server/store/failures.ts', 'server/store/limits.ts'];
const sandboxMayReach = (file: string) =>
  ['server/sandbox/', 'server/contracts/', 'server/wallet/', 'server/lib/', 'server/http/', 'server/logging/'].some((dir) => file.startsWith(dir)) || genericStore.includes(file);

describe('import rules', () => {
  const production = [...sourcesUnder('server'), ...sourcesUnder('web')].filter(isProduction);

  it('the sandbox reaches only contracts, the wallet crypto and generic libraries, never checkout, apps or the demo', () => {
    const sandbox = production.filter((file) => file.startsWith('server/sandbox/'));
    expect(sandbox.length).toBeGreaterThan(5);
    expect(outside(reachable(sandbox), sandboxMayReach)).toEqual([]);
  });

  it('the widget and the sandbox wallet reach the server only through contracts', () => {
    const web = production.filter((file) => file.startsWith('web/'));
    expect(outside(reachable(web), (file) => file.startsWith('web/') || file.startsWith('server/contracts/'))).toEqual([]);
  });

  it('the Node library (packages/node) reaches the server only through contracts, which it bundles', () => {
    const library = sourcesUnder('packages/node/src').filter((file) => !isTest(file));
    expect(library.length).toBeGreaterThan(3);
    expect(outside(reachable(library), (file) => file.startsWith('packages/node/src/') || file.startsWith('server/contracts/'))).toEqual([]);
  });

  it('no production module imports a test helper', () => {
    const offenders = production.flatMap((file) => localImports(file).filter(isTestHelper).map((helper) => `${file} -> ${helper}`));
    expect(offenders).toEqual([]);
  });

  it('the backend embeds the sandbox only at its composition root, through its index', () => {
    const offenders = production
      .filter((file) => !file.startsWith('server/sandbox/'))
      .flatMap((file) => localImports(file).filter((imported) => imported.startsWith('server/sandbox/')).map((imported) => `${file} -> ${imported}`))
      .filter((arrow) => arrow !== 'server/server.ts -> server/sandbox/index.ts');
    expect(offenders).toEqual([]);
  });
});
