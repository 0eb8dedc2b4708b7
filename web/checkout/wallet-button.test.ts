/**
 * The callbacks the wallet's button hands Google with each session's request: held to Google's rules
 * as the sandbox wallet holds them (contracts/google-pay-rules.ts), for every kind of session the
 * server builds a request for, and told the request's intents when the sheet changes.
 */
import { describe, expect, it, vi } from 'vitest';
import { paymentDataRequestProblem } from '../../contracts/google-pay-rules';
import { buildPaymentDataRequest, type SessionAmount } from '../../contracts/payment-data-request';
import { testApp } from '../../testing/apps';
import type { PaymentDataChange } from './quote-decide';
import { sheetCallbacks } from './wallet-button';

const SHIPPING = { countries: ['US', 'GB'], phone: false };
const OPTIONS = [{ id: 'standard', label: 'Standard', amount: 500 }];
const SESSIONS: Record<string, Omit<SessionAmount, 'id' | 'amount' | 'currency' | 'countryCode'>> = {
  'a fixed price': {},
  'a shipping address alone (the price stays the session’s)': { shipping: SHIPPING },
  'delivery options priced by the server': { shipping: { ...SHIPPING, options: OPTIONS } },
  "the merchant's quote endpoint, with an address": { shipping: SHIPPING, quotePricing: { promotion_codes: false } },
  "the merchant's quote endpoint, with options and promotion codes": { shipping: { ...SHIPPING, options: OPTIONS }, quotePricing: { promotion_codes: true } },
  'promotion codes alone, priced by the quote endpoint': { quotePricing: { promotion_codes: true } },
};

const requestFor = (session: (typeof SESSIONS)[string]) => buildPaymentDataRequest(testApp(), { id: 'cs_1', amount: 2400, currency: 'USD', countryCode: 'US', ...session }, { gatewayName: 'walletcheckout' });
const handlers = () => ({ onPaymentAuthorized: vi.fn(async () => ({ transactionState: 'SUCCESS' as const })), onPaymentDataChanged: vi.fn(async () => ({})) });

describe('the sheet’s callbacks', () => {
  it('are what Google asks for with every kind of session’s request: a change intent, OFFER included, has onPaymentDataChanged', () => {
    const refused: string[] = [];
    for (const [name, session] of Object.entries(SESSIONS)) {
      const request = requestFor(session);
      const callbacks = sheetCallbacks(request, handlers());
      const given = { onPaymentAuthorized: typeof callbacks.onPaymentAuthorized === 'function', onPaymentDataChanged: typeof callbacks.onPaymentDataChanged === 'function' };
      const problem = paymentDataRequestProblem(request, { environment: 'TEST', callbacks: given });
      if (problem) refused.push(`${name}: ${problem}`);
    }
    expect(refused).toEqual([]);
  });

  it('leave out onPaymentDataChanged where the request declares no change, so the sheet cannot move the price', () => {
    expect(sheetCallbacks(requestFor(SESSIONS['a fixed price']!), handlers()).onPaymentDataChanged).toBeUndefined();
    expect(sheetCallbacks(requestFor(SESSIONS['a shipping address alone (the price stays the session’s)']!), handlers()).onPaymentDataChanged).toBeUndefined();
  });

  it("tell the widget of a change with the request's intents, which its errors must name one of", async () => {
    const request = requestFor(SESSIONS['promotion codes alone, priced by the quote endpoint']!);
    const on = handlers();
    const change = { callbackTrigger: 'INITIALIZE' } as PaymentDataChange;
    await sheetCallbacks(request, on).onPaymentDataChanged!(change);
    expect(on.onPaymentDataChanged).toHaveBeenCalledWith(change, ['PAYMENT_AUTHORIZATION', 'OFFER']);
  });
});
