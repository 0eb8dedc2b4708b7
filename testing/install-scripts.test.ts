/**
 * A first `npm install` warns of no install script: every locked package that has one is reviewed in
 * package.json's `allowScripts` (npm 11's review; better-sqlite3 and esbuild must run theirs, the
 * native build and the binary), and Scarf's telemetry, which an npm without that review would run,
 * is opted out of by the root package (`scarfSettings`, which @scarf/scarf reads).
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const read = (path: string) => JSON.parse(readFileSync(new URL(`../${path}`, import.meta.url), 'utf8'));
const project = read('package.json') as { allowScripts: Record<string, boolean>; scarfSettings?: { enabled?: boolean } };
const lock = read('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> };

const withInstallScripts = [...new Set(Object.entries(lock.packages).flatMap(([path, entry]) => (entry.hasInstallScript ? [path.split('node_modules/').at(-1)!] : [])))];

it('reviews every locked package with an install script, and runs the native builds', () => {
  expect(withInstallScripts.length).toBeGreaterThan(0);
  expect(withInstallScripts.filter((name) => !(name in project.allowScripts))).toEqual([]);
  expect(project.allowScripts['better-sqlite3']).toBe(true);
  expect(project.allowScripts.esbuild).toBe(true);
});

it("keeps Scarf's install-time telemetry off, whichever npm installs", () => {
  expect(project.allowScripts['@scarf/scarf']).toBe(false);
  expect(project.scarfSettings?.enabled).toBe(false);
});
