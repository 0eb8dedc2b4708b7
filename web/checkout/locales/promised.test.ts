/**
 * Every language docs/embedding.md promises is spoken, and no other: the dictionaries in this
 * folder (which the build discovers, vite.config.ts), their directions, and the locale index the
 * build writes (dist/web, `npm run build`), which is what a widget in another language than
 * English loads. Removing a dictionary fails here, not silently in a merchant's page.
 */
import { existsSync, readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { promisedLanguages } from '../../../testing/promised-languages';
import { directionOf, LANGUAGES } from '.';

const promised = promisedLanguages();
const localeIndex = new URL('../../../dist/web/checkout-chunk-locale-index.js', import.meta.url);

/** The languages the built locale index names, read by running it as a page does: it registers its content under its own URL. */
function builtIndexLanguages(): string[] {
  const src = 'https://checkout.example/checkout-chunk-locale-index.js';
  const page: Record<string, unknown> = { document: { currentScript: { src } } };
  page.window = page;
  runInNewContext(readFileSync(localeIndex, 'utf8'), page);
  const registered = (page.__walletCheckoutChunks as Map<string, Record<string, unknown>> | undefined)?.get(src);
  return Object.keys(registered ?? {});
}

describe('the languages docs/embedding.md promises', () => {
  it('are the dictionaries in web/checkout/locales/, each laid out in the direction the table says', () => {
    expect(LANGUAGES.map((tag) => ({ tag, direction: directionOf(tag) }))).toEqual(promised);
  });

  it('are in the built locale index, all but English (which is in the bundles)', () => {
    if (!existsSync(localeIndex)) throw new Error('dist/web/checkout-chunk-locale-index.js is missing: run npm run build first');
    expect(['en', ...builtIndexLanguages()].sort()).toEqual(promised.map(({ tag }) => tag));
  });
});
