/**
 * The express checkout sheet's core, without a browser: what Google's sheet shows for a request,
 * what it tells onPaymentDataChanged and when, and what the merchant's reply makes of the sheet.
 */
import { describe, expect, it } from 'vitest';
import type { WalletShippingAddress } from '../../contracts';
import { walletShippingAddresses } from '../shipping-addresses';
import { authorizationRefused, change, type Change, errorPart, type ExpressModel, type ExpressRequest, expressChoices, expressModel, mayPay, MERCHANT_FAILED, redactedAddress, settle } from './express';

const request = (extra: Partial<ExpressRequest> = {}): ExpressRequest => ({
  callbackIntents: ['SHIPPING_ADDRESS', 'SHIPPING_OPTION', 'OFFER', 'PAYMENT_AUTHORIZATION'],
  transactionInfo: {
    currencyCode: 'USD',
    totalPriceStatus: 'ESTIMATED',
    totalPrice: '20.00',
    totalPriceLabel: 'Total',
    displayItems: [{ label: 'Mug', type: 'LINE_ITEM', price: '20.00' }],
  },
  shippingAddressRequired: true,
  shippingAddressParameters: { allowedCountryCodes: ['US', 'GB', 'CA', 'AU'] },
  shippingOptionRequired: true,
  shippingOptionParameters: { shippingOptions: [{ id: 'std', label: 'Standard' }, { id: 'fast', label: 'Express' }], defaultSelectedOptionId: 'fast' },
  offerInfo: { offers: [{ redemptionCode: 'WELCOME', description: '5% off your first order' }] },
  ...extra,
});
const card = { cardNetwork: 'VISA', cardDetails: '1111' };
const opened = (r = request()) => expressModel(r, walletShippingAddresses);
const changed = (model: ExpressModel, what: Change, r = request()) => change(model, r, what, card);
const apply = (model: ExpressModel, number: number, update: unknown, r = request(), trigger: Change['trigger'] = 'SHIPPING_ADDRESS') => {
  const settled = settle(model, r, number, trigger, { update });
  if ('problem' in settled) throw new Error(settled.problem);
  return settled.model;
};

describe('the sheet as it opens', () => {
  it('offers the addresses of the allowed countries only, the first chosen, and the default option', () => {
    const model = opened();
    expect(model.addresses.map((choice) => choice.address.countryCode)).toEqual(['US', 'GB', 'CA', 'AU']);
    expect(model.addressId).toBe('us-home');
    expect(model.optionId).toBe('fast');
    expect(model.offers.map((offer) => offer.redemptionCode)).toEqual(['WELCOME']);
    expect(model.transaction).toMatchObject({ totalPrice: '20.00', totalPriceLabel: 'Total' });
  });

  it('offers every address when the request names no country, none when it asks for no address, and the first option without a default', () => {
    expect(opened(request({ shippingAddressParameters: undefined })).addresses).toHaveLength(walletShippingAddresses.length);
    expect(opened(request({ shippingAddressRequired: false })).addresses).toEqual([]);
    expect(opened(request({ shippingOptionParameters: { shippingOptions: [{ id: 'std', label: 'Standard' }] } })).optionId).toBe('std');
  });

  it('calls the merchant with INITIALIZE, the redacted address, the option and the applied codes, and waits for it before Pay', () => {
    const { model, data } = changed(opened(), { trigger: 'INITIALIZE' });
    expect(data).toEqual({
      callbackTrigger: 'INITIALIZE',
      paymentMethodData: { type: 'CARD', info: card },
      shippingAddress: { countryCode: 'US', administrativeArea: 'CA', locality: 'San Francisco', postalCode: '94105' },
      shippingOptionData: { id: 'fast' },
      offerData: { redemptionCodes: ['WELCOME'] },
    });
    expect(mayPay(opened(), request())).toBe(true);
    expect(mayPay(model, request())).toBe(false);
    expect(mayPay(apply(model, model.changes, {}), request())).toBe(true);
  });

  it('calls nobody for a request that declared none of the change intents', () => {
    const plain = request({ callbackIntents: ['PAYMENT_AUTHORIZATION'] });
    const { model, data } = changed(opened(plain), { trigger: 'INITIALIZE' }, plain);
    expect(data).toBeUndefined();
    expect(mayPay(model, plain)).toBe(true);
  });
});

