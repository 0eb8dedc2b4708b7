import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { withPagePrototypes } from '../../testing/page-prototypes';
import { toJson } from './builtins';

/** A Google Pay request as the server builds one: arrays in objects in arrays. */
const paymentDataRequest = {
  apiVersion: 2,
  apiVersionMinor: 0,
  merchantInfo: { merchantName: 'Café “Zoë”', merchantId: '12345678901234567890' },
  allowedPaymentMethods: [
    {
      type: 'CARD',
      parameters: { allowedAuthMethods: ['PAN_ONLY', 'CRYPTOGRAM_3DS'], allowedCardNetworks: ['AMEX', 'DISCOVER', 'MASTERCARD', 'VISA'], billingAddressRequired: true, billingAddressParameters: { format: 'FULL' } },
      tokenizationSpecification: { type: 'PAYMENT_GATEWAY', parameters: { gateway: 'walletcheckout', gatewayMerchantId: 'm_1' } },
    },
  ],
  transactionInfo: { currencyCode: 'EUR', countryCode: 'FR', totalPriceStatus: 'FINAL', totalPrice: '24.00', checkoutOption: 'COMPLETE_IMMEDIATE_PURCHASE' },
  callbackIntents: ['PAYMENT_AUTHORIZATION'],
};

/** What our scripts send, and the corners of JSON.stringify they may meet. */
const samples: Record<string, unknown> = {
  paymentDataRequest,
  tokenRequest: { card_id: 'visa-success-pan', billing_address_id: 'matching', payment_data_request: paymentDataRequest },
  paymentData: {
    apiVersion: 2,
    apiVersionMinor: 0,
    paymentMethodData: { type: 'CARD', description: 'Visa •••• 1111', info: { cardNetwork: 'VISA', cardDetails: '1111' }, tokenizationData: { type: 'PAYMENT_GATEWAY', token: '{"signature":"MEU\\u003d","protocolVersion":"ECv2"}' } },
  },
  leftOut: { gone: undefined, fn: () => 1, kept: null, inArray: [undefined, () => 1, null, 0] },
  numbers: [0, -0, 1.5e300, -2.5e-7, Number.NaN, Number.POSITIVE_INFINITY, 12345678901234567890],
  strings: ['', 'quote " and backslash \\', 'controls \u0000\u0001\b\t\n\f\r\u001f', 'lone \ud800 and \udfff, pair \ud83d\ude00', 'separators \u2028\u2029', '</script>'],
  keyOrder: { b: 1, a: 2, 10: 'ten', 2: 'two', '-1': 'minus', 'é': 'e' },
  nested: [[[]], {}, [{}], { a: { b: { c: [true, false] } } }],
  sparse: [1, , 3],
  top: 'a string',
};

afterEach(() => vi.unstubAllGlobals());
// What this file's copies took leaves with it: a later file in this worker takes its own (common/browser/builtins.ts).
afterAll(() => void delete (globalThis as Record<string, unknown>).__walletCheckoutBuiltins);

describe('toJson: our JSON, whatever the page did to the prototypes', () => {
  it("writes what the browser's JSON.stringify writes, byte for byte", () => {
    for (const [name, value] of Object.entries(samples)) expect(toJson(value), name).toBe(JSON.stringify(value));
  });

  it("writes the same beside Prototype.js 1.6, whose toJSONs turn JSON.stringify's arrays into strings", () => {
    const plain = Object.values(samples).map((value) => toJson(value));
    const beside = withPagePrototypes(() => Object.values(samples).map((value) => ({ ours: toJson(value), browsers: JSON.stringify(value) })));
    expect(beside.map(({ ours }) => ours)).toEqual(plain);
    // The patches bite: the browser's own serializer now sends the request's arrays as strings.
    expect(beside[0]?.browsers).toContain('"allowedPaymentMethods":"[{');
    expect(JSON.parse(beside[0]?.browsers ?? 'null').allowedPaymentMethods).toBeTypeOf('string');
  });

  it('writes the same beside a toJSON and an enumerable property on Object.prototype (no toJSON, own or inherited, is read)', () => {
    const plain = Object.values(samples).map((value) => toJson(value));
    const beside = withPagePrototypes(() => Object.values(samples).map((value) => ({ ours: toJson(value), browsers: JSON.stringify(value) })), { objectPrototype: true });
    expect(beside.map(({ ours }) => ours)).toEqual(plain);
    expect(beside[0]?.browsers).toBe('"the page\'s"');
  });

  it('leaves the prototypes as they were', () => {
    withPagePrototypes(() => undefined, { objectPrototype: true });
    expect('toJSON' in Array.prototype || 'toJSON' in String.prototype || 'toJSON' in Number.prototype || 'toJSON' in Object.prototype).toBe(false);
    expect(JSON.stringify({ at: new Date(0), list: [1] })).toBe('{"at":"1970-01-01T00:00:00.000Z","list":[1]}');
  });
});

describe('the built-ins, taken once per page', () => {
  it('a later copy of our code (a chunk, the sandbox wallet) calls the fetch the first one took, not the one the page put in its place since', async () => {
    const first = await import('./builtins');
    vi.stubGlobal('fetch', () => Promise.reject(new Error("the page's fetch")));
    vi.stubGlobal('CustomEvent', class {});
    vi.resetModules();
    const later = await import('./builtins');
    expect(later).not.toBe(first);
    expect(later.builtinFetch).toBe(first.builtinFetch);
    expect(later.builtinFetch).not.toBe(globalThis.fetch);
    expect(later.BuiltinCustomEvent).toBe(first.BuiltinCustomEvent);
    expect(later.parseJson).toBe(JSON.parse);
  });
});
