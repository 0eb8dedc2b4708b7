/**
 * Builds @wallet-checkout/qa-kit into packages/qa-kit/dist/ (`npm run build:qa-kit`, part of
 * `npm run build`, scripts/package-build.ts): its two entries, Playwright's (`index`) and
 * WebDriver's (`webdriver`), each bundled by esbuild as an ES module and as CommonJS with the
 * framework-neutral part they share (src/widget.ts, src/steps.ts), and each with declarations
 * bundled by dts-bundle-generator, in which the widget's `CheckoutState` and the sandbox's card ids
 * and their outcomes are spelled out from their own tables (web/checkout/types.ts, sandbox/test-cards.ts), so the
 * package needs nothing of this repository.
 *
 * Each entry imports one package, its runner (`@playwright/test`, `selenium-webdriver`), code and
 * declarations alike; this build checks both.
 */
import { fileURLToPath } from 'node:url';
import { generateDtsBundle } from 'dts-bundle-generator';
import ts from 'typescript';
import { buildPackage } from './package-build';
import { repoProgram, stringUnion } from './string-union';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const packageDir = fileURLToPath(new URL('../packages/qa-kit/', import.meta.url));

/** Each entry of the kit, its source, and the one package (its runner) it leaves to the team's install. */
const ENTRIES = {
  index: { source: 'src/index.ts', runner: '@playwright/test' },
  webdriver: { source: 'src/webdriver.ts', runner: 'selenium-webdriver' },
} as const;
type EntryName = keyof typeof ENTRIES;

const entryNamed = (name: string) => ENTRIES[name as EntryName];
const entryAt = (path: string) => Object.values(ENTRIES).find(({ source }) => path.endsWith(source))!;
const refusal = (what: string, runner: string, foreign: readonly string[]) => `the QA kit's ${what} import ${foreign.join(', ')}: a team installs ${runner} alone for that entry`;

/** The shared description's types that stand for this repository's tables: written out as the unions they are. */
const WIDGET_SOURCE = `${packageDir}src/widget.ts`;
const SPELLED_OUT = [
  { exported: 'TestCardId', repoType: 'WalletCardId' },
  { exported: 'TestCardOutcome', repoType: 'WalletCardOutcome' },
  { exported: 'CheckoutState', repoType: 'CheckoutState' },
] as const;

/** Drops the top-level declarations nothing names any more (what the spelled-out types leave behind), until none is left. */
function withoutUnused(text: string): string {
  for (;;) {
    const file = ts.createSourceFile('bundle.d.ts', text, ts.ScriptTarget.Latest, true);
    const unused = file.statements.find((statement) => {
      if (ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) return false;
      const name = ts.isVariableStatement(statement) ? statement.declarationList.declarations[0]?.name : (statement as ts.DeclarationStatement).name;
      if (!name || !ts.isIdentifier(name)) return false;
      return (text.match(new RegExp(`\\b${name.text.replace('$', '\\$')}\\b`, 'g')) ?? []).length === 1;
    });
    if (!unused) return text;
    text = text.slice(0, unused.getFullStart()) + text.slice(unused.getEnd());
  }
}

/** dts-bundle-generator's declarations of one entry, this repository's types spelled out; they may import the entry's runner alone. */
function declarations(entry: string): string {
  const { runner } = entryAt(entry);
  const [bundled] = generateDtsBundle([{ filePath: entry, output: { noBanner: true, exportReferencedTypes: false } }], { preferredConfigPath: `${repoRoot}tsconfig.json` });
  if (!bundled) throw new Error(`dts-bundle-generator produced no declarations for ${entry}`);
  const program = repoProgram([WIDGET_SOURCE]);
  let text = bundled;
  for (const { exported, repoType } of SPELLED_OUT) {
    const inlined = new RegExp(`^type ${repoType} = [^;]*;$`, 'm');
    if (!inlined.test(text)) throw new Error(`the kit's declarations no longer inline ${repoType} (which ${exported} stands for) as this build expects`);
    text = text.replace(inlined, `type ${repoType} = ${stringUnion(program, WIDGET_SOURCE, exported)};`);
  }
  text = withoutUnused(text);
  const foreign = ts.preProcessFile(text, true, true).importedFiles.map((imported) => imported.fileName).filter((name) => name !== runner);
  if (foreign.length > 0) throw new Error(refusal('declarations', runner, foreign));
  return text;
}

export async function buildQaKit(): Promise<void> {
  await buildPackage({
    dir: packageDir,
    entries: Object.fromEntries(Object.entries(ENTRIES).map(([name, { source }]) => [name, source])),
    mayImport: (specifier, name) => specifier === entryNamed(name).runner,
    refusal: (foreign, name) => refusal(`${name} entry's code would`, entryNamed(name).runner, foreign),
    declarations,
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  await buildQaKit();
  console.log(`packages/qa-kit/dist/: ${Object.keys(ENTRIES).map((name) => `${name}.js, ${name}.cjs, ${name}.d.ts`).join('; ')} (${Date.now() - started} ms)`);
}
