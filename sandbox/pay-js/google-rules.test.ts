/**
 * The sandbox wallet refuses what Google refuses: one case per rule of docs/google-pay-rules.md,
 * each a request (or button option, or callback reply) the server's own builds would never make,
 * failed the way Google's client fails, `{statusCode: 'DEVELOPER_ERROR', statusMessage}` naming the
 * field and the rule. The wallet runs here as it does on a page, its globals stood in for: every
 * refusal comes before it touches the DOM or the network.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { authorizationResultProblem, buttonOptionsProblem, paymentDataRequestProblem, paymentDataRequestUpdateProblem } from '../../contracts/google-pay-rules';
import { paymentDataRequest } from '../../testing/sandbox';

/** A request as a test breaks it: any field, any value. */
type Loose = any;
interface Client {
  isReadyToPay(request: unknown): Promise<unknown>;
  loadPaymentData(request: unknown): Promise<unknown>;
  createButton(options: unknown): HTMLElement;
}
type ClientClass = new (options: Record<string, unknown>) => Client;

let PaymentsClient: ClientClass;
beforeAll(async () => {
  vi.stubGlobal('document', { currentScript: null });
  vi.stubGlobal('location', { origin: 'https://sandbox.example' });
  vi.stubGlobal('window', globalThis);
  await import('./index');
  PaymentsClient = (globalThis as Loose).google.payments.api.PaymentsClient;
});

const onPaymentAuthorized = () => ({ transactionState: 'SUCCESS' });
const client = (options: Record<string, unknown> = {}) => new PaymentsClient({ environment: 'TEST', paymentDataCallbacks: { onPaymentAuthorized }, ...options });
const request = (): Loose => structuredClone(paymentDataRequest());
const changed = (change: (r: Loose) => void): Loose => {
  const r = request();
  change(r);
  return r;
};
const card = (r: Loose) => r.allowedPaymentMethods[0];
/** The request with one of Google's merchant-initiated transaction objects in place of transactionInfo (Google takes exactly one). */
const future = (kind: 'recurringTransactionInfo' | 'deferredTransactionInfo' | 'automaticReloadTransactionInfo', info: Loose, change: (info: Loose) => void = () => undefined): Loose =>
  changed((r) => {
    delete r.transactionInfo;
    r[kind] = structuredClone(info);
    change(r[kind]);
  });
const today = { currencyCode: 'USD', countryCode: 'US', immediateTotalPrice: '0.00' };
const subscription = { ...today, billingAgreement: 'Cancel at any time.', recurrenceItems: [{ label: 'Coffee club', priceStatus: 'FINAL', recurrencePeriod: 'MONTH', recurrencePeriodCount: 1, price: '9.99' }] };
const reload = { ...today, minimumBalanceAmount: '5.00', reloadAmount: '20.00', label: 'Card reload' };
const deferred = { ...today, billingDateTime: '2099-01-01T00:00:00Z', priceStatus: 'FINAL', price: '120.00', label: 'Hotel stay' };
const readiness = (r: Loose) => ({ apiVersion: r.apiVersion, apiVersionMinor: r.apiVersionMinor, allowedPaymentMethods: r.allowedPaymentMethods });

const refusal = (rule: string) => ({ statusCode: 'DEVELOPER_ERROR', statusMessage: expect.stringContaining(`[${rule}]`) });

