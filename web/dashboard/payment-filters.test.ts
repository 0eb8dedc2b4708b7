/** The Payments list's hash route: the filters other pages link with, read back as written, and the API query they make. */
import { describe, expect, it } from 'vitest';
import { apiQueryOf, filtersOfHash, hashOf, narrowed } from './payment-filters';

describe("the Payments list's hash route", () => {
  it('reads every documented filter, drops unknown and empty ones, and writes them back the same', () => {
    const hash = '#/payments?q=4242&status=partially_refunded&network=VISA&from=2026-11-01&to=2026-11-26&decline_code=insufficient_funds&abandoned=1';
    const filters = filtersOfHash(hash);
    expect(filters).toEqual({ q: '4242', status: 'partially_refunded', network: 'VISA', from: '2026-11-01', to: '2026-11-26', decline_code: 'insufficient_funds', abandoned: '1' });
    expect(hashOf(filters)).toBe(hash);
    expect(filtersOfHash('#/payments?colour=red&q=&status=%20')).toEqual({});
    expect(hashOf({})).toBe('#/payments');
    expect(filtersOfHash('#/payments?q=order%2010%26co')).toEqual({ q: 'order 10&co' });
  });

  it('tells a narrowed list from the whole one: showing abandoned checkouts narrows nothing', () => {
    expect(narrowed({})).toBe(false);
    expect(narrowed({ abandoned: '1' })).toBe(false);
    expect(narrowed({ decline_code: 'card_declined' })).toBe(true);
  });

  it("asks the API for the session's status or a derived one, whole local days, and the abandoned checkouts when an open or expired status is asked for", () => {
    const query = apiQueryOf({ q: '48.50', status: 'expired', from: '2026-11-01', to: '2026-11-01' });
    expect(query).toMatchObject({ q: '48.50', status: 'expired', abandoned: '1' });
    expect(query.payment_status).toBeUndefined();
    expect(apiQueryOf({ status: 'partially_refunded' })).toMatchObject({ payment_status: 'partially_refunded' });
    expect(query.created_lt! - query.created_gte!).toBeGreaterThanOrEqual(23 * 3600_000);
    expect(apiQueryOf({ status: 'refunded' }).abandoned).toBeUndefined();
  });
});
