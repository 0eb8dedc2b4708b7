/**
 * What follows a click, step by step (flow-decide.ts): the view the shopper is moved to and the
 * effects asked for, for a payment, a decline and another try, 3-D Secure, an expired session and
 * an outage. The same paths the e2e specs walk in a browser (checkout, holds-and-3ds, reliability,
 * three-ds-expiry).
 */
import { describe, expect, it } from 'vitest';
import type { PaymentData } from '../../contracts';
import { CheckoutApiError } from './api';
import { en } from './locales/en';
import { fr } from './locales/fr';
import { CHALLENGE, flowAt, outcome, PAGE, refused, session } from './flow-fixtures';
import { readyView, retryView } from './mount-decide';
import { sheetResult } from './outcome-view';
import { ABANDON_CHALLENGE, ANNOUNCE_CANCEL, ANSWERED, AUTHENTICATE, AUTHORIZED, CALL_FAILED, CHALLENGE_BLOCKED, CHALLENGE_DONE, CHALLENGE_UNAVAILABLE, CHECKED, FOCUS, PAY, PAY_FAILED, SHEET_CANCELLED, SHEET_RETURNED, WARN } from './flow-events';

const data = { apiVersion: 2 } as unknown as PaymentData;

describe('a payment', () => {
  it('is sent when the sheet authorizes it, and paid', () => {
    const flow = flowAt({ state: 'ready' });
    expect(flow.send({ on: AUTHORIZED, data }).effects).toEqual([{ run: PAY, data }]);
    expect(flow.view.state).toBe('processing');
    const paid = outcome('succeeded');
    expect(flow.send({ on: ANSWERED, outcome: paid, session: session('succeeded', paid) })).toMatchObject({ session: { status: 'succeeded' }, effects: [] });
    expect(flow.view).toEqual({ state: 'paid', outcome: paid });
    expect(sheetResult({ outcome: paid }, en)).toEqual({ transactionState: 'SUCCESS' });
    // The sheet's own return after it decided: no second payment.
    expect(flow.send({ on: SHEET_RETURNED, data }).effects).toEqual([]);
  });

  it('is sent when the sheet returns, from a wallet that has no authorization callback', () => {
    const flow = flowAt({ state: 'ready' });
    expect(flow.send({ on: SHEET_RETURNED, data }).effects).toEqual([{ run: PAY, data }]);
    expect(flow.view.state).toBe('processing');
  });

  it('is declined, the sheet says why, and "Try again" brings the button back with the focus', () => {
    const flow = flowAt({ state: 'ready' });
    flow.send({ on: AUTHORIZED, data });
    const declined = outcome('declined');
    flow.send({ on: ANSWERED, outcome: declined, session: session('open', declined) });
    expect(flow.view).toEqual({ state: 'declined', outcome: declined, reloaded: false });
    expect(sheetResult({ outcome: declined }, en)).toMatchObject({ transactionState: 'ERROR', error: { reason: 'PAYMENT_DATA_INVALID' } });
    expect(sheetResult({ outcome: declined }, en).error?.message).toBeTruthy();
    // Decided in the sheet: the page keeps its focus where it was.
    expect(flow.shown({ state: 'processing' }).effects).toEqual([]);
    // The shopper closes the sheet: "Try again" takes the focus from the hidden wallet button.
    expect(flow.send({ on: SHEET_CANCELLED }).effects).toEqual([{ run: FOCUS, selector: '.retry' }, { run: ANNOUNCE_CANCEL }]);
    const back = retryView(flow.view);
    expect(back).toEqual({ state: 'ready' });
    expect(flowAt(back!).shown(flow.view).effects).toEqual([{ run: FOCUS, selector: '.wallet button' }]);
  });

  it('is tried again with another card in the sheet that showed the decline', () => {
    const flow = flowAt({ state: 'declined', outcome: outcome('declined') });
    expect(flow.send({ on: AUTHORIZED, data }).effects).toEqual([{ run: PAY, data }]);
    expect(flow.view.state).toBe('processing');
  });

  it('moves "Try again" to the retry button after a decline on the page', () => {
    const flow = flowAt({ state: 'ready' });
    flow.send({ on: SHEET_RETURNED, data });
    flow.send({ on: ANSWERED, outcome: outcome('declined'), session: session('open') });
    expect(flow.shown({ state: 'processing' }).effects).toEqual([{ run: FOCUS, selector: '.retry' }]);
  });

  it('is not sent twice, nor outside the button', () => {
    expect(flowAt({ state: 'processing' }).send({ on: AUTHORIZED, data }).effects).toEqual([]);
    expect(flowAt({ state: 'paid', outcome: outcome('succeeded') }).send({ on: SHEET_RETURNED, data }).effects).toEqual([]);
  });

  it('is given up when the shopper closes the sheet: the button again, and checkout:cancel', () => {
    const flow = flowAt({ state: 'processing' });
    expect(flow.send({ on: SHEET_CANCELLED }).effects).toEqual([{ run: ANNOUNCE_CANCEL }]);
    expect(flow.view.state).toBe('ready');
  });

  it('already under way in another tab is confirmed, not reported as an error', () => {
    for (const code of ['payment_in_progress', 'session_completed']) {
      const flow = flowAt({ state: 'processing' });
      flow.send({ on: PAY_FAILED, error: refused(409, code) });
      expect(flow.view.state).toBe('confirming');
    }
  });

  it('refused by the payment service shows that nothing was charged', () => {
    const flow = flowAt({ state: 'processing' });
    flow.send({ on: ANSWERED, outcome: outcome('failed', { failure_code: 'processing_error' }), session: session('open') });
    expect(flow.view).toEqual({ state: 'error', code: 'payment_failed', reason: 'processing_error' });
  });
});

