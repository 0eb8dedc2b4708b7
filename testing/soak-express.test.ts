/**
 * The express soak's audits can fail: a charge that is not its session's quote total, a quote charged at a total the
 * merchant never priced or that no payment named, an earlier attempt at a price no quote had, are each named; the
 * ledger audit takes the latest attempt's amount from `amount_charged`, and leaves a quoted session's earlier
 * attempts to the quote audit. The soak itself, short, runs in server/store/store-outage.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Charge, Session } from '../contracts';
import type { LedgerEntry } from '../sandbox';
import { auditLedger } from './child-server';
import { auditQuotedCharges } from './soak-express';

const quote = { id: 'qt_latest', shipping_option: { id: 'air', label: 'Air', amount: 1500 }, tax: 174, promotion_codes: [], total: 4074, created: 1 };

/** A quoted session as the merchant's view shows it once its `attempts`-th attempt succeeded at `quote`. */
const quotedSession = (attempts = 1, overrides: Partial<Session> = {}): Session =>
  ({ id: 'cs_1', status: 'succeeded', amount: 2400, currency: 'USD', attempts, amount_charged: quote.total, quote_endpoint: true, shipping: null, quote, outcome: { charge_id: `ch_${attempts}` }, refunds: [], ...overrides }) as unknown as Session;

const charge = (attemptNo: number, amount: number, status: Charge['status'] = 'succeeded'): LedgerEntry =>
  ({ operation: 'charge', merchant_account: 'soak', idempotency_key: `cs_1:attempt:${attemptNo}`, charge: { id: `ch_${attemptNo}`, status, amount, currency: 'usd' } }) as LedgerEntry;

const priced = (totals: Record<string, number>, paid: string[]) => ({ totals: new Map(Object.entries(totals)), paidWith: new Map([['cs_1', new Set(paid)]]) });

describe("the express soak's quote audit", () => {
  it('passes a charge of the quote the payment named, at the total the merchant priced', () => {
    expect(auditQuotedCharges([quotedSession()], [charge(1, 4074)], priced({ qt_latest: 4074 }, ['qt_latest']))).toEqual({ charges: 1, offQuote: [] });
  });

  it('names a charge that is not its quote total, a quote total the merchant never priced, and a quote no payment named', () => {
    const [offTotal] = auditQuotedCharges([quotedSession()], [charge(1, 4000)], priced({ qt_latest: 4074 }, ['qt_latest'])).offQuote;
    expect(offTotal).toContain('charged 4000');
    const [notPriced] = auditQuotedCharges([quotedSession()], [charge(1, 4074)], priced({ qt_latest: 3900 }, ['qt_latest'])).offQuote;
    expect(notPriced).toContain('the merchant priced it at 3900');
    const [notNamed] = auditQuotedCharges([quotedSession()], [charge(1, 4074)], priced({ qt_latest: 4074, qt_older: 2900 }, ['qt_older'])).offQuote;
    expect(notNamed).toContain('no payment named it');
    const [noQuote] = auditQuotedCharges([quotedSession(1, { quote: null })], [charge(1, 4074)], priced({}, [])).offQuote;
    expect(noQuote).toContain('names no quote');
  });

  it("holds an earlier attempt to the total of a quote its shopper paid with, as the session's view keeps only the latest", () => {
    const ledger = [charge(1, 2900, 'failed'), charge(2, 4074)];
    expect(auditQuotedCharges([quotedSession(2)], ledger, priced({ qt_older: 2900, qt_latest: 4074 }, ['qt_older', 'qt_latest'])).offQuote).toEqual([]);
    const [line] = auditQuotedCharges([quotedSession(2)], [charge(1, 3100, 'failed'), charge(2, 4074)], priced({ qt_older: 2900, qt_latest: 4074 }, ['qt_older', 'qt_latest'])).offQuote;
    expect(line).toContain('attempt 1 of cs_1 charged 3100');
  });
});

describe('the ledger audit of quoted sessions', () => {
  it("takes the latest attempt's amount from amount_charged, and names a charge that is not it", () => {
    expect(auditLedger([quotedSession()], [charge(1, 4074)]).mismatched).toEqual([]);
    expect(auditLedger([quotedSession()], [charge(1, 2400)]).mismatched).toEqual(['ch_1: 2400 usd, attempt 1 of session cs_1 charged 4074 USD']);
  });

  it("leaves a quoted session's earlier attempts to the quote audit, and holds a plain session's to its amount", () => {
    expect(auditLedger([quotedSession(2)], [charge(1, 2900, 'failed'), charge(2, 4074)]).mismatched).toEqual([]);
    const plain = quotedSession(2, { quote_endpoint: false, quote: null, amount_charged: 2400 });
    expect(auditLedger([plain], [charge(1, 2900, 'failed'), charge(2, 2400)]).mismatched).toEqual(['ch_1: 2900 usd, attempt 1 of session cs_1 charged 2400 USD']);
  });
});