/** [rule, what is wrong, the request loadPaymentData is given, the client's options]. */
const loadCases: [string, string, Loose, Record<string, unknown>?][] = [
  ['GP1', 'apiVersion 1', changed((r) => (r.apiVersion = 1))],
  ['GP1', 'apiVersionMinor 1', changed((r) => (r.apiVersionMinor = 1))],
  ['GP2', 'no merchantInfo', changed((r) => delete r.merchantInfo)],
  ['GP2', 'an authJwt without merchantOrigin', changed((r) => (r.merchantInfo.authJwt = 'e30.e30.sig'))],
  ['GP3', 'a merchantId Google would not issue', changed((r) => (r.merchantInfo.merchantId = 'mrchnt_4242'))],
  ['GP3', 'no merchantId in PRODUCTION', changed((r) => delete r.merchantInfo.merchantId), { environment: 'PRODUCTION' }],
  ['GP4', 'no payment method', changed((r) => (r.allowedPaymentMethods = []))],
  ['GP4', 'a payment method of another type', changed((r) => (card(r).type = 'PAYPAL'))],
  ['GP5', 'no auth method', changed((r) => (card(r).parameters.allowedAuthMethods = []))],
  ['GP5', 'an auth method Google does not know', changed((r) => (card(r).parameters.allowedAuthMethods = ['PIN']))],
  ['GP6', 'a card network Google does not know', changed((r) => (card(r).parameters.allowedCardNetworks = ['DINERS']))],
  ['GP7', 'ELO outside Brazil', changed((r) => (card(r).parameters.allowedCardNetworks = ['ELO']))],
  ['GP7', 'MAESTRO without MASTERCARD', changed((r) => ((card(r).parameters.allowedCardNetworks = ['MAESTRO', 'VISA']), (r.transactionInfo.countryCode = 'BR')))],
  ['GP8', 'a flag that is not a boolean', changed((r) => (card(r).parameters.billingAddressRequired = 'yes'))],
  ['GP9', 'a billing address format Google does not know', changed((r) => (card(r).parameters.billingAddressParameters = { format: 'SHORT' }))],
  ['GP10', 'issuer countries allowed and blocked at once', changed((r) => Object.assign(card(r).parameters, { allowedIssuerCountryCodes: ['US'], blockedIssuerCountryCodes: ['FR'] }))],
  ['GP10', 'an issuer country that is no alpha-2 code', changed((r) => (card(r).parameters.allowedIssuerCountryCodes = ['USA']))],
  ['GP11', 'network parameters for a network without any', changed((r) => (card(r).parameters.cardNetworkParameters = [{ cardNetwork: 'AMEX' }]))],
  ['GP12', 'no tokenization specification', changed((r) => delete card(r).tokenizationSpecification)],
  ['GP12', 'a tokenization type Google does not know', changed((r) => (card(r).tokenizationSpecification.type = 'NETWORK_TOKEN'))],
  ['GP13', 'gateway tokenization without its gateway', changed((r) => delete card(r).tokenizationSpecification.parameters.gateway)],
  ['GP13', 'a gateway parameter that is not a string', changed((r) => (card(r).tokenizationSpecification.parameters.gatewayMerchantId = 4242))],
  ['GP13', 'DIRECT tokenization in another protocol', changed((r) => (card(r).tokenizationSpecification = { type: 'DIRECT', parameters: { protocolVersion: 'ECv1', publicKey: 'BPUB' } }))],
  ['GP13', 'DIRECT tokenization without a merchantId', changed((r) => ((card(r).tokenizationSpecification = { type: 'DIRECT', parameters: { protocolVersion: 'ECv2', publicKey: 'BPUB' } }), delete r.merchantInfo.merchantId))],
  ['GP14', 'a total with a third decimal (KWD 1.234)', changed((r) => Object.assign(r.transactionInfo, { totalPrice: '1.234', currencyCode: 'KWD' }))],
  ['GP14', 'a total with one decimal', changed((r) => (r.transactionInfo.totalPrice = '1.5'))],
  ['GP14', 'a negative total', changed((r) => (r.transactionInfo.totalPrice = '-1.00'))],
  ['GP14', 'an ESTIMATED total without its price', changed((r) => ((r.transactionInfo.totalPriceStatus = 'ESTIMATED'), delete r.transactionInfo.totalPrice, delete r.transactionInfo.checkoutOption))],
  ['GP14', 'a line item with a third decimal', changed((r) => (r.transactionInfo.displayItems = [{ label: 'Coffee', type: 'LINE_ITEM', price: '1.234' }]))],
  ['GP14', 'a line item with a plus sign', changed((r) => (r.transactionInfo.displayItems = [{ label: 'Coffee', type: 'LINE_ITEM', price: '+1.00' }]))],
  ['GP15', 'a currency code in lower case', changed((r) => (r.transactionInfo.currencyCode = 'usd'))],
  ['GP15', 'a country code of three letters', changed((r) => (r.transactionInfo.countryCode = 'USA'))],
  ['GP15', 'no transaction at all', changed((r) => delete r.transactionInfo)],
  ['GP15', 'two kinds of transaction at once', changed((r) => (r.recurringTransactionInfo = structuredClone(subscription)))],
  ['GP16', 'a line item of a type Google does not know', changed((r) => (r.transactionInfo.displayItems = [{ label: 'Fee', type: 'FEE', price: '1.00' }]))],
  ['GP16', 'a line item without a label', changed((r) => (r.transactionInfo.displayItems = [{ label: '', type: 'LINE_ITEM', price: '1.00' }]))],
  ['GP17', 'a price status Google does not know', changed((r) => (r.transactionInfo.totalPriceStatus = 'KNOWN'))],
  ['GP18', 'a checkout option Google does not know', changed((r) => (r.transactionInfo.checkoutOption = 'BUY_NOW'))],
  ['GP18', 'COMPLETE_IMMEDIATE_PURCHASE on an estimated total', changed((r) => (r.transactionInfo.totalPriceStatus = 'ESTIMATED'))],
  ['GP19', 'emailRequired as a string', changed((r) => (r.emailRequired = 'true'))],
  ['GP19', 'a shipping address format of billing addresses only', changed((r) => Object.assign(r, { shippingAddressRequired: true, shippingAddressParameters: { format: 'MIN' } }))],
  ['GP20', 'an intent Google does not know', changed((r) => (r.callbackIntents = ['ADDRESS']))],
  ['GP20', 'PAYMENT_AUTHORIZATION without onPaymentAuthorized', request(), { paymentDataCallbacks: {} }],
  ['GP20', 'SHIPPING_ADDRESS without onPaymentDataChanged', changed((r) => Object.assign(r, { shippingAddressRequired: true, callbackIntents: ['SHIPPING_ADDRESS'] }))],
  ['GP20', 'SHIPPING_OPTION without shippingOptionRequired', changed((r) => (r.callbackIntents = ['SHIPPING_OPTION'])), { paymentDataCallbacks: { onPaymentDataChanged: () => ({}) } }],
  ['GP21', 'shipping options without shippingOptionRequired', changed((r) => (r.shippingOptionParameters = { shippingOptions: [{ id: 'std', label: 'Standard' }] }))],
  ['GP21', 'a default shipping option that is not one of them', changed((r) => Object.assign(r, { shippingOptionRequired: true, shippingOptionParameters: { shippingOptions: [{ id: 'std', label: 'Standard' }], defaultSelectedOptionId: 'fast' } }))],
  ['GP21', 'two shipping options of one id', changed((r) => Object.assign(r, { shippingOptionRequired: true, shippingOptionParameters: { shippingOptions: [{ id: 'std', label: 'A' }, { id: 'std', label: 'B' }] } }))],
  ['GP22', 'an offer described in 60 characters or more', changed((r) => (r.offerInfo = { offers: [{ redemptionCode: 'TEN', description: 'x'.repeat(60) }] }))],
  ['GP30', 'a subscription without its currency', future('recurringTransactionInfo', subscription, (info) => delete info.currencyCode)],
  ['GP30', 'a total due today with one decimal', future('automaticReloadTransactionInfo', reload, (info) => (info.immediateTotalPrice = '0.5'))],
  ['GP30', 'a billing agreement of more than 300 characters', future('recurringTransactionInfo', subscription, (info) => (info.billingAgreement = 'x'.repeat(301)))],
  ['GP30', 'a management URL with a trailing slash', future('recurringTransactionInfo', subscription, (info) => (info.managementUrl = 'https://shop.example/account/'))],
  ['GP30', 'a token update URL with parameters', future('deferredTransactionInfo', deferred, (info) => (info.tokenUpdateUrl = 'https://psp.example/updates?merchant=1'))],
  ['GP31', 'a subscription without a recurrence', future('recurringTransactionInfo', subscription, (info) => (info.recurrenceItems = []))],
  ['GP31', 'a recurrence every 0 months', future('recurringTransactionInfo', subscription, (info) => (info.recurrenceItems[0].recurrencePeriodCount = 0))],
  ['GP31', 'a recurrence of a period Google does not know', future('recurringTransactionInfo', subscription, (info) => (info.recurrenceItems[0].recurrencePeriod = 'QUARTER'))],
  ['GP31', 'a FINAL recurrence without its price', future('recurringTransactionInfo', subscription, (info) => delete info.recurrenceItems[0].price)],
  ['GP31', 'a recurrence whose price is not known, with a price', future('recurringTransactionInfo', subscription, (info) => (info.recurrenceItems[0].priceStatus = 'NOT_CURRENTLY_KNOWN'))],
  ['GP31', 'a recurrence labelled in more than 100 characters', future('recurringTransactionInfo', subscription, (info) => (info.recurrenceItems[0].label = 'x'.repeat(101)))],
  ['GP31', 'a trial whose recurrence bills before it ends', future('recurringTransactionInfo', subscription, (info) => (info.introductoryPeriodInfo = { introductoryPeriodEndDateTime: '2099-02-01T00:00:00Z', label: 'Free month', totalPrice: '0.00' }))],
  ['GP32', 'a deferred charge in the past', future('deferredTransactionInfo', deferred, (info) => (info.billingDateTime = '2001-01-01T00:00:00Z'))],
  ['GP32', 'a deferred charge at a time that is no RFC 3339 date-time', future('deferredTransactionInfo', deferred, (info) => (info.billingDateTime = 'next Tuesday'))],
  ['GP33', 'a reload of nothing', future('automaticReloadTransactionInfo', reload, (info) => (info.reloadAmount = '0.00'))],
  ['GP33', 'a reload without its threshold', future('automaticReloadTransactionInfo', reload, (info) => delete info.minimumBalanceAmount)],
];