describe('the address the merchant sees before the shopper pays', () => {
  const byId = (id: string) => (walletShippingAddresses.find((choice) => choice.id === id) as WalletShippingAddress).address;

  it('is the country, area, locality and a postal code shortened as Google shortens it: never the name, street or phone', () => {
    expect(redactedAddress(byId('gb-office'))).toEqual({ countryCode: 'GB', administrativeArea: '', locality: 'London', postalCode: 'SW1' });
    expect(redactedAddress(byId('ca-home'))).toEqual({ countryCode: 'CA', administrativeArea: 'ON', locality: 'Toronto', postalCode: 'M5V' });
    expect(redactedAddress(byId('us-home')).postalCode).toBe('94105');
    expect(redactedAddress(byId('au-remote')).postalCode).toBe('0870');
    for (const { address } of walletShippingAddresses) expect(JSON.stringify(redactedAddress(address))).not.toMatch(new RegExp(`${address.address1}|${address.name}|${address.phoneNumber?.replace('+', '\\+')}`));
  });
});

describe("the shopper's changes", () => {
  it('each call the merchant once, with the trigger of the part changed', () => {
    const first = changed(opened(), { trigger: 'SHIPPING_ADDRESS', addressId: 'gb-office' });
    expect(first.data).toMatchObject({ callbackTrigger: 'SHIPPING_ADDRESS', shippingAddress: { countryCode: 'GB', postalCode: 'SW1' } });
    const second = changed(first.model, { trigger: 'SHIPPING_OPTION', optionId: 'std' });
    expect(second.data).toMatchObject({ callbackTrigger: 'SHIPPING_OPTION', shippingOptionData: { id: 'std' } });
    const third = changed(second.model, { trigger: 'OFFER', code: 'TEN' });
    expect(third.data).toMatchObject({ callbackTrigger: 'OFFER', offerData: { redemptionCodes: ['WELCOME', 'TEN'] } });
    expect([first.model.changes, second.model.changes, third.model.changes]).toEqual([1, 2, 3]);
  });

  it('of a part whose intent the request did not declare change the sheet without a call', () => {
    const addressOnly = request({ callbackIntents: ['SHIPPING_ADDRESS'] });
    const { model, data } = changed(opened(addressOnly), { trigger: 'SHIPPING_OPTION', optionId: 'std' }, addressOnly);
    expect(data).toBeUndefined();
    expect(model).toMatchObject({ optionId: 'std', pending: undefined });
  });
});

