/**
 * The widget's language and its moves' events (mount-words.ts), without a browser: each move's
 * event once, on the mount element, none once the widget is stopped; a language whose words are
 * not here yet holds its events back until they come, and a language asked for again is not
 * fetched again.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { outcome } from './flow-fixtures';
import { widgetWords } from './mount-words';

afterEach(() => void vi.restoreAllMocks());

function widget(alive = () => true) {
  const target = new EventTarget();
  const events: { name: string; detail: unknown }[] = [];
  for (const name of ['checkout:error', 'checkout:decline', 'checkout:success'])
    target.addEventListener(name, (event) => events.push({ name, detail: (event as CustomEvent).detail }));
  const paint = vi.fn();
  const [announce, emit, wordsArrived, speak, language] = widgetWords(target, 'cs_1', () => undefined, alive, paint);
  return { announce, emit, wordsArrived, speak, language, events, paint };
}

it('announces a move as its row says, in English at first paint, and nothing once stopped', () => {
  let alive = true;
  const w = widget(() => alive);
  w.speak('en-US');
  expect(w.language()).toBe('en');
  w.announce({ state: 'error', code: 'network_error', reason: null });
  w.announce({ state: 'loading' });
  expect(w.events).toEqual([
    { name: 'checkout:error', detail: { sessionId: 'cs_1', code: 'network_error', reason: null, message: expect.stringContaining('payment server') } },
  ]);
  alive = false;
  w.announce({ state: 'declined', outcome: outcome('declined') });
  expect(w.events).toHaveLength(1);
});

it('holds back an event whose words are not here, and sends it once they come', () => {
  const w = widget();
  w.speak('en');
  // The rest of English comes with the after-click chunk: a server error has no first-paint words.
  w.announce({ state: 'error', code: 'server_error', reason: 'http_500' });
  expect(w.events).toEqual([]);
  w.wordsArrived();
  expect(w.paint).toHaveBeenCalledOnce();
  expect(w.events).toEqual([]); // still not here: held again
});

it("fetches a language's words once, and speaks English in its stead when they cannot be had", async () => {
  const failed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const w = widget();
  w.speak('fr-FR');
  expect(w.language()).toBe('fr');
  w.announce({ state: 'error', code: 'network_error', reason: null });
  expect(w.events).toEqual([]);
  w.speak('fr-CA'); // the same dictionary: nothing fetched again
  await vi.waitFor(() => expect(w.paint).toHaveBeenCalledOnce());
  expect(failed).toHaveBeenCalledOnce();
  expect(w.events).toMatchObject([{ name: 'checkout:error', detail: { code: 'network_error' } }]);
});