describe("loadPaymentData refuses, as Google's client does", () => {
  it('nothing in the request the server builds, which every case below breaks in one place', () => {
    expect(paymentDataRequestProblem(request(), { environment: 'TEST', callbacks: { onPaymentAuthorized: true, onPaymentDataChanged: false } })).toBeUndefined();
  });

  it('nor a card kept for a subscription, a deferred charge or a reload with nothing charged today (0.00), or with a free trial first', () => {
    const context = { environment: 'TEST', callbacks: { onPaymentAuthorized: true, onPaymentDataChanged: false } };
    const trial = { introductoryPeriodEndDateTime: '2099-02-01T00:00:00Z', label: 'Free month', totalPrice: '0.00' };
    for (const kept of [
      future('recurringTransactionInfo', subscription),
      future('recurringTransactionInfo', subscription, (info) => Object.assign(info, { introductoryPeriodInfo: trial, managementUrl: 'https://shop.example/account' }, { recurrenceItems: [{ ...info.recurrenceItems[0], billingInitialDateTime: '2099-02-01T00:00:00Z' }] })),
      future('deferredTransactionInfo', deferred),
      future('automaticReloadTransactionInfo', reload),
    ]) {
      expect(paymentDataRequestProblem(kept, context)).toBeUndefined();
    }
  });

  it('nor a discount line with a negative price, which Google allows a display item', () => {
    const discounted = changed((r) => (r.transactionInfo.displayItems = [{ label: 'Coffee', type: 'LINE_ITEM', price: '10.00' }, { label: 'First order', type: 'DISCOUNT', price: '-3.00' }]));
    expect(paymentDataRequestProblem(discounted, { environment: 'TEST', callbacks: { onPaymentAuthorized: true, onPaymentDataChanged: false } })).toBeUndefined();
  });

  it.each(loadCases)('%s: %s', async (rule, _what, broken, options) => {
    await expect(client(options).loadPaymentData(broken)).rejects.toEqual(refusal(rule));
  });
});

