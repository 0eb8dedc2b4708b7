/**
 * The mount's decisions before any click that the plain tag's early button adds (mount-decide.ts): the
 * wallet's answers before and after the session's view, and a click that waits for the view.
 */
import { describe, expect, it } from 'vitest';
import { session } from './flow-fixtures';
import { CLICK_WAIT_MS, clickWaitsFor, LOADING, opensForClick, readyView, retryView, VIEW_LATE } from './mount-decide';
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
});

describe('a click before the session’s view', () => {
  it('is shown busy, from the button', () => {
    expect(canMove('ready', LOADING.state)).toBe(true);
  });

  it('opens the sheet when the wallet has answered the session’s request, ready, within the cap', () => {
    expect(opensForClick(1_000, 1_000 + CLICK_WAIT_MS - 1, true)).toBe(true);
    expect(opensForClick(1_000, 1_000 + CLICK_WAIT_MS, true)).toBe(false);
    expect(opensForClick(1_000, 1_200, false)).toBe(false);
    expect(opensForClick(undefined, 1_200, true)).toBe(false);
  });

  it('waits within the click’s transient activation, which every engine keeps 5 s', () => {
    expect(CLICK_WAIT_MS).toBeLessThan(5_000);
  });

  it('waits only for an open session that keeps no card: one past its start is placed by the flow, one that keeps it shows its agreement first', () => {
    expect(clickWaitsFor(session('open'))).toBe(true);
    expect(clickWaitsFor(session('declined'))).toBe(false);
    expect(clickWaitsFor(session('succeeded'))).toBe(false);
    const saving = { ...session('open'), save_payment_method: { usage: 'unscheduled', setup: false, agreement: { id: 'agr_1', text: null } } } as unknown as Parameters<typeof clickWaitsFor>[0];
    expect(clickWaitsFor(saving)).toBe(false);
  });

  it('past the cap, is a network error the shopper retries by loading the session again', () => {
    expect(VIEW_LATE).toEqual({ state: 'error', code: 'network_error', reason: 'view_timeout' });
    expect(canMove(LOADING.state, VIEW_LATE.state)).toBe(true);
    expect(retryView(VIEW_LATE)).toBeNull();
  });
});
