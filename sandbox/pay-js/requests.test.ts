import { afterAll, describe, expect, it } from 'vitest';
import { withPagePrototypes } from '../../testing/page-prototypes';
import { type AnyRequest, sheetBody, tokenBody } from './requests';

// What this file's copy of common/browser/builtins.ts took leaves with it.
afterAll(() => void delete (globalThis as Record<string, unknown>).__walletCheckoutBuiltins);

/** The request the widget hands the wallet, as the server builds it (a platform's, with its authJwt). */
const request: AnyRequest = {
  apiVersion: 2,
  apiVersionMinor: 0,
  merchantInfo: { merchantName: 'Café “Zoë”', merchantId: '12345678901234567890', merchantOrigin: 'shop.example', authJwt: 'eyJ.eyJ.sig' },
  allowedPaymentMethods: [
    {
      type: 'CARD',
      parameters: { allowedAuthMethods: ['PAN_ONLY', 'CRYPTOGRAM_3DS'], allowedCardNetworks: ['MASTERCARD', 'VISA'], billingAddressRequired: true, billingAddressParameters: { format: 'FULL' } },
      tokenizationSpecification: { type: 'PAYMENT_GATEWAY', parameters: { gateway: 'walletcheckout', gatewayMerchantId: 'm_1' } },
    },
  ],
  transactionInfo: { currencyCode: 'EUR', countryCode: 'FR', totalPriceStatus: 'FINAL', totalPrice: '24.00', checkoutOption: 'COMPLETE_IMMEDIATE_PURCHASE' },
  callbackIntents: ['PAYMENT_AUTHORIZATION'],
} as AnyRequest;

const choices = { shipping_address_id: 'ca-home', shipping_option_id: 'fast', redemption_codes: ['TEN'] };
const bodies = () => [
  sheetBody(request, 'https://shop.example'),
  tokenBody('visa-success-pan', 'matching', request),
  tokenBody('visa-success-3ds', undefined, request),
  tokenBody('visa-success-pan', undefined, request, choices),
];

describe("the sandbox wallet's requests beside the page's prototypes", () => {
  it('are what JSON.stringify writes on a page that left the prototypes alone', () => {
    expect(bodies()).toEqual([
      JSON.stringify({ merchant_info: request.merchantInfo, page_origin: 'https://shop.example' }),
      JSON.stringify({ card_id: 'visa-success-pan', billing_address_id: 'matching', payment_data_request: request }),
      JSON.stringify({ card_id: 'visa-success-3ds', payment_data_request: request }),
      JSON.stringify({ card_id: 'visa-success-pan', ...choices, payment_data_request: request }),
    ]);
  });

  it("are the same bytes beside Prototype.js 1.6, where the browser's JSON.stringify sends allowedPaymentMethods as a string", () => {
    const plain = bodies();
    const beside = withPagePrototypes(() => ({ ours: bodies(), browsers: JSON.stringify({ payment_data_request: request }) }));
    expect(beside.ours).toEqual(plain);
    expect((JSON.parse(beside.browsers) as { payment_data_request: AnyRequest }).payment_data_request.allowedPaymentMethods).toBeTypeOf('string');
  });

  it('and beside a toJSON and an enumerable property on Object.prototype', () => {
    const plain = bodies();
    expect(withPagePrototypes(bodies, { objectPrototype: true })).toEqual(plain);
  });
});
