/**
 * The DOM events a widget dispatches on the merchant's element: each move's from its row of the
 * state table (states.ts), in the words the shopper reads; a move whose words are not here yet
 * waits for them, and goes out once they come.
 */
import { BuiltinCustomEvent } from '../../common/browser/builtins';
import { enFirstPaint } from './locales/en';
import { wordsAtHand } from './locales/load';
import { type Announcement, type View, WIDGET_STATES } from './states';

export function announcer(target: HTMLElement, sessionId: string | null, alive: () => boolean) {
  /** Moves whose event needs words not here yet. */
  const unannounced: View[] = [];
  function emit({ name, detail }: Announcement) {
    if (alive()) target.dispatchEvent(new BuiltinCustomEvent(name, { bubbles: true, composed: true, detail }));
  }
  function announce(moved: View, language: string) {
    const announces = WIDGET_STATES[moved.state].announce;
    if (!announces) return;
    const t = wordsAtHand(language);
    const announcement = t && announces(moved, { sessionId, t, en: wordsAtHand('en') ?? enFirstPaint });
    if (announcement === undefined) unannounced.push(moved);
    else if (announcement) emit(announcement);
  }
  return {
    emit,
    announce,
    /** A language's chunk, or the rest of English, has come: the events that waited go out. */
    wordsArrived(language: string) {
      for (const moved of unannounced.splice(0)) announce(moved, language);
    },
  };
}
