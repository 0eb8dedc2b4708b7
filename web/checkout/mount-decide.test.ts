/**
 * The mount's decisions that the plain tag's button before its view adds (mount-decide.ts): the
 * wallet's answers before and after the session's view, and a click that waits for the view.
 */
import { describe, expect, it } from 'vitest';
import { CLICK_WAIT_MS, lateView, LOADING, NETWORK_ERROR, readyView, retryView } from './mount-decide';
import { canMove } from './states';

describe('the wallet’s answers', () => {
  it('show the button drawn before the view, and take it back when the session’s own request cannot be paid', () => {
    expect(readyView(LOADING, true)).toEqual({ state: 'ready' });
    expect(readyView(LOADING, false)).toEqual({ state: 'unavailable' });
    // The session's own answer, once its view is here, the button already up:
    expect(readyView({ state: 'ready' }, true)).toBeUndefined();
    const unavailable = readyView({ state: 'ready' }, false);
    expect(unavailable).toEqual({ state: 'unavailable' });
    expect(canMove('ready', unavailable!.state)).toBe(true);
    // Before the view the wallet could not pay the product's method; the session's it can:
    expect(readyView({ state: 'unavailable' }, true)).toEqual({ state: 'ready' });
  });

  it('after a click that waits, show the button again, which opens the sheet, or take it away', () => {
    const waiting = { ...LOADING };
    expect(canMove('ready', waiting.state)).toBe(true);
    expect(readyView(waiting, true)).toEqual({ state: 'ready' });
    expect(readyView(waiting, false)).toEqual({ state: 'unavailable' });
  });
});

describe('a click before the session’s view', () => {
  it('waits within the click’s transient activation, which every engine keeps 5 s, less time for the sheet to open', () => {
    expect(CLICK_WAIT_MS).toBeLessThanOrEqual(4_000);
  });

  it('ends, the view still not here, in a network error the shopper retries by loading the session again', () => {
    const waiting = { ...LOADING };
    expect(lateView(waiting, waiting, false)).toBe(NETWORK_ERROR);
    expect(NETWORK_ERROR).toEqual({ state: 'error', code: 'network_error', reason: null });
    expect(canMove(waiting.state, NETWORK_ERROR.state)).toBe(true);
    expect(retryView(NETWORK_ERROR)).toBeNull();
  });

  it('leaves the widget be once the view arrived (the flow places a session past its start; an agreement comes first), or once anything moved it', () => {
    const waiting = { ...LOADING };
    expect(lateView(waiting, waiting, true)).toBeUndefined();
    expect(lateView({ state: 'ready' }, waiting, false)).toBeUndefined();
    // A load started since ("Try again") shows loading too, but not this wait.
    expect(lateView({ ...LOADING }, waiting, false)).toBeUndefined();
  });
});
