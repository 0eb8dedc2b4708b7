import { describe, expect, it } from 'vitest';
import type { DashboardPayment } from '../../contracts';
import { amountOf } from './format';

describe('amountOf', () => {
  const payment = { currency: 'USD', currency_exponent: 2 } as DashboardPayment;

  it("keeps an Arabic amount's order in the Arabic dashboard's right-to-left page and sentences: isolated, its symbol too", () => {
    const intl = new Intl.NumberFormat('ar', { style: 'currency', currency: 'USD' }).format(24);
    expect(amountOf(payment, 2400, 'ar')).toBe(`\u2067${intl.replace('US$', '\u2068US$\u2069')}\u2069`);
  });

  it('writes a left-to-right amount as Intl does', () => {
    expect(amountOf(payment, 2400, 'en-US')).toBe('$24.00');
  });
});
