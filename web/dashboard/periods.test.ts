import { describe, expect, it } from 'vitest';
import { paymentsHref, paymentsQueryOf } from './payments-query';
import { presetPeriod } from './periods';

describe("the Overview's periods", () => {
  const today = new Date(2026, 2, 9, 15, 30);
  it('end today and count today in: 1, 7 and 30 days, and the month so far', () => {
    expect(presetPeriod('today', today)).toEqual({ from: '2026-03-09', to: '2026-03-09' });
    expect(presetPeriod('last_7_days', today)).toEqual({ from: '2026-03-03', to: '2026-03-09' });
    expect(presetPeriod('last_30_days', today)).toEqual({ from: '2026-02-08', to: '2026-03-09' });
    expect(presetPeriod('this_month', today)).toEqual({ from: '2026-03-01', to: '2026-03-09' });
  });
});

describe("the payments list's hash query", () => {
  it('is written with the agreed names, empty ones left out, and read back', () => {
    const href = paymentsHref({ status: 'declined', from: '2026-03-01', to: '2026-03-09', decline_code: 'insufficient_funds' });
    expect(href).toBe('#/payments?status=declined&from=2026-03-01&to=2026-03-09&decline_code=insufficient_funds');
    expect(paymentsQueryOf(href)).toEqual({ status: 'declined', from: '2026-03-01', to: '2026-03-09', decline_code: 'insufficient_funds' });
    expect(paymentsHref({ from: '2026-03-01', to: '2026-03-09', status: '' })).toBe('#/payments?from=2026-03-01&to=2026-03-09');
    expect(paymentsQueryOf('#/payments')).toEqual({});
    expect(paymentsQueryOf('#/payments/cs_1')).toEqual({});
  });
});