describe("isReadyToPay refuses, as Google's client does", () => {
  it('takes the request the widget asks, with or without existingPaymentMethodRequired', async () => {
    await expect(client().isReadyToPay(readiness(request()))).resolves.toEqual({ result: true });
    await expect(client().isReadyToPay({ ...readiness(request()), existingPaymentMethodRequired: true })).resolves.toEqual({ result: true, paymentMethodPresent: true });
  });

  it('answers not ready, with no refusal, for a valid request of networks the sandbox holds no card of', async () => {
    const jcbOnly = readiness(changed((r) => (card(r).parameters.allowedCardNetworks = ['JCB'])));
    await expect(client().isReadyToPay(jcbOnly)).resolves.toEqual({ result: false });
    await expect(client().isReadyToPay({ ...jcbOnly, existingPaymentMethodRequired: true })).resolves.toEqual({ result: false, paymentMethodPresent: false });
  });

  it.each<[string, string, Loose]>([
    ['GP1', 'apiVersion 3', { ...readiness(request()), apiVersion: 3 }],
    ['GP4', 'no payment method', { ...readiness(request()), allowedPaymentMethods: [] }],
    ['GP6', 'a card network Google does not know', readiness(changed((r) => (card(r).parameters.allowedCardNetworks = ['VISA', 'DINERS'])))],
    ['GP23', 'existingPaymentMethodRequired as a string', { ...readiness(request()), existingPaymentMethodRequired: 'yes' }],
  ])('%s: %s', async (rule, _what, broken) => {
    await expect(client().isReadyToPay(broken)).rejects.toEqual(refusal(rule));
  });
});

