/**
 * The session checked again and again (flow-decide.ts): polling while a payment is confirmed,
 * watching a hold until the merchant captures or releases it, a reload that finds the session
 * past its start, and the page's handed-over view checked against the backend's (mount-decide.ts).
 */
import { describe, expect, it } from 'vitest';
import { checksCarried, isStale } from './mount-decide';
import { flowAt, outcome, refused, session } from './flow-fixtures';
import { ANSWERED, CHECKED, CHECK_AGAIN, RESUMED, UNWATCH, WATCH } from './flow-events';

describe('confirming', () => {
  it('polls while the outcome is unknown, and stops at the outcome', () => {
    const flow = flowAt({ state: 'processing' });
    flow.send({ on: ANSWERED, outcome: outcome('pending'), session: session('pending') });
    expect(flow.view.state).toBe('confirming');
    expect(flow.shown({ state: 'processing' }).effects).toEqual([{ run: WATCH, what: 'poll' }]);
    expect(flow.send({ on: CHECKED, what: 'poll', session: session('processing') })).toEqual({ session: session('processing'), effects: [{ run: CHECK_AGAIN }] });
    // A failed check is transient: polling goes on.
    expect(flow.send({ on: CHECKED, what: 'poll', error: refused(0, 'network_error') }).effects).toEqual([{ run: CHECK_AGAIN }]);
    expect(flow.send({ on: CHECKED, what: 'poll', error: refused(503, 'store_unavailable') }).effects).toEqual([{ run: CHECK_AGAIN }]);
    const paid = outcome('succeeded');
    expect(flow.send({ on: CHECKED, what: 'poll', session: session('succeeded', paid) }).effects).toEqual([]);
    expect(flow.view).toEqual({ state: 'paid', outcome: paid });
    expect(flow.shown({ state: 'confirming' }).effects).toEqual([{ run: UNWATCH, what: 'poll' }]);
  });

  it('finds a payment that did not happen, a challenge to show, and a session gone', () => {
    const confirming = () => flowAt({ state: 'confirming' });
    const reopened = confirming();
    reopened.send({ on: CHECKED, what: 'poll', session: session('open') });
    expect(reopened.view).toEqual({ state: 'error', code: 'payment_not_completed', reason: null });
    const challenged = confirming();
    challenged.send({ on: CHECKED, what: 'poll', session: session('requires_authentication', outcome('requires_authentication', { challenge_url: 'https://bank.example/3ds' })) });
    expect(challenged.view.state).toBe('authenticating');
    const gone = confirming();
    expect(gone.send({ on: CHECKED, what: 'poll', error: refused(404, 'session_not_found') }).effects).toEqual([]);
    expect(gone.view).toMatchObject({ state: 'error', code: 'session_not_found' });
  });
});

describe('a hold', () => {
  const hold = outcome('authorized');

  it('is watched once placed, and shown captured or released when the merchant has done so', () => {
    for (const settled of ['captured', 'released'] as const) {
      const flow = flowAt({ state: 'processing' });
      flow.send({ on: ANSWERED, outcome: hold, session: session('authorized', hold) });
      expect(flow.shown({ state: 'processing' }).effects).toEqual([{ run: WATCH, what: 'hold' }]);
      expect(flow.send({ on: CHECKED, what: 'hold', session: session('authorized', hold) })).toEqual({ effects: [{ run: CHECK_AGAIN }] });
      expect(flow.send({ on: CHECKED, what: 'hold', session: session(settled, hold) })).toMatchObject({ session: { status: settled }, effects: [] });
      expect(flow.view).toEqual({ state: settled, outcome: hold });
      expect(flow.shown({ state: 'paid', outcome: hold }).effects).toEqual([{ run: UNWATCH, what: 'hold' }]);
    }
  });

  it('stands whatever a failed check says, and stops being checked once the session is gone or refused', () => {
    const flow = flowAt({ state: 'paid', outcome: hold });
    expect(flow.send({ on: CHECKED, what: 'hold', error: refused(500, 'http_500') }).effects).toEqual([{ run: CHECK_AGAIN }]);
    expect(flow.send({ on: CHECKED, what: 'hold', error: refused(404, 'session_not_found') }).effects).toEqual([]);
    expect(flow.view.state).toBe('paid');
  });

  it('is not watched for a charge', () => {
    const flow = flowAt({ state: 'processing' });
    flow.send({ on: ANSWERED, outcome: outcome('succeeded'), session: session('succeeded') });
    expect(flow.shown({ state: 'processing' }).effects).toEqual([]);
  });
});

describe('a reload after an attempt', () => {
  const resumed = (...args: Parameters<typeof session>) => {
    const flow = flowAt({ state: 'loading' });
    expect(flow.send({ on: RESUMED, session: session(...args) }).effects).toEqual([]);
    return flow.view;
  };

  it('finds the session where the attempt left it', () => {
    expect(resumed('processing').state).toBe('confirming');
    expect(resumed('pending', outcome('pending')).state).toBe('confirming');
    expect(resumed('succeeded', outcome('succeeded'))).toEqual({ state: 'paid', outcome: outcome('succeeded') });
    expect(resumed('captured', outcome('authorized'))).toEqual({ state: 'captured', outcome: outcome('authorized') });
    expect(resumed('requires_authentication', outcome('requires_authentication', { challenge_url: 'https://bank.example/3ds' })).state).toBe('authenticating');
  });

  it('keeps a decline with "Try again", not announced again, and leaves a failed attempt payable', () => {
    expect(resumed('declined', outcome('declined'))).toEqual({ state: 'declined', outcome: outcome('declined'), reloaded: true });
    expect(resumed('failed', outcome('failed')).state).toBe('loading');
  });
});

describe("the page's handed-over view", () => {
  it('is checked once, when the button is up', () => {
    expect(checksCarried({ state: 'loading' }, 'open', false)).toBe(false);
    expect(checksCarried({ state: 'ready' }, 'open', false)).toBe(true);
    expect(checksCarried({ state: 'unavailable' }, 'open', false)).toBe(true);
    expect(checksCarried({ state: 'ready' }, 'open', true)).toBe(false);
    expect(checksCarried({ state: 'ready' }, null, false)).toBe(false);
  });

  it("is replaced by the backend's when the session moved on, and kept when it did not or the backend cannot say", () => {
    const ready = { state: 'ready' } as const;
    expect(isStale(ready, 'open', { status: 'succeeded' })).toBe(true);
    expect(isStale(ready, 'open', { status: 'expired' })).toBe(true);
    expect(isStale(ready, 'open', { error: refused(410, 'session_expired') })).toBe(true);
    expect(isStale(ready, 'open', { status: 'open' })).toBe(false);
    expect(isStale(ready, 'open', { error: refused(0, 'network_error') })).toBe(false);
    // A shopper who paid meanwhile needs no check: the payment's answer says all the view would have.
    expect(isStale({ state: 'processing' }, 'open', { status: 'succeeded' })).toBe(false);
  });
});
