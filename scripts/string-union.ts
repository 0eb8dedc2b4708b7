/**
 * The string literals a type alias stands for, as the compiler resolves it: how a published
 * declaration file spells out the widget's `CheckoutState` (the keys of its state table), which
 * it cannot import from this repository. Used by the widget's build (checkout.d.ts, vite.config.ts)
 * and the QA kit's (scripts/build-qa-kit.ts).
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** A program of `rootNames` with the repository's compiler options (tsconfig.json), and `overrides`. */
export function repoProgram(rootNames: readonly string[], overrides: ts.CompilerOptions = {}): ts.Program {
  const { options } = ts.parseJsonConfigFileContent(ts.readConfigFile(`${repoRoot}tsconfig.json`, ts.sys.readFile).config, ts.sys, repoRoot);
  return ts.createProgram(rootNames, { ...options, noEmit: true, ...overrides });
}

/** `'loading' | 'ready' | ...`: the union the type alias `name` exported by `file` stands for. */
export function stringUnion(program: ts.Program, file: string, name: string): string {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const alias = source && checker.getSymbolAtLocation(source)?.exports?.get(ts.escapeLeadingUnderscores(name));
  const union = alias && checker.getDeclaredTypeOfSymbol(alias);
  if (!union?.isUnion() || !union.types.every((type) => type.isStringLiteral())) throw new Error(`${name} of ${file} is no longer a union of string literals`);
  return union.types.map((type) => `'${(type as ts.StringLiteralType).value}'`).join(' | ');
}
