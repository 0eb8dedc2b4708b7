/**
 * The sheet's changes of address and delivery option, answered from the relay's replies: the
 * update Google is given, and the quote the payment names.
 */
import { describe, expect, it } from 'vitest';
import { changeIntent, relayedChange, relayFailed, settleChange, type PaymentDataChange, type QuoteReply } from './quote-decide';

const OFFLINE = 'Impossible de joindre le serveur de paiement.';
const priced = (quote_id: string, totalPrice: string): QuoteReply => ({
  quote_id,
  update: { newTransactionInfo: { currencyCode: 'EUR', countryCode: 'FR', totalPriceStatus: 'FINAL', totalPrice } },
});
const unserviceable: QuoteReply = { quote_id: null, update: { error: { reason: 'SHIPPING_ADDRESS_UNSERVICEABLE', intent: 'SHIPPING_ADDRESS', message: 'We do not deliver there.' } } };

describe('settleChange', () => {
  it("answers the sheet with the relay's update as it is, and keeps the newest change's quote", () => {
    const reply = priced('qt_2', '24.90');
    expect(settleChange('qt_1', { number: 2, trigger: 'SHIPPING_OPTION' }, 2, reply, OFFLINE)).toEqual({ update: reply.update, quoteId: 'qt_2' });
  });

  it("answers an older change with its own update, but never lets it replace the newer change's quote", () => {
    const older = priced('qt_1', '19.90');
    // Change 1's reply arrives after change 2's (which kept qt_2), or while change 2 is still on its way.
    expect(settleChange('qt_2', { number: 1, trigger: 'SHIPPING_ADDRESS' }, 2, older, OFFLINE)).toEqual({ update: older.update, quoteId: 'qt_2' });
    expect(settleChange(undefined, { number: 1, trigger: 'INITIALIZE' }, 2, older, OFFLINE).quoteId).toBeUndefined();
  });

  it('drops the quote when the newest change is refused (the sheet lets nobody pay until a new change is priced)', () => {
    expect(settleChange('qt_1', { number: 3, trigger: 'SHIPPING_ADDRESS' }, 3, unserviceable, OFFLINE)).toEqual({ update: unserviceable.update, quoteId: undefined });
  });

  it("answers a failed call (no reply in time, the network, a refusal) with the widget's network error words, keeping the quote", () => {
    expect(settleChange('qt_1', { number: 2, trigger: 'SHIPPING_ADDRESS' }, 2, undefined, OFFLINE)).toEqual({
      update: { error: { reason: 'OTHER_ERROR', intent: 'SHIPPING_ADDRESS', message: OFFLINE } },
      quoteId: 'qt_1',
    });
  });

  it('takes a reply not shaped like the relay\'s for a failed call', () => {
    for (const reply of [null, 'ok', { quote_id: 'qt_9' }, { quote_id: 7, update: {} }, { quote_id: 'qt_9', update: null }])
      expect(settleChange('qt_1', { number: 1, trigger: 'SHIPPING_OPTION' }, 1, reply, OFFLINE)).toEqual({ update: relayFailed('SHIPPING_OPTION', OFFLINE), quoteId: 'qt_1' });
  });
});

describe('the intent an error names', () => {
  it("is the address for an address change, the option for an option change and for the sheet's opening", () => {
    expect(changeIntent('SHIPPING_ADDRESS')).toBe('SHIPPING_ADDRESS');
    expect(changeIntent('SHIPPING_OPTION')).toBe('SHIPPING_OPTION');
    expect(changeIntent('INITIALIZE')).toBe('SHIPPING_OPTION');
    expect(relayFailed('INITIALIZE', OFFLINE)).toEqual({ error: { reason: 'OTHER_ERROR', intent: 'SHIPPING_OPTION', message: OFFLINE } });
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