describe("the merchant's reply", () => {
  it('redraws the totals and items, replaces the options and the offers', () => {
    const { model } = changed(opened(), { trigger: 'SHIPPING_ADDRESS', addressId: 'ca-home' });
    const after = apply(model, model.changes, {
      newTransactionInfo: { currencyCode: 'USD', totalPriceStatus: 'FINAL', totalPrice: '27.00', displayItems: [{ label: 'Mug', type: 'LINE_ITEM', price: '20.00' }, { label: 'Shipping', type: 'SHIPPING_OPTION', price: '7.00' }] },
      newShippingOptionParameters: { shippingOptions: [{ id: 'ca-post', label: 'Canada Post' }] },
      newOfferInfo: { offers: [] },
    });
    expect(after.transaction).toMatchObject({ totalPrice: '27.00', totalPriceStatus: 'FINAL', totalPriceLabel: 'Total' });
    expect(after.transaction.displayItems?.map((item) => item.label)).toEqual(['Mug', 'Shipping']);
    expect(after.options.map((option) => option.id)).toEqual(['ca-post']);
    expect(after.optionId).toBe('ca-post');
    expect(after.offers).toEqual([]);
    expect(expressChoices(after, request())).toEqual({ shipping_address_id: 'ca-home', shipping_option_id: 'ca-post', redemption_codes: [] });
  });

  it('with an error shows it and keeps Pay disabled until a later change is answered without one', () => {
    const { model } = changed(opened(), { trigger: 'SHIPPING_ADDRESS', addressId: 'au-remote' });
    const error = { reason: 'SHIPPING_ADDRESS_UNSERVICEABLE', intent: 'SHIPPING_ADDRESS', message: 'We do not ship to Australia' };
    const refused = apply(model, model.changes, { error });
    expect(refused.error).toEqual(error);
    expect(mayPay(refused, request())).toBe(false);
    const { model: again } = changed(refused, { trigger: 'SHIPPING_ADDRESS', addressId: 'us-home' });
    const served = apply(again, again.changes, {});
    expect(served.error).toBeUndefined();
    expect(mayPay(served, request())).toBe(true);
  });

  it('to an older change is dropped once a newer one was made, whichever arrives first', () => {
    const older = changed(opened(), { trigger: 'SHIPPING_ADDRESS', addressId: 'au-remote' });
    const newer = changed(older.model, { trigger: 'SHIPPING_ADDRESS', addressId: 'us-home' });
    const stale = { error: { reason: 'SHIPPING_ADDRESS_UNSERVICEABLE', intent: 'SHIPPING_ADDRESS', message: 'No' } };
    expect(apply(newer.model, older.model.changes, stale)).toBe(newer.model);
    const answered = apply(newer.model, newer.model.changes, { newTransactionInfo: { currencyCode: 'USD', totalPriceStatus: 'FINAL', totalPrice: '25.00' } });
    expect(apply(answered, older.model.changes, stale)).toBe(answered);
    expect(answered).toMatchObject({ error: undefined, pending: undefined, transaction: { totalPrice: '25.00' } });
  });

  it.each(['rejected', 'timed out'] as const)("that %s is OTHER_ERROR against the part changed, the shopper may change again", (failed) => {
    const { model } = changed(opened(), { trigger: 'SHIPPING_OPTION', optionId: 'std' });
    const settled = settle(model, request(), model.changes, 'SHIPPING_OPTION', { failed });
    expect(settled).toEqual({ model: expect.objectContaining({ pending: undefined, error: { reason: 'OTHER_ERROR', intent: 'SHIPPING_OPTION', message: MERCHANT_FAILED } }) });
  });

  it("that breaks Google's rules is a developer error, not a redraw", () => {
    const { model } = changed(opened(request({ callbackIntents: ['SHIPPING_ADDRESS'] })), { trigger: 'INITIALIZE' }, request({ callbackIntents: ['SHIPPING_ADDRESS'] }));
    const settled = settle(model, request({ callbackIntents: ['SHIPPING_ADDRESS'] }), model.changes, 'INITIALIZE', { update: { newOfferInfo: { offers: [] } } });
    expect(settled).toEqual({ problem: expect.stringContaining('[GP27]') });
  });
});

describe("the merchant's refusal of the payment (onPaymentAuthorized's error)", () => {
  it('naming the address stands against it, Pay disabled until another address is answered without an error', () => {
    const model = apply(changed(opened(), { trigger: 'INITIALIZE' }).model, 1, {});
    const error = { reason: 'SHIPPING_ADDRESS_UNSERVICEABLE', intent: 'SHIPPING_ADDRESS', message: 'We cannot deliver to 1 Sandbox Way' };
    const refused = authorizationRefused(model, error);
    expect(refused?.error).toEqual(error);
    expect(errorPart(error)).toBe('address');
    expect(mayPay(refused!, request())).toBe(false);
    const { model: moved } = changed(refused!, { trigger: 'SHIPPING_ADDRESS', addressId: 'gb-office' });
    expect(mayPay(apply(moved, moved.changes, {}), request())).toBe(true);
  });

  it("the payment's own is not the sheet's parts' to show: it goes beside Pay, and the shopper may pay again at once", () => {
    const model = apply(changed(opened(), { trigger: 'INITIALIZE' }).model, 1, {});
    expect(authorizationRefused(model, { reason: 'OTHER_ERROR', intent: 'PAYMENT_AUTHORIZATION', message: 'Review your order' })).toBeUndefined();
  });
});
