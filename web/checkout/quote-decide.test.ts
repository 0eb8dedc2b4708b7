/**
 * The sheet's changes of address, delivery option and promotion code, answered from the relay's
 * replies: the update Google is given, the quote the payment names, and the intent an error names.
 */
import { describe, expect, it } from 'vitest';
import { type Change, changeIntent, relayedChange, relayFailed, settleChange, type PaymentDataChange, type QuoteReply } from './quote-decide';

const OFFLINE = 'Impossible de joindre le serveur de paiement.';
/** The callbackIntents of the server's requests (contracts/payment-data-request.ts): delivery options; the quote endpoint with codes; codes alone. */
const OPTIONS = ['PAYMENT_AUTHORIZATION', 'SHIPPING_ADDRESS', 'SHIPPING_OPTION'];
const QUOTED = ['PAYMENT_AUTHORIZATION', 'SHIPPING_ADDRESS', 'OFFER'];
const CODES_ONLY = ['PAYMENT_AUTHORIZATION', 'OFFER'];
const change = (number: number, trigger: Change['trigger'], declared: readonly string[] = OPTIONS): Change => ({ number, trigger, declared });
const priced = (quote_id: string, totalPrice: string): QuoteReply => ({
  quote_id,
  update: { newTransactionInfo: { currencyCode: 'EUR', countryCode: 'FR', totalPriceStatus: 'FINAL', totalPrice } },
});
const unserviceable: QuoteReply = { quote_id: null, update: { error: { reason: 'SHIPPING_ADDRESS_UNSERVICEABLE', intent: 'SHIPPING_ADDRESS', message: 'We do not deliver there.' } } };

describe('settleChange', () => {
  it("answers the sheet with the relay's update as it is, and keeps the newest change's quote", () => {
    const reply = priced('qt_2', '24.90');
    expect(settleChange('qt_1', change(2, 'SHIPPING_OPTION'), 2, reply, OFFLINE)).toEqual({ update: reply.update, quoteId: 'qt_2' });
  });

  it("answers an older change with its own update, but never lets it replace the newer change's quote", () => {
    const older = priced('qt_1', '19.90');
    // Change 1's reply arrives after change 2's (which kept qt_2), or while change 2 is still on its way.
    expect(settleChange('qt_2', change(1, 'SHIPPING_ADDRESS'), 2, older, OFFLINE)).toEqual({ update: older.update, quoteId: 'qt_2' });
    expect(settleChange(undefined, change(1, 'INITIALIZE'), 2, older, OFFLINE).quoteId).toBeUndefined();
  });

  it('drops the quote when the newest change is refused (the sheet lets nobody pay until a new change is priced)', () => {
    expect(settleChange('qt_1', change(3, 'SHIPPING_ADDRESS'), 3, unserviceable, OFFLINE)).toEqual({ update: unserviceable.update, quoteId: undefined });
  });

  it("answers a failed call (no reply in time, the network, a refusal) with the widget's network error words, keeping the quote", () => {
    expect(settleChange('qt_1', change(2, 'SHIPPING_ADDRESS'), 2, undefined, OFFLINE)).toEqual({
      update: { error: { reason: 'OTHER_ERROR', intent: 'SHIPPING_ADDRESS', message: OFFLINE } },
      quoteId: 'qt_1',
    });
  });

  it('takes a reply not shaped like the relay\'s for a failed call', () => {
    for (const reply of [null, 'ok', { quote_id: 'qt_9' }, { quote_id: 7, update: {} }, { quote_id: 'qt_9', update: null }])
      expect(settleChange('qt_1', change(1, 'SHIPPING_OPTION'), 1, reply, OFFLINE)).toEqual({ update: relayFailed('SHIPPING_OPTION', OPTIONS, OFFLINE), quoteId: 'qt_1' });
  });
});

describe('the intent an error names', () => {
  it("is the change's own: the address, the option, the code", () => {
    expect(changeIntent('SHIPPING_ADDRESS', OPTIONS)).toBe('SHIPPING_ADDRESS');
    expect(changeIntent('SHIPPING_OPTION', OPTIONS)).toBe('SHIPPING_OPTION');
    expect(changeIntent('OFFER', QUOTED)).toBe('OFFER');
    expect(changeIntent('OFFER', CODES_ONLY)).toBe('OFFER');
  });

  it("at the sheet's opening, the address if the request declared it, else the option, else the code", () => {
    expect(changeIntent('INITIALIZE', OPTIONS)).toBe('SHIPPING_ADDRESS');
    expect(changeIntent('INITIALIZE', QUOTED)).toBe('SHIPPING_ADDRESS');
    expect(changeIntent('INITIALIZE', ['PAYMENT_AUTHORIZATION', 'SHIPPING_OPTION', 'OFFER'])).toBe('SHIPPING_OPTION');
    expect(changeIntent('INITIALIZE', CODES_ONLY)).toBe('OFFER');
  });

  it('is never one the request did not declare (Google refuses such an error, as the sandbox does: GP27)', () => {
    for (const declared of [OPTIONS, QUOTED, CODES_ONLY]) {
      for (const trigger of ['INITIALIZE', 'SHIPPING_ADDRESS', 'SHIPPING_OPTION', 'OFFER'] as const) {
        if (trigger !== 'INITIALIZE' && !declared.includes(trigger)) continue; // Google calls only for a declared intent
        expect(declared, `${trigger} of ${declared.join(' ')}`).toContain(changeIntent(trigger, declared));
      }
    }
    expect(settleChange(undefined, change(1, 'INITIALIZE', CODES_ONLY), 1, undefined, OFFLINE).update).toEqual({ error: { reason: 'OTHER_ERROR', intent: 'OFFER', message: OFFLINE } });
  });
});

describe('relayedChange', () => {
  it('tells the relay what prices the change, not the card Google describes beside it', () => {
    const data: PaymentDataChange = {
      callbackTrigger: 'SHIPPING_ADDRESS',
      paymentMethodData: { type: 'CARD', info: { cardNetwork: 'VISA', cardDetails: '1111' } } as PaymentDataChange['paymentMethodData'],
      shippingAddress: { countryCode: 'FR', postalCode: '75002', administrativeArea: '', locality: 'Paris' },
      shippingOptionData: { id: 'standard' },
    };
    expect(relayedChange(data)).toEqual({ callbackTrigger: 'SHIPPING_ADDRESS', shippingAddress: data.shippingAddress, shippingOptionData: { id: 'standard' } });
  });
});
