import { describe, expect, it } from 'vitest';
import type { PaymentOutcome } from '../../contracts';
import { PAID_STATUSES, SESSION_STATUSES } from '../../contracts/session-states';
import { en, enFirstPaint } from './locales/en';
import { canMove, isPaidStatus, move, WIDGET_STATES } from './states';
import type { CheckoutState } from './types';

/** The widget's moves, edge by edge, as docs/shopper-experience.md draws them: everything else is refused. */
const valid = new Set([
  ...['ready', 'unavailable', 'error', 'expired', 'confirming', 'authenticating', 'paid', 'captured', 'released', 'declined'].map((to) => `loading -> ${to}`),
  'ready -> processing',
  'ready -> error',
  'ready -> loading',
  'ready -> unavailable',
  'ready -> expired',
  ...['paid', 'authenticating', 'confirming', 'declined', 'error', 'expired', 'ready'].map((to) => `processing -> ${to}`),
  'authenticating -> processing',
  ...['paid', 'authenticating', 'declined', 'error', 'expired'].map((to) => `confirming -> ${to}`),
  'paid -> captured',
  'paid -> released',
  'declined -> ready',
  'declined -> processing',
  'declined -> error',
  'error -> loading',
  'error -> ready',
  'unavailable -> ready',
  'unavailable -> error',
  'unavailable -> loading',
]);

const states = Object.keys(WIDGET_STATES) as CheckoutState[];
const pairs = states.flatMap((from) => states.map((to) => [from, to] as const));
const paid: PaymentOutcome = { status: 'succeeded', charge_id: 'ch_1', card: { network: 'VISA', last4: '4242', auth_method: 'CRYPTOGRAM_3DS', exp_month: 12, exp_year: 2030 }, failure_code: null, failure_message: null };
const declined: PaymentOutcome = { ...paid, status: 'declined', failure_code: 'insufficient_funds', failure_message: 'The card has insufficient funds.' };
const context = { sessionId: 'cs_1', t: en, en };

describe("the widget's state machine", () => {
  it.each(pairs.filter(([from, to]) => valid.has(`${from} -> ${to}`)))('allows %s -> %s', (from, to) => {
    expect(canMove(from, to)).toBe(true);
  });

  it.each(pairs.filter(([from, to]) => !valid.has(`${from} -> ${to}`)))('refuses %s -> %s', (from, to) => {
    expect(canMove(from, to)).toBe(false);
  });

  it("words the first paint's states, and a network error, with the first script's English alone; no other state", () => {
    for (const state of states) {
      const words = WIDGET_STATES[state].words(enFirstPaint, { state, code: 'server_error', outcome: declined });
      expect(words === undefined, state).toBe(!WIDGET_STATES[state].firstPaint);
    }
    expect(WIDGET_STATES.error.words(enFirstPaint, { state: 'error', code: 'network_error' })).toBe(en.errors.network_error);
    // An event whose words are not here waits for them rather than going out without a message.
    expect(WIDGET_STATES.error.announce?.({ state: 'error', code: 'server_error', reason: null }, { sessionId: 'cs_1', t: enFirstPaint, en: enFirstPaint })).toBeUndefined();
  });

  it('keeps the current view when a move is refused', () => {
    const current = { state: 'paid', outcome: paid } as const;
    expect(move(current, { state: 'error', code: 'wallet_error' })).toBe(current);
    const next = { state: 'captured', outcome: paid } as const;
    expect(move(current, next)).toBe(next);
  });

  it('ends in captured, released and expired, with no button', () => {
    expect(states.filter((state) => WIDGET_STATES[state].to.length === 0)).toEqual(['captured', 'released', 'expired']);
    expect(states.filter((state) => WIDGET_STATES[state].button === 'removed')).toEqual(['paid', 'captured', 'released', 'expired']);
    expect(states.filter((state) => WIDGET_STATES[state].button === 'shown')).toEqual(['ready']);
  });

  it('announces success, a decline (not a reloaded one), an error and an expiry, and nothing else', () => {
    expect(WIDGET_STATES.paid.announce?.({ state: 'paid', outcome: paid }, context)).toEqual({ name: 'checkout:success', detail: { sessionId: 'cs_1', chargeId: 'ch_1', status: 'succeeded' } });
    expect(WIDGET_STATES.declined.announce?.({ state: 'declined', outcome: declined }, context)).toEqual({
      name: 'checkout:decline',
      detail: { sessionId: 'cs_1', chargeId: 'ch_1', code: 'insufficient_funds', message: 'The card has insufficient funds.' },
    });
    expect(WIDGET_STATES.declined.announce?.({ state: 'declined', outcome: declined, reloaded: true }, context)).toBeNull();
    expect(WIDGET_STATES.error.announce?.({ state: 'error', code: 'wallet_error', reason: 'DEVELOPER_ERROR' }, context)).toEqual({
      name: 'checkout:error',
      detail: { sessionId: 'cs_1', code: 'wallet_error', reason: 'DEVELOPER_ERROR', message: en.errors.wallet_error },
    });
    expect(WIDGET_STATES.expired.announce?.({ state: 'expired' }, context)?.detail).toMatchObject({ code: 'session_expired' });
    expect(states.filter((state) => WIDGET_STATES[state].announce)).toEqual(['paid', 'declined', 'error', 'expired']);
  });

  it("needs no button for the sessions the server's state table counts as paid", () => {
    expect(SESSION_STATUSES.filter(isPaidStatus)).toEqual(PAID_STATUSES);
  });
});
