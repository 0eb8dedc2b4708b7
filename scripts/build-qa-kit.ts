/**
 * Builds @wallet-checkout/qa-kit into packages/qa-kit/dist/ (`npm run build:qa-kit`, part of
 * `npm run build`, scripts/package-build.ts): the kit bundled by esbuild as an ES module and as CommonJS, and its
 * declarations as the compiler writes them, with the widget's `CheckoutState` spelled out from
 * the widget's own table (web/checkout/types.ts), so the package needs nothing of this repository.
 *
 * `@playwright/test` is the one package the kit imports, code and declarations alike; this build
 * checks both.
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { buildPackage } from './package-build';
import { repoProgram, stringUnion } from './string-union';

const packageDir = fileURLToPath(new URL('../packages/qa-kit/', import.meta.url));
const PEER = '@playwright/test';

const refusal = (what: string, foreign: readonly string[]) => `the QA kit's ${what} import ${foreign.join(', ')}: a merchant installs ${PEER} alone`;

/**
 * The kit's type-only imports of this repository, each re-exported under its own name: the widget's
 * states (web/checkout/types.ts), the sandbox wallet's card ids and its cards' outcomes (sandbox/test-cards.ts).
 */
const SPELLED_OUT = [
  { exported: 'CheckoutState', imported: 'CheckoutState as WidgetCheckoutState' },
  { exported: 'TestCardId', imported: 'WalletCardId' },
  { exported: 'TestCardOutcome', imported: 'WalletCardOutcome' },
] as const;

/**
 * The compiler's declarations of the kit, with those imports written out: each becomes the
 * union of string literals it stands for.
 */
function declarations(entry: string): string {
  const program = repoProgram([entry], { noEmit: false, declaration: true, emitDeclarationOnly: true });
  let emitted: string | undefined;
  program.emit(program.getSourceFile(entry), (_name, text) => (emitted = text), undefined, true);
  let text = emitted ?? '';
  for (const { exported, imported } of SPELLED_OUT) {
    const repoImport = new RegExp(`^import type \\{ ${imported} \\} from '\\.[^']*';\\n`, 'm');
    const alias = `export type ${exported} = ${imported.split(' as ').at(-1)};`;
    if (!repoImport.test(text) || !text.includes(alias)) throw new Error(`the kit no longer declares ${exported} as this build expects (import type { ${imported} } and ${alias})`);
    text = text.replace(repoImport, '').replace(alias, `export type ${exported} = ${stringUnion(program, entry, exported)};`);
  }
  const foreign = ts.preProcessFile(text, true, true).importedFiles.map((imported) => imported.fileName).filter((name) => name !== PEER);
  if (foreign.length > 0) throw new Error(refusal('declarations', foreign));
  return text;
}

export async function buildQaKit(): Promise<void> {
  await buildPackage({ dir: packageDir, mayImport: (specifier) => specifier === PEER, refusal: (foreign) => refusal('code would', foreign), declarations });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  await buildQaKit();
  console.log(`packages/qa-kit/dist/: index.js, index.cjs, index.d.ts (${Date.now() - started} ms)`);
}