describe("createButton throws, as Google's client does", () => {
  it("draws for the options Google's own button element passes: null for each attribute the page left unset", () => {
    const unset = { buttonColor: null, buttonType: null, buttonRadius: null, buttonSizeMode: null, buttonLocale: null, buttonBorderType: null };
    expect(buttonOptionsProblem({ onClick: () => {}, ...unset, allowedPaymentMethods: readiness(request()).allowedPaymentMethods })).toBeUndefined();
  });

  it.each<[string, string, Loose]>([
    ['GP24', 'no onClick', { buttonType: 'pay' }],
    ['GP24', 'a color Google does not draw', { onClick: () => {}, buttonColor: 'red' }],
    ['GP24', 'a type Google does not draw', { onClick: () => {}, buttonType: 'purchase' }],
    ['GP24', 'a negative radius', { onClick: () => {}, buttonRadius: -1 }],
    ['GP24', 'a size mode Google does not know', { onClick: () => {}, buttonSizeMode: 'large' }],
    ['GP24', 'a language Google does not translate into', { onClick: () => {}, buttonLocale: 'he' }],
    ['GP24', 'a border type Google does not know', { onClick: () => {}, buttonBorderType: 'thick' }],
    ['GP6', 'filtering methods with an unknown network', { onClick: () => {}, allowedPaymentMethods: readiness(changed((r) => (card(r).parameters.allowedCardNetworks = ['DINERS']))).allowedPaymentMethods }],
  ])('%s: %s', (rule, _what, options) => {
    expect(() => client().createButton(options)).toThrow(expect.objectContaining(refusal(rule)));
  });
});

describe("onPaymentAuthorized's reply is held to Google's PaymentAuthorizationResult", () => {
  const declared = { callbackIntents: ['PAYMENT_AUTHORIZATION'] };
  it('takes what the widget answers: SUCCESS, or ERROR with a reason and a message for the sheet', () => {
    expect(authorizationResultProblem({ transactionState: 'SUCCESS' }, declared)).toBeUndefined();
    expect(authorizationResultProblem({ transactionState: 'ERROR', error: { reason: 'PAYMENT_DATA_INVALID', intent: 'PAYMENT_AUTHORIZATION', message: 'Declined' } }, declared)).toBeUndefined();
  });

  it.each<[string, string, unknown]>([
    ['GP25', 'no result at all', undefined],
    ['GP25', 'a state Google does not know', { transactionState: 'DECLINED' }],
    ['GP25', 'an error of a reason Google does not know', { transactionState: 'ERROR', error: { reason: 'DECLINED', intent: 'PAYMENT_AUTHORIZATION', message: 'No' } }],
    ['GP25', 'an error without a message for the shopper', { transactionState: 'ERROR', error: { reason: 'OTHER_ERROR', intent: 'PAYMENT_AUTHORIZATION', message: '' } }],
    ['GP25', "an error for an intent the request did not declare", { transactionState: 'ERROR', error: { reason: 'SHIPPING_OPTION_INVALID', intent: 'SHIPPING_OPTION', message: 'No' } }],
  ])('%s: %s', (rule, _what, result) => {
    expect(authorizationResultProblem(result, declared)).toContain(`[${rule}]`);
  });
});

