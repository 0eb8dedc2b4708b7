/** The languages but English arrive as chunks (chunks.ts): their words are here once loaded. */
import { loadChunk } from '../chunks';
import type { SupportedLocale } from '../types';
import type { Messages } from '.';
import { en } from './en';

const loaded: Partial<Record<SupportedLocale, Messages>> = { en };

/** The language's words if they are here already (English always is). */
export const loadedMessages = (language: SupportedLocale): Messages | undefined => loaded[language];

/** Fetches the language's chunk; English when it cannot be had (the console says why), from then on. */
export async function loadMessages(language: SupportedLocale, nonce: string | undefined): Promise<Messages> {
  const here = loaded[language];
  if (here) return here;
  try {
    const messages = (await loadChunk(`locale-${language}`, nonce)) as Messages | undefined;
    if (!messages) throw new Error(`Wallet Checkout: the ${language} chunk carried no words`);
    return (loaded[language] = messages);
  } catch (err) {
    console.error(err instanceof Error ? err.message : err, '(the widget speaks English instead)');
    // For the page's lifetime: every widget, and every event, then speaks the English it shows.
    return (loaded[language] = en);
  }
}
