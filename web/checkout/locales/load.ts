/**
 * The words a widget has: English's first paint always (the first script's), the rest of English
 * once the after-click chunk has brought it, any other language once its own chunk is here. A
 * language's chunk is named, with its hash, by the locale index (itself a chunk this bundle pins):
 * two requests, one after the other, made at mount beside the session's and the wallet's.
 */
import { loadChunk, loadPinnedChunk, type PinnedChunk } from '../chunks';
import type { SupportedLocale } from '../types';
import type { Messages, Words } from '.';
import { enFirstPaint } from '../en-first-paint';

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
export async function loadMessages(language: SupportedLocale, nonce: string | undefined): Promise<void> {
  if (language === 'en' || loadedMessages(language)) return;
  try {
    const index = (await loadChunk('locale-index', nonce)) as Partial<Record<SupportedLocale, PinnedChunk>> | undefined;
    const messages = (await loadPinnedChunk(`locale-${language}`, index?.[language], nonce)) as Messages | undefined;
    if (!messages) throw new Error(`Wallet Checkout: the ${language} chunk carried no words`);
    loaded[language] = messages;
  } catch (err) {
    console.error(err instanceof Error ? err.message : err, '(the widget speaks English instead)');
    inEnglish.add(language);
  }
}
