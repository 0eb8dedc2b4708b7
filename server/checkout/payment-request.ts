import { amountToDecimal } from '../contracts/currency';
import { gatewayMerchantId, type PaymentDataRequest, type TokenizationSpecification } from '../contracts';
import type { App } from '../apps';

export interface PaymentRequestContext {
  gatewayName: string;
  /** For direct-mode apps: the merchant's ECv2 public key, as Google's DIRECT tokenization wants it. */
  directPublicKey?: string;
}

export interface SessionAmount {
  amount: number;
  currency: string;
  countryCode: string;
}

function tokenization(app: App, context: PaymentRequestContext): TokenizationSpecification {
  if (app.decryptionMode === 'direct' && context.directPublicKey) {
    return { type: 'DIRECT', parameters: { protocolVersion: 'ECv2', publicKey: context.directPublicKey } };
  }
  return { type: 'PAYMENT_GATEWAY', parameters: { gateway: context.gatewayName, gatewayMerchantId: gatewayMerchantId(app.merchantId) } };
}

/**
 * The complete Google Pay PaymentDataRequest for one session, built on the
 * server from the app's configuration and the session's amount so that the
 * page cannot choose what the wallet is asked for.
 */
export function buildPaymentDataRequest(app: App, session: SessionAmount, context: PaymentRequestContext): PaymentDataRequest {
  return {
    apiVersion: 2,
    apiVersionMinor: 0,
    allowedPaymentMethods: [
      {
        type: 'CARD',
        parameters: {
          allowedAuthMethods: app.authMethods,
          allowedCardNetworks: app.cardNetworks,
          billingAddressRequired: true,
          billingAddressParameters: { format: 'FULL' },
        },
        tokenizationSpecification: tokenization(app, context),
      },
    ],
    merchantInfo: {
      merchantName: app.name,
      // Google's id, never the payment service's: required in PRODUCTION and for DIRECT tokens (NewApp checks it).
      ...(app.googleMerchantId && { merchantId: app.googleMerchantId }),
    },
    transactionInfo: {
      totalPriceStatus: 'FINAL',
      totalPrice: amountToDecimal(session.amount, session.currency),
      currencyCode: session.currency,
      countryCode: session.countryCode,
    },
  };
}
