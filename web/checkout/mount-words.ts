/**
 * The widget's language and the events its moves announce (their rows in states.ts), in the words
 * the shopper reads: a language's chunk is fetched when the widget comes to speak it, and a move
 * whose event needs words not here yet is announced once they come.
 */
import { BuiltinCustomEvent } from '../../common/browser/builtins';
import { enFirstPaint } from './en-first-paint';
import { languageOf } from './locales';
import { loadedMessages, loadMessages, wordsAtHand } from './locales/load';
import { type Announcement, type View, WIDGET_STATES } from './states';
import type { SupportedLocale } from './types';

/**
 * Events dispatched on `target` while the widget is `alive`; `paint` draws the widget again. Returns
 * `announce` (the event a move's row announces), `emit` (an event), `wordsArrived` (the rest of
 * English or the language's chunk came: drawn, and the events that waited go out), `speak` (the
 * locale, first or new) and `language` (the dictionary's tag the widget speaks).
 */
export function widgetWords(target: EventTarget, sessionId: string | null, nonce: () => string | undefined, alive: () => boolean, paint: () => void) {
  let language: SupportedLocale | undefined;
  /** Moves whose event waits for words. */
  const unannounced: View[] = [];
  function emit({ name, detail }: Announcement) {
    if (alive()) target.dispatchEvent(new BuiltinCustomEvent(name, { bubbles: true, composed: true, detail }));
  }
  function announce(moved: View) {
    const announces = WIDGET_STATES[moved.state].announce;
    if (!announces) return;
    const t = wordsAtHand(language!);
    const announcement = t && announces(moved, { sessionId, t, en: wordsAtHand('en') ?? enFirstPaint });
    if (announcement === undefined) unannounced.push(moved);
    else if (announcement) emit(announcement);
  }
  function wordsArrived() {
    paint();
    for (const moved of unannounced.splice(0)) announce(moved);
  }
  function speak(locale: string) {
    const wanted = languageOf(locale) ?? 'en';
    if (wanted === language) return;
    language = wanted;
    if (language !== 'en' && !loadedMessages(language)) void loadMessages(language, nonce()).then(() => alive() && wordsArrived());
  }
  return [announce, emit, wordsArrived, speak, () => language!] as const;
}
