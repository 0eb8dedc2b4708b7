/**
 * The words a widget has: English's first paint always (the first script's), the rest of English
 * once the after-click chunk has brought it, any other language once its own chunk is here.
 */
import { loadChunk } from '../chunks';
import type { SupportedLocale } from '../types';
import type { Messages, Words } from '.';
import { enFirstPaint } from './en';

const loaded: Partial<Record<SupportedLocale, Messages>> = {};
/** Languages whose chunk could not be had: the page speaks English in their stead, for its lifetime (every widget, every event). */
const inEnglish = new Set<SupportedLocale>();

const spoken = (language: SupportedLocale): SupportedLocale => (inEnglish.has(language) ? 'en' : language);

/** The language's whole dictionary, if it is here. */
export const loadedMessages = (language: SupportedLocale): Messages | undefined => loaded[spoken(language)];

/** The words at hand: the whole dictionary, else (English) the first paint's, else none yet. */
export const wordsAtHand = (language: SupportedLocale): Words | undefined => loadedMessages(language) ?? (spoken(language) === 'en' ? enFirstPaint : undefined);

/** The rest of English, brought by the after-click chunk. */
export function addEnglish(en: Messages): void {
  loaded.en = en;
}

/** Fetches a language's chunk (not English's: it comes with the after-click chunk); English in its stead when it cannot be had (the console says why). */
export async function loadMessages(language: Exclude<SupportedLocale, 'en'>, nonce: string | undefined): Promise<void> {
  if (loadedMessages(language)) return;
  try {
    const messages = (await loadChunk(`locale-${language}`, nonce)) as Messages | undefined;
    if (!messages) throw new Error(`Wallet Checkout: the ${language} chunk carried no words`);
    loaded[language] = messages;
  } catch (err) {
    console.error(err instanceof Error ? err.message : err, '(the widget speaks English instead)');
    inEnglish.add(language);
  }
}
