/**
 * A session row's stored outcome as the views read it: parsed once per row, so that a payment's event
 * and its reply, both made from the row as the payment moved it, share one parse; every other row,
 * a copy with another outcome among them, is read for itself.
 */
import { describe, expect, it } from 'vitest';
import type { PaymentOutcome } from '../../contracts';
import type { SessionRow } from '../store/sessions';
import { outcomeOf } from './sessions';

const paid: PaymentOutcome = { status: 'succeeded', charge_id: 'ch_1', card: { network: 'VISA', last4: '4242', auth_method: 'CRYPTOGRAM_3DS', exp_month: 12, exp_year: 2030 }, failure_code: null, failure_message: null };
const rowWith = (outcome: unknown) => ({ id: 'cs_1', outcome: outcome === null ? null : JSON.stringify(outcome) }) as SessionRow;

describe("a session row's outcome", () => {
  it('is parsed once per row: a second read of the same row is the same outcome', () => {
    const row = rowWith(paid);
    const first = outcomeOf(row);
    expect(first).toEqual(paid);
    expect(outcomeOf(row)).toBe(first);
  });

  it('is read for itself in every other row, a copy with another outcome among them', () => {
    const row = rowWith(paid);
    outcomeOf(row);
    const declined = { ...row, outcome: JSON.stringify({ ...paid, status: 'declined', charge_id: null, failure_code: 'card_declined', failure_message: 'Declined' }) };
    expect(outcomeOf(declined)).toMatchObject({ status: 'declined', failure_code: 'card_declined' });
    expect(outcomeOf(rowWith(null))).toBeNull();
  });

  it('refuses a stored outcome that breaks its schema, every time it is read', () => {
    const row = rowWith({ ...paid, status: 'refunded-twice' });
    expect(() => outcomeOf(row)).toThrow();
    expect(() => outcomeOf(row)).toThrow();
  });
});
