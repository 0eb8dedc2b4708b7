/**
 * Every character the widget can show, in each of its languages, is drawn from a font on this
 * machine, not as the box ("tofu") a browser draws for a character no font has. Each distinct
 * character of a dictionary is drawn alone on a canvas in the widget's own font stack and compared,
 * pixel for pixel, with what the browser draws for code points no font has (a private-use one and an
 * unassigned one): a missing glyph draws exactly that box, a real one does not. The missing
 * characters are named per language, so a missing font says which package to add
 * (scripts/ensure-fonts.sh, which scripts/ensure-fonts.test.ts checks with fontconfig).
 */
import { fileURLToPath } from 'node:url';
import { promisedLanguages } from '../testing/promised-languages';
import { expect, test } from './support/fixtures';

const localesDir = fileURLToPath(new URL('../web/checkout/locales/', import.meta.url));

/** Every string in a dictionary, however deep. */
const stringsOf = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(stringsOf) : [];

/** A dictionary's distinct characters that draw something: no spaces, no direction marks, no controls, no combining marks alone. */
async function charactersOf(tag: string): Promise<string[]> {
  const module = (await import(`${localesDir}${tag}.ts`)) as Record<string, unknown>;
  const words = stringsOf(module[tag.replace(/-/g, '')]).join('');
  return [...new Set(words)].filter((character) => !/[\p{Z}\p{C}\p{M}]/u.test(character));
}

test('every character of every language the widget speaks has a glyph here', async ({ page }) => {
  const languages = await Promise.all(promisedLanguages().map(async ({ tag }) => ({ tag, characters: await charactersOf(tag) })));
  await page.setContent('<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>');
  const missing = await page.evaluate((languages) => {
    // The widget's own font stack (web/checkout/widget.css), at a size where a box and a glyph cannot match by chance.
    const font = '32px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
    const canvas = document.createElement('canvas');
    canvas.width = 48;
    canvas.height = 48;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) throw new Error('no 2D canvas');
    context.font = font;
    context.textBaseline = 'middle';
    const drawn = (text: string) => {
      context.clearRect(0, 0, canvas.width, canvas.height);
      context.fillText(text, 4, 24);
      return context.getImageData(0, 0, canvas.width, canvas.height).data.join(',');
    };
    // Code points no font here has: a private-use one and one Unicode has not assigned.
    const boxes = new Set(['\u{F0000}', '\u{2FFFD}'].map(drawn));
    if (boxes.has(drawn(' '))) throw new Error('the box for a missing glyph draws nothing here: this check cannot tell');
    return languages.flatMap(({ tag, characters }) => {
      const boxed = characters.filter((character) => boxes.has(drawn(character)));
      return boxed.length > 0 ? [`${tag}: ${boxed.slice(0, 12).join(' ')}${boxed.length > 12 ? ` and ${boxed.length - 12} more` : ''}`] : [];
    });
  }, languages);
  expect(missing, 'characters drawn as boxes: run scripts/ensure-fonts.sh').toEqual([]);
});
