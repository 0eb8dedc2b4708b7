import { describe, expect, it } from 'vitest';
import { SessionStatus } from '../../contracts';
import { REFUNDABLE_FROM } from './refunds';
import { statusesLeadingTo } from '../../contracts/session-states';
import { canTransition } from './states';

/** The diagram of docs/holds-and-3ds.md, edge by edge: everything else is refused. */
const valid = new Set([
  'open -> processing',
  'declined -> processing',
  'failed -> processing',
  'requires_authentication -> processing',
  'requires_authentication -> declined',
  'authorized -> captured',
  'authorized -> released',
  ...['open', 'declined', 'failed', 'requires_authentication'].map((from) => `${from} -> expired`),
  ...['processing', 'pending'].flatMap((from) => ['succeeded', 'authorized', 'requires_authentication', 'declined', 'failed', 'pending'].map((to) => `${from} -> ${to}`)),
]);

const pairs = SessionStatus.options.flatMap((from) => SessionStatus.options.map((to) => [from, to] as const));

describe('the session state machine', () => {
  it.each(pairs.filter(([from, to]) => valid.has(`${from} -> ${to}`)))('allows %s -> %s', (from, to) => {
    expect(canTransition(from, to)).toBe(true);
  });

  it.each(pairs.filter(([from, to]) => !valid.has(`${from} -> ${to}`)))('refuses %s -> %s', (from, to) => {
    expect(canTransition(from, to)).toBe(false);
  });

  it('ends in succeeded, captured, released and expired', () => {
    for (const status of ['succeeded', 'captured', 'released', 'expired'] as const) {
      expect(SessionStatus.options.filter((to) => canTransition(status, to))).toEqual([]);
    }
  });

  // moveSession's events show a session without refunds, read from no store: only true while this holds.
  it('never moves a session a refund can be made on', () => {
    expect(REFUNDABLE_FROM).not.toEqual([]);
    for (const status of REFUNDABLE_FROM) expect(SessionStatus.options.filter((to) => canTransition(status, to))).toEqual([]);
  });

  it('captures and releases only authorized sessions', () => {
    expect(statusesLeadingTo('captured')).toEqual(['authorized']);
    expect(statusesLeadingTo('released')).toEqual(['authorized']);
  });

  it('expires only unpaid sessions with no attempt in flight', () => {
    expect(statusesLeadingTo('expired')).toEqual(['open', 'requires_authentication', 'declined', 'failed']);
  });
});
