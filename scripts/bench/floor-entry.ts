/**
 * The bundle floor: only Preact and @google-pay/button-element, rendering one
 * button. No checkout can ship less than this and still be a Preact widget
 * around Google's element, so checkout.js is measured against it.
 */
import { h, render } from 'preact';
import '@google-pay/button-element';

render(
  h('google-pay-button', {
    environment: 'TEST',
    paymentRequest: {
      apiVersion: 2,
      apiVersionMinor: 0,
      allowedPaymentMethods: [
        {
          type: 'CARD',
          parameters: { allowedAuthMethods: ['PAN_ONLY', 'CRYPTOGRAM_3DS'], allowedCardNetworks: ['VISA', 'MASTERCARD'] },
          tokenizationSpecification: { type: 'PAYMENT_GATEWAY', parameters: { gateway: 'example', gatewayMerchantId: 'example' } },
        },
      ],
      merchantInfo: { merchantName: 'Example' },
      transactionInfo: { totalPriceStatus: 'FINAL', totalPrice: '24.00', currencyCode: 'USD', countryCode: 'US' },
    },
  }),
  document.body,
);
