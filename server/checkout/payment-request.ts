import { amountToDecimal, exponentOf, googlePayPriceOf } from '../../contracts/currency';
import { type CardPaymentMethod, gatewayMerchantId, type PaymentDataRequest, type TokenizationSpecification } from '../../contracts';
import { googlePayStep } from '../../contracts/money';
import type { GoogleMerchantInfo, GooglePaymentDataRequest } from '../../contracts/google-pay-types';
import type { App } from '../apps';
import type { Failure } from '../../common/result';
import type { PlatformAuthorization } from './platform';

export interface PaymentRequestContext {
  gatewayName: string;
  /** For direct-mode apps: the merchant's ECv2 public key, as Google's DIRECT tokenization wants it. */
  directPublicKey?: string;
  /** For platform-mode apps: our Google merchant id and the authJwt vouching for the page's site. */
  platform?: PlatformAuthorization;
}

export interface SessionAmount {
  /** The checkout session's id: Google's transactionId. */
  id: string;
  amount: number;
  currency: string;
  countryCode: string;
}

function tokenization(app: App, context: PaymentRequestContext): TokenizationSpecification {
  if (app.decryptionMode === 'direct' && context.directPublicKey) {
    return { type: 'DIRECT', parameters: { protocolVersion: 'ECv2' as const, publicKey: context.directPublicKey } } satisfies google.payments.api.DirectTokenizationSpecification;
  }
  return {
    type: 'PAYMENT_GATEWAY',
    parameters: { gateway: context.gatewayName, gatewayMerchantId: gatewayMerchantId(app.merchantId) },
  } satisfies google.payments.api.PaymentGatewayTokenizationSpecification;
}

/** The largest amount a session takes (CreateSessionBody): a nearest amount past it is not offered. */
const MAX_AMOUNT = 99_999_999_999;

/**
 * Why Google Pay cannot be asked for this amount, or undefined when it can: a three- or four-decimal
 * currency's amount that needs its third or fourth decimal (KWD 1234 is 1.234 KWD), which Google's
 * two-decimal price format cannot carry. Refused when the session is created (and read, for a session
 * created before the rule), never rounded: the nearest amounts that work are named instead.
 */
export function googlePayAmountRefusal(amount: number, currency: string): Failure | undefined {
  if (googlePayPriceOf(amount, currency) !== undefined) return undefined;
  const exponent = exponentOf(currency);
  const step = googlePayStep(exponent);
  const below = amount - (amount % step);
  const nearest = [below, below + step].filter((candidate) => candidate > 0 && candidate <= MAX_AMOUNT);
  const named = nearest.map((candidate) => `${candidate} (${amountToDecimal(candidate, currency)} ${currency})`).join(' and ');
  return {
    code: 'amount_exceeds_google_pay_precision',
    message:
      `amount: ${amount} is ${amountToDecimal(amount, currency)} ${currency}, which needs ${exponent} decimals; Google Pay shows a price with at most two ` +
      `(a whole number or exactly two decimals), so an amount in ${currency} must be a multiple of ${step} minor units: the nearest are ${named}`,
  };
}

/** The billing address every request asks for: FULL (the first line is what the address check compares), no phone. */
export const billingAddressParameters: NonNullable<CardPaymentMethod['parameters']['billingAddressParameters']> = { format: 'FULL' };

/**
 * The complete Google Pay PaymentDataRequest for one session, built on the
 * server from the app's configuration and the session's amount so that the
 * page cannot choose what the wallet is asked for. Its fields and values are
 * held to Google's own definitions at compile time (contracts/google-pay-types.ts)
 * and to Google's rules by the sandbox wallet (contracts/google-pay-rules.ts).
 */
export function buildPaymentDataRequest(app: App, session: SessionAmount, context: PaymentRequestContext): PaymentDataRequest {
  return {
    // Google types these as any number or string: `as const` keeps the contract's literals.
    apiVersion: 2 as const,
    apiVersionMinor: 0 as const,
    allowedPaymentMethods: [
      {
        type: 'CARD',
        parameters: {
          allowedAuthMethods: app.authMethods,
          allowedCardNetworks: app.cardNetworks,
          billingAddressRequired: true,
          billingAddressParameters,
          assuranceDetailsRequired: true,
        },
        tokenizationSpecification: tokenization(app, context),
      },
    ],
    merchantInfo: merchantInfo(app, context),
    transactionInfo: {
      totalPriceStatus: 'FINAL',
      totalPrice: totalPrice(session),
      currencyCode: session.currency,
      countryCode: session.countryCode,
      transactionId: session.id,
      // The widget charges as soon as the sheet returns: nothing is left to confirm on the page.
      checkoutOption: 'COMPLETE_IMMEDIATE_PURCHASE',
    },
    // The widget answers onPaymentAuthorized with the charge's outcome; where it cannot, it drops this (docs/embedding.md).
    callbackIntents: ['PAYMENT_AUTHORIZATION'],
  } satisfies GooglePaymentDataRequest;
}

/** Google's price for the session's amount; sessions it cannot show are refused before any request is built (googlePayAmountRefusal). */
function totalPrice(session: SessionAmount): string {
  const price = googlePayPriceOf(session.amount, session.currency);
  if (price === undefined) throw new Error(`session ${session.id}: ${session.amount} ${session.currency} is no Google Pay price; googlePayAmountRefusal must refuse it first`);
  return price;
}

function merchantInfo(app: App, context: PaymentRequestContext): PaymentDataRequest['merchantInfo'] {
  if (app.googlePayMode === 'platform') {
    // The route refuses a platform app's session before this when no platform is configured.
    if (!context.platform) throw new Error(`app ${app.id} is in platform mode but no platform authorization was given`);
    const { merchantId, merchantOrigin, authJwt } = context.platform;
    return { merchantName: app.name, merchantId, merchantOrigin, authJwt } satisfies GoogleMerchantInfo;
  }
  return {
    merchantName: app.name,
    // Google's id, never the payment service's: required in PRODUCTION and for DIRECT tokens (NewApp checks it).
    ...(app.googleMerchantId && { merchantId: app.googleMerchantId }),
  } satisfies GoogleMerchantInfo;
}