describe("onPaymentDataChanged's reply is held to Google's PaymentDataRequestUpdate", () => {
  const express = {
    callbackIntents: ['SHIPPING_ADDRESS', 'SHIPPING_OPTION', 'OFFER', 'PAYMENT_AUTHORIZATION'],
    transactionInfo: { currencyCode: 'USD', countryCode: 'US', totalPriceStatus: 'ESTIMATED', totalPrice: '20.00', totalPriceLabel: 'Total' },
  };
  const addressOnly = { ...express, callbackIntents: ['SHIPPING_ADDRESS'] };
  const options = { shippingOptions: [{ id: 'std', label: 'Standard' }, { id: 'fast', label: 'Express' }], defaultSelectedOptionId: 'fast' };

  it('takes an empty update, new totals and items, new options and offers, and an error for a declared intent', () => {
    expect(paymentDataRequestUpdateProblem({}, express)).toBeUndefined();
    const newTransactionInfo = { currencyCode: 'USD', totalPriceStatus: 'FINAL', totalPrice: '25.50', displayItems: [{ label: 'Shipping', type: 'SHIPPING_OPTION', price: '5.50' }] };
    expect(paymentDataRequestUpdateProblem({ newTransactionInfo, newShippingOptionParameters: options, newOfferInfo: { offers: [] } }, express)).toBeUndefined();
    expect(paymentDataRequestUpdateProblem({ error: { reason: 'SHIPPING_ADDRESS_UNSERVICEABLE', intent: 'SHIPPING_ADDRESS', message: 'We do not ship there' } }, addressOnly)).toBeUndefined();
  });

  it.each<[string, string, unknown, object?]>([
    ['GP26', 'no update at all', undefined],
    ['GP26', 'new totals in another currency', { newTransactionInfo: { currencyCode: 'EUR', totalPriceStatus: 'FINAL', totalPrice: '1.00' } }],
    ['GP26', 'new totals relabelled', { newTransactionInfo: { currencyCode: 'USD', totalPriceStatus: 'FINAL', totalPrice: '1.00', totalPriceLabel: 'Grand total' } }],
    ['GP14', 'new totals with one decimal', { newTransactionInfo: { currencyCode: 'USD', totalPriceStatus: 'FINAL', totalPrice: '1.5' } }],
    ['GP17', 'new totals of a status Google does not know', { newTransactionInfo: { currencyCode: 'USD', totalPriceStatus: 'KNOWN', totalPrice: '1.00' } }],
    ['GP27', 'new options for a request that declared no SHIPPING_OPTION', { newShippingOptionParameters: options }, addressOnly],
    ['GP27', 'new offers for a request that declared no OFFER', { newOfferInfo: { offers: [] } }, addressOnly],
    ['GP27', 'an error for an intent the request did not declare', { error: { reason: 'OFFER_INVALID', intent: 'OFFER', message: 'No' } }, addressOnly],
    ['GP27', "an error for onPaymentAuthorized's intent", { error: { reason: 'OTHER_ERROR', intent: 'PAYMENT_AUTHORIZATION', message: 'No' } }],
    ['GP25', 'an error of a reason Google does not know', { error: { reason: 'NO_STOCK', intent: 'SHIPPING_ADDRESS', message: 'No' } }],
    ['GP28', 'two new options of one id', { newShippingOptionParameters: { shippingOptions: [{ id: 'std', label: 'A' }, { id: 'std', label: 'B' }] } }],
    ['GP28', 'a new default that is not one of the options', { newShippingOptionParameters: { ...options, defaultSelectedOptionId: 'drone' } }],
    ['GP28', 'no new option', { newShippingOptionParameters: { shippingOptions: [] } }],
    ['GP29', 'a new offer without its code', { newOfferInfo: { offers: [{ redemptionCode: '', description: '10% off' }] } }],
  ])('%s: %s', (rule, _what, update, request = express) => {
    expect(paymentDataRequestUpdateProblem(update, request)).toContain(`[${rule}]`);
  });
});

describe('docs/google-pay-rules.md', () => {
  const ids = (text: string) => [...new Set([...text.matchAll(/\bGP\d+\b/g)].map(([id]) => id))].sort();
  const table = ids(readFileSync(new URL('../../docs/google-pay-rules.md', import.meta.url), 'utf8'));

  it('lists every rule the code cites, and the code cites every rule it lists', () => {
    expect(ids(readFileSync(new URL('../../contracts/google-pay-rules.ts', import.meta.url), 'utf8'))).toEqual(table);
  });

  it('has a case here for every rule', () => {
    expect(ids(readFileSync(new URL(import.meta.url), 'utf8').split("describe('docs/google-pay-rules.md'")[0] ?? '')).toEqual(table);
  });
});