describe('a payment refused for what the shopper can change in the sheet (nothing charged)', () => {
  const unserviceable = new CheckoutApiError(422, 'shipping_address_unserviceable', 'We do not deliver to PO boxes');
  const mismatch = refused(409, 'quote_mismatch');
  const unavailable = refused(503, 'quote_unavailable');

  it("shows the merchant's refusal of the full address on the address, in the merchant's words", () => {
    expect(sheetResult({ error: unserviceable }, fr)).toEqual({
      transactionState: 'ERROR',
      error: { reason: 'SHIPPING_ADDRESS_UNSERVICEABLE', intent: 'SHIPPING_ADDRESS', message: 'We do not deliver to PO boxes' },
    });
  });

  it("asks the shopper to review the order, in the widget's language, when the quote no longer holds or could not be confirmed", () => {
    for (const error of [mismatch, unavailable]) {
      expect(sheetResult({ error }, fr)).toEqual({ transactionState: 'ERROR', error: { reason: 'OTHER_ERROR', intent: 'PAYMENT_AUTHORIZATION', message: fr.reviewOrder } });
      // English until the widget's dictionary is here.
      expect(sheetResult({ error }, undefined).error?.message).toBe(en.reviewOrder);
    }
  });

  it('leaves the widget ready under the open sheet, so that the next authorization (a new quote, another address) pays', () => {
    for (const error of [unserviceable, mismatch, unavailable]) {
      const flow = flowAt({ state: 'ready' });
      flow.send({ on: AUTHORIZED, data });
      expect(flow.send({ on: PAY_FAILED, error }).effects).toEqual([]);
      expect(flow.view).toEqual({ state: 'ready' });
      // Nothing for the page to focus or announce: the sheet says it.
      expect(flow.shown({ state: 'processing' }).effects).toEqual([]);
      expect(flow.send({ on: AUTHORIZED, data }).effects).toEqual([{ run: PAY, data }]);
      const paid = outcome('succeeded');
      flow.send({ on: ANSWERED, outcome: paid, session: session('succeeded', paid) });
      expect(flow.view.state).toBe('paid');
      expect(flow.send({ on: SHEET_RETURNED, data }).effects).toEqual([]);
    }
  });

  it('is shown on the page, as any refusal, by a wallet without the authorization callback (no sheet to show it in)', () => {
    const flow = flowAt({ state: 'ready' });
    flow.send({ on: SHEET_RETURNED, data });
    flow.send({ on: PAY_FAILED, error: mismatch });
    expect(flow.view).toEqual({ state: 'error', code: 'payment_failed', reason: 'quote_mismatch' });
  });

  it('closes the sheet for any other refusal, shown on the page', () => {
    for (const error of [refused(400, 'shipping_country_not_allowed'), refused(500, 'http_500'), refused(0, 'network_error')]) {
      expect(sheetResult({ error }, fr)).toEqual({ transactionState: 'SUCCESS' });
      const flow = flowAt({ state: 'ready' });
      flow.send({ on: AUTHORIZED, data });
      flow.send({ on: PAY_FAILED, error });
      expect(flow.view.state).toBe('error');
    }
  });
});

