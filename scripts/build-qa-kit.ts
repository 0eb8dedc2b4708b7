/**
 * Builds @wallet-checkout/qa-kit into packages/qa-kit/dist/ (`npm run build:qa-kit`, part of
 * `npm run build`): the kit bundled by esbuild as an ES module and as CommonJS, and its
 * declarations as the compiler writes them, with the widget's `CheckoutState` spelled out from
 * the widget's own table (web/checkout/types.ts), so the package needs nothing of this repository.
 *
 * `@playwright/test` is the one package the kit imports, code and declarations alike; this build
 * checks both.
 */
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Format, type Metafile } from 'esbuild';
import ts from 'typescript';
import { repoProgram, stringUnion } from './string-union';

const packageDir = fileURLToPath(new URL('../packages/qa-kit/', import.meta.url));
const dist = join(packageDir, 'dist');
const entry = join(packageDir, 'src/index.ts');
const PEER = '@playwright/test';

function refuseForeign(what: string, imports: readonly string[]): void {
  const foreign = [...new Set(imports.filter((name) => name !== PEER))];
  if (foreign.length > 0) throw new Error(`the QA kit's ${what} import ${foreign.join(', ')}: a merchant installs ${PEER} alone`);
}

/** The packages a bundle leaves to the installing project. */
const externalImports = (metafile: Metafile) => Object.values(metafile.inputs).flatMap((input) => input.imports.filter((i) => i.external).map((i) => i.path));

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
  refuseForeign('code would', externalImports(metafile));
}

/**
 * The compiler's declarations of the kit, with the widget's states written out: the one
 * import of this repository (`CheckoutState`, type-only) becomes the union it stands for.
 */
function declarations(): string {
  const program = repoProgram([entry], { noEmit: false, declaration: true, emitDeclarationOnly: true });
  let emitted: string | undefined;
  program.emit(program.getSourceFile(entry), (_name, text) => (emitted = text), undefined, true);
  const widgetImport = /^import type \{ CheckoutState as WidgetCheckoutState \} from '\.[^']*';\n/m;
  const alias = 'export type CheckoutState = WidgetCheckoutState;';
  if (!emitted || !widgetImport.test(emitted) || !emitted.includes(alias)) throw new Error('the kit no longer declares CheckoutState as the widget\'s, as this build expects');
  const text = emitted.replace(widgetImport, '').replace(alias, `export type CheckoutState = ${stringUnion(program, entry, 'CheckoutState')};`);
  refuseForeign('declarations', ts.preProcessFile(text, true, true).importedFiles.map((imported) => imported.fileName));
  return text;
}

export async function buildQaKit(): Promise<void> {
  rmSync(dist, { recursive: true, force: true });
  await bundle('esm', join(dist, 'index.js'));
  await bundle('cjs', join(dist, 'index.cjs'));
  writeFileSync(join(dist, 'index.d.ts'), declarations());
  // The same declarations for require(): TypeScript reads a .d.cts as CommonJS's.
  copyFileSync(join(dist, 'index.d.ts'), join(dist, 'index.d.cts'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  await buildQaKit();
  console.log(`packages/qa-kit/dist/: index.js, index.cjs, index.d.ts (${Date.now() - started} ms)`);
}
