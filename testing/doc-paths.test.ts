/**
 * Every repository path the documents name exists, so a file moved or
 * renamed cannot leave a document pointing at nothing without a failing
 * test. The documents are README.md, docs/*.md and each top-level folder's
 * README.md. A path is a word written in backticks or in a fenced block that
 * starts with a top-level folder (`server/checkout/pay.ts`), or a relative
 * Markdown link's target; folder READMEs may also name paths from their own
 * folder (`checkout/locales/`). What the build writes (dist/) and what a
 * person fills in (`<language>`, `*`) are not in the repository, so a word is
 * checked up to its first placeholder. A path as it was at a commit is written
 * `<commit>:<path>`, as `git show` reads it, and checked in that commit (where
 * the clone holds it).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

const TOP_LEVEL = ['contracts', 'common', 'server', 'sandbox', 'web', 'demo', 'packages', 'testing', 'e2e', 'scripts', 'docs', '.ci'];

const documents = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  ...TOP_LEVEL.map((folder) => `${folder}/README.md`).filter((path) => existsSync(join(root, path))),
];

/** `a/{b,c}.ts` as `a/b.ts` and `a/c.ts`. */
function expandBraces(word: string): string[] {
  const match = /\{([^{}]*,[^{}]*)\}/.exec(word);
  if (!match) return [word];
  const [whole, parts = ''] = match;
  return parts.split(',').flatMap((part) => expandBraces(word.slice(0, match.index) + part + word.slice(match.index + whole.length)));
}

/** The part of a word that must exist: up to a placeholder, without a line number or a trailing punctuation mark. */
function checkedPart(word: string): string {
  const placeholder = word.search(/[<*$]|\.\.\./);
  const fixed = placeholder === -1 ? word : word.slice(0, word.lastIndexOf('/', placeholder) + 1);
  return fixed.replace(/:\d+(-\d+)?$/, '').replace(/[.,;:)]+$/, '');
}

/** The words of a document's code spans and fenced blocks. */
function codeWords(text: string): string[] {
  const fenced = [...text.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((match) => match[1] ?? '');
  const inline = [...text.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '').matchAll(/`([^`\n]+)`/g)].map((match) => match[1] ?? '');
  return [...fenced, ...inline].flatMap((code) => code.split(/[\s'"=]+/)).map((word) => word.replace(/^[([]+/, ''));
}

/** Relative link targets, without their anchor. */
function linkTargets(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => (match[1] ?? '').replace(/#.*$/, ''))
    .filter((target) => target !== '' && !/^[a-z]+:/i.test(target) && !target.startsWith('/'));
}

/** Files the build writes that a document may name alone. */
const BUILT_FILES = ['checkout.d.ts'];

/** The names of the repository's files, for a document naming a file alone (`pay.ts`). */
const fileNames = new Set(
  execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .map((path) => path.split('/').at(-1)),
);

const git = (...args: string[]) => spawnSync('git', args, { cwd: root, stdio: 'ignore' }).status === 0;

/** Whether `path` was in the tree of `commit`; true where the clone lacks that commit (a shallow one). */
const existedAt = (commit: string, path: string) => !git('cat-file', '-e', `${commit}^{commit}`) || git('cat-file', '-e', `${commit}:${path.replace(/\/$/, '')}`);

const firstSegment = (path: string) => path.split('/')[0] ?? '';
const startsAtTopLevel = (path: string) => TOP_LEVEL.includes(firstSegment(path)) && path.includes('/');
const isBuilt = (path: string) => path.split('/').includes('dist') || path.split('/').includes('node_modules');

/** The paths a document names that do not exist, each as `document: path`. */
function missingPaths(document: string, text = readFileSync(join(root, document), 'utf8')): string[] {
  const folder = dirname(document);
  const missing = new Set<string>();
  for (const word of codeWords(text).flatMap(expandBraces)) {
    const past = /^([0-9a-f]{7,40}):(.+)$/.exec(word);
    if (past) {
      const [, commit = '', pastPath = ''] = past;
      if (!existedAt(commit, checkedPart(pastPath))) missing.add(word);
      continue;
    }
    const path = checkedPart(word);
    // An absolute path is a URL's (`/demo/gallery`), not the repository's.
    if (path === '' || path.startsWith('/') || isBuilt(path)) continue;
    const candidates = [
      ...(startsAtTopLevel(path) ? [path] : []),
      // A folder's README may name paths from its own folder.
      ...(folder !== '.' && folder !== 'docs' && path.includes('/') && existsSync(join(root, folder, firstSegment(path))) ? [join(folder, path)] : []),
    ];
    if (candidates.length > 0 && !candidates.some((candidate) => existsSync(join(root, candidate)))) missing.add(candidates.join(' or '));
    if (/^[\w-][\w.-]*\.(tsx?|md|sh|css|html)$/.test(path) && !fileNames.has(path) && !BUILT_FILES.includes(path)) missing.add(path);
  }
  for (const target of linkTargets(text)) {
    const path = normalize(join(folder, decodeURIComponent(target)));
    if (!isBuilt(path) && !existsSync(join(root, path))) missing.add(path);
  }
  return [...missing].map((path) => `${document}: ${path}`);
}

describe('document paths', () => {
  it('reads the documents it is meant to', () => {
    expect(documents).toContain('docs/architecture.md');
    expect(documents).toContain('web/README.md');
    expect(documents.length).toBeGreaterThan(25);
  });

  it('tells a moved file from one that is there, now or at a commit', () => {
    const text = [
      '`server/checkout/pay.ts`, `server/contracts/money.ts`, `5e0fee6:server/contracts/money.ts`, `5e0fee6:server/nowhere.ts`,',
      '`checkout/locales/<tag>.ts`, `/demo/gallery`, `dist/web/checkout.js`, `View.tsx`, [api](api.md), [gone](gone.md#part)',
    ].join('\n');
    expect(missingPaths('docs/example.md', text)).toEqual([
      'docs/example.md: server/contracts/money.ts',
      'docs/example.md: 5e0fee6:server/nowhere.ts',
      'docs/example.md: View.tsx',
      'docs/example.md: docs/gone.md',
    ]);
    expect(missingPaths('web/README.md', '`checkout/locales/`, `checkout/nowhere/`')).toEqual(['web/README.md: web/checkout/nowhere/']);
  });

  it('every repository path a document names exists', () => {
    expect(documents.flatMap((document) => missingPaths(document))).toEqual([]);
  });
});