describe('3-D Secure', () => {
  const challenge = outcome('requires_authentication', { challenge_url: CHALLENGE });
  const challenged = () => {
    const flow = flowAt({ state: 'processing' });
    flow.send({ on: ANSWERED, outcome: challenge, session: session('processing', challenge) });
    return flow;
  };

  it('opens the challenge, then pays once the bank is done', () => {
    const flow = challenged();
    expect(flow.view).toEqual({ state: 'authenticating', outcome: challenge });
    expect(flow.send({ on: CHALLENGE_DONE, cancel: false }).effects).toEqual([{ run: AUTHENTICATE, cancel: false }]);
    expect(flow.view.state).toBe('processing');
    flow.send({ on: ANSWERED, outcome: outcome('succeeded'), session: session('succeeded') });
    expect(flow.view.state).toBe('paid');
  });

  it('declines when the bank refuses the shopper, and cancels when the shopper closes the challenge', () => {
    const failed = challenged();
    failed.send({ on: CHALLENGE_DONE, cancel: false });
    failed.send({ on: ANSWERED, outcome: outcome('declined', { failure_code: 'authentication_failed' }), session: session('open') });
    expect(failed.view).toMatchObject({ state: 'declined', outcome: { failure_code: 'authentication_failed' } });
    expect(challenged().send({ on: CHALLENGE_DONE, cancel: true }).effects).toEqual([{ run: AUTHENTICATE, cancel: true }]);
  });

  it('is confirmed without a challenge to show (a frictionless one under way)', () => {
    const flow = flowAt({ state: 'processing' });
    flow.send({ on: ANSWERED, outcome: outcome('requires_authentication'), session: session('processing') });
    expect(flow.view.state).toBe('confirming');
  });

  it('never frames a challenge page that is not one', () => {
    const flow = flowAt({ state: 'processing' });
    flow.send({ on: ANSWERED, outcome: outcome('requires_authentication', { challenge_url: 'javascript:alert(1)' }), session: session('processing') });
    expect(flow.view).toEqual({ state: 'error', code: 'server_error', reason: 'challenge_url_refused' });
  });

  it("blocked by the page's CSP is cancelled at once, the merchant told what to allow", () => {
    const flow = challenged();
    const { effects } = flow.send({ on: CHALLENGE_BLOCKED, origin: 'https://bank.example' });
    expect(flow.view.state).toBe('processing');
    expect(effects).toEqual([
      { run: WARN, message: expect.stringContaining('frame-src') },
      { run: ABANDON_CHALLENGE, then: { state: 'error', code: 'challenge_blocked', reason: 'https://bank.example' } },
    ]);
    // "Try again" after it returns to the button: the session is payable again, the wallet loaded.
    expect(retryView({ state: 'error', code: 'challenge_blocked', reason: 'https://bank.example' })).toEqual({ state: 'ready' });
  });

  it("whose dialog's code cannot be had is cancelled as a network error", () => {
    expect(challenged().send({ on: CHALLENGE_UNAVAILABLE }).effects).toEqual([
      { run: ABANDON_CHALLENGE, then: { state: 'error', code: 'network_error', reason: 'challenge_unavailable' } },
    ]);
  });

  it('ends nothing once the challenge is no longer shown', () => {
    expect(flowAt({ state: 'processing' }).send({ on: CHALLENGE_DONE, cancel: false }).effects).toEqual([]);
    expect(flowAt({ state: 'processing' }).send({ on: CHALLENGE_UNAVAILABLE }).effects).toEqual([]);
  });
});

describe('an expired session and an outage', () => {
  it('shows a session whose time ran out as expired, at the payment, at the challenge and while confirming', () => {
    for (const view of [{ state: 'processing' }, { state: 'confirming' }] as const) {
      const flow = flowAt(view);
      flow.send(view.state === 'confirming' ? { on: CHECKED, what: 'poll', error: refused(410, 'session_expired') } : { on: PAY_FAILED, error: refused(410, 'session_expired') });
      expect(flow.view).toEqual({ state: 'expired' });
    }
    expect(flowAt({ state: 'loading' }).send({ on: CALL_FAILED, error: refused(410, 'session_expired'), otherwise: 'server_error' }).view).toEqual({ state: 'expired' });
  });

  it('tells an unreachable backend, a server error and the store outage apart', () => {
    const failing = (error: unknown) => flowAt({ state: 'processing' }).send({ on: PAY_FAILED, error }).view;
    expect(failing(refused(0, 'network_error'))).toEqual({ state: 'error', code: 'network_error', reason: null });
    expect(failing(new TypeError('Failed to fetch'))).toEqual({ state: 'error', code: 'network_error', reason: null });
    expect(failing(refused(502, 'http_502'))).toEqual({ state: 'error', code: 'server_error', reason: 'http_502' });
    expect(failing(refused(503, 'store_unavailable'))).toEqual({ state: 'error', code: 'store_unavailable', reason: 'store_unavailable' });
  });

  it("names the refused origin to the merchant's console", () => {
    const { view, effects } = flowAt({ state: 'loading' }).send({ on: CALL_FAILED, error: refused(403, 'origin_not_allowed'), otherwise: 'server_error' });
    expect(view).toMatchObject({ state: 'error', code: 'origin_not_allowed' });
    expect(effects).toEqual([{ run: WARN, message: expect.stringContaining(PAGE) }]);
  });

});

describe("the wallet's readiness", () => {
  it('shows the wallet unavailable when it cannot pay, and the button when it can', () => {
    expect(readyView({ state: 'loading' }, false)).toEqual({ state: 'unavailable' });
    expect(readyView({ state: 'unavailable' }, true)).toEqual({ state: 'ready' });
    // A reloaded decline keeps "Try again" rather than jumping to the button.
    expect(readyView({ state: 'declined', outcome: outcome('declined'), reloaded: true }, true)).toBeUndefined();
  });
});
