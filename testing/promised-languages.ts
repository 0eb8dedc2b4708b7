/**
 * The widget's languages as we promise them to merchants: the table of docs/embedding.md's
 * "Language" (tag and direction), written by hand. The build finds the languages by listing
 * web/checkout/locales/, so a dictionary removed from there would quietly leave the widget; the
 * tests hold the folder and the built locale index to this list instead.
 */
import { readFileSync } from 'node:fs';

export interface PromisedLanguage {
  tag: string;
  direction: 'ltr' | 'rtl';
}

const DIRECTIONS: Record<string, PromisedLanguage['direction']> = { 'left to right': 'ltr', 'right to left': 'rtl' };

/** The table's rows, by tag; its rows hold two languages side by side (`| tag | language | direction | | tag | ...`). */
export function promisedLanguages(): PromisedLanguage[] {
  const doc = readFileSync(new URL('../docs/embedding.md', import.meta.url), 'utf8');
  const section = /^### Language\n([\s\S]*?)^#{1,3} /m.exec(doc)?.[1] ?? '';
  const lines = section.split('\n');
  const start = lines.findIndex((line) => line.startsWith('|'));
  const table = lines.slice(start, lines.findIndex((line, i) => i > start && !line.startsWith('|')));
  const languages = table.flatMap((line) => {
    const cells = line.split('|').map((cell) => cell.trim());
    return cells.flatMap((cell, i) => {
      const tag = /^`([a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)`$/.exec(cell)?.[1];
      const direction = DIRECTIONS[cells[i + 2] ?? ''];
      return tag && direction ? [{ tag, direction }] : [];
    });
  });
  if (start < 0 || languages.length === 0) throw new Error('docs/embedding.md, "Language": no table of languages found');
  return languages.sort((a, b) => (a.tag < b.tag ? -1 : 1));
}
