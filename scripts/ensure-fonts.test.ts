/**
 * Every language the widget speaks has a font on this machine, as fontconfig (which the browsers ask)
 * sees it: `fc-list :lang=<language>` names at least one family whose characters cover the language
 * (fontconfig's orthography of it: all of Hangul's syllables for Korean, GB 2312's hanzi for Simplified
 * Chinese). Without one, the browser tests' screenshots show boxes and differ from one machine to the
 * next; `scripts/ensure-fonts.sh` installs what this asks for. Where fontconfig itself is missing this is
 * skipped with a hint, except on CI, which must have it.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { promisedLanguages } from '../testing/promised-languages';

/** fontconfig's name for a widget language, where it is not the tag itself: its orthographies are by language and region. */
const FONTCONFIG_LANGUAGE: Partial<Record<string, string>> = {
  'pt-PT': 'pt',
  // Serbian in Latin letters: fontconfig's Serbo-Croatian orthography (its `sr` is Cyrillic).
  'sr-Latn': 'sh',
  zh: 'zh-cn',
  'zh-Hant': 'zh-tw',
};

const fontconfigLanguage = (tag: string) => FONTCONFIG_LANGUAGE[tag] ?? tag.toLowerCase();

function fcList(...args: string[]): string | undefined {
  try {
    return execFileSync('fc-list', args, { encoding: 'utf8' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const fontconfig = fcList('--version') !== undefined;
if (!fontconfig && process.env.CI === 'true') throw new Error('fc-list is missing: CI installs fontconfig with the browsers (scripts/ensure-fonts.sh)');

describe.skipIf(!fontconfig)("the widget's languages have fonts (fontconfig; skipped without fc-list: install fontconfig, then run scripts/ensure-fonts.sh)", () => {
  it('finds a font covering each of them', () => {
    const missing = promisedLanguages()
      .map(({ tag }) => ({ tag, fontconfig: fontconfigLanguage(tag) }))
      .filter(({ fontconfig: language }) => !fcList(`:lang=${language}`, 'family')?.trim())
      .map(({ tag, fontconfig: language }) => (language === tag ? tag : `${tag} (fontconfig's ${language})`));
    expect(missing, `no font covers ${missing.join(', ')}: run scripts/ensure-fonts.sh (as root)`).toEqual([]);
  });
});
