/**
 * Builds `@wallet-checkout/angular` (packages/angular/) with ng-packagr, Angular's tool for libraries:
 * the component compiled partially (the merchant's Angular CLI links it for the Angular version the
 * app runs) into packages/angular/dist/, a package of its own in the Angular Package Format (ES
 * modules only, `fesm2022/`, declarations, its package.json with `exports`), which is what npm packs.
 * Part of `npm run build:browser-packages`, after the js package's, whose declarations it compiles
 * against.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ngPackagr } from 'ng-packagr';
import ts from 'typescript';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
export const angularDir = join(repoRoot, 'packages/angular/');
/** What the bundled module may import: a merchant installs these beside it. */
const ANGULAR_IMPORTS = ['@angular/core', '@wallet-checkout/js'];

export async function buildAngularPackage(): Promise<void> {
  await ngPackagr().forProject(join(angularDir, 'ng-package.json')).withTsConfig(join(angularDir, 'tsconfig.lib.json')).build();
  const module = readFileSync(join(angularDir, 'dist/fesm2022/wallet-checkout-angular.mjs'), 'utf8');
  const foreign = ts.preProcessFile(module, true, true).importedFiles.map((imported) => imported.fileName).filter((name) => !ANGULAR_IMPORTS.includes(name));
  if (foreign.length > 0) throw new Error(`@wallet-checkout/angular imports ${foreign.join(', ')}: a merchant installs ${ANGULAR_IMPORTS.join(' and ')} alone`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildAngularPackage();
