/**
 * The Google Pay PaymentDataRequest of a session, built from its application's
 * configuration and its amount: by the backend for every real session, and by
 * whoever shows the widget with a session of its own making (the demo's widget
 * gallery, the tests' sandbox wallet), so the two cannot drift apart.
 */
import { googlePayPriceOf } from './currency';
import type { AskedContact, AskedShipping, AskedShippingOption, LineItem, LineItemKind } from './express';
import { type AuthMethod, type CardNetwork, type CardPaymentMethod, type DecryptionMode, gatewayMerchantId, type PaymentDataRequest, type TokenizationSpecification } from './google-pay';
import type { GoogleMerchantInfo, GooglePaymentDataRequest } from './google-pay-types';
import type { QuotedTransactionInfo } from './quotes';

/** What of an application the request is built from (the backend's App has these and more). */
export interface PaymentRequestApp {
  id: string;
  name: string;
  /** The payment service's merchant id. */
  merchantId: string;
  /** The merchant id Google issued, if any. */
  googleMerchantId: string | undefined;
  authMethods: AuthMethod[];
  cardNetworks: CardNetwork[];
  decryptionMode: DecryptionMode;
  /** Whose Google merchant account asks: the merchant's own, or the platform's (docs/platform.md). */
  googlePayMode: 'merchant' | 'platform';
}

/** The MerchantInfo fields a platform adds to a request (Google Pay for platforms: our Google merchant id, the authJwt vouching for the page's site). */
export interface PlatformAuthorization {
  merchantId: string;
  merchantOrigin: string;
  authJwt: string;
}

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
  /** What the sheet shows the amount is made of; none when absent. */
  lineItems?: readonly LineItem[];
  /** The shipping address the sheet asks for, and the delivery options it offers (none when absent); none when absent or null. */
  shipping?: (Omit<AskedShipping, 'options'> & { options?: readonly AskedShippingOption[] }) | null;
  /** The contact details the sheet asks for; none when absent or null. */
  contact?: AskedContact | null;
}

/** Google Pay's DisplayItem type of each kind of line. */
const DISPLAY_ITEM_TYPES = { item: 'LINE_ITEM', tax: 'TAX', discount: 'DISCOUNT', shipping: 'SHIPPING_OPTION' } as const satisfies Record<LineItemKind, google.payments.api.DisplayItemType>;

function tokenization(app: PaymentRequestApp, context: PaymentRequestContext): TokenizationSpecification {
  if (app.decryptionMode === 'direct' && context.directPublicKey) {
    return { type: 'DIRECT', parameters: { protocolVersion: 'ECv2' as const, publicKey: context.directPublicKey } } satisfies google.payments.api.DirectTokenizationSpecification;
  }
  return {
    type: 'PAYMENT_GATEWAY',
    parameters: { gateway: context.gatewayName, gatewayMerchantId: gatewayMerchantId(app.merchantId) },
  } satisfies google.payments.api.PaymentGatewayTokenizationSpecification;
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
export function buildPaymentDataRequest(app: PaymentRequestApp, session: SessionAmount, context: PaymentRequestContext): PaymentDataRequest {
  const { shipping, contact } = session;
  const options = shipping?.options ?? [];
  const [defaultOption] = options;
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
          billingAddressParameters: contact?.phone ? { ...billingAddressParameters, phoneNumberRequired: true } : billingAddressParameters,
          assuranceDetailsRequired: true,
        },
        tokenizationSpecification: tokenization(app, context),
      },
    ],
    merchantInfo: merchantInfo(app, context),
    transactionInfo: {
      // With delivery options the total is the default option's until the server quotes the shopper's address.
      totalPriceStatus: defaultOption ? 'ESTIMATED' : 'FINAL',
      totalPrice: priceOf(session.amount + (defaultOption?.amount ?? 0), session.currency, session.id),
      currencyCode: session.currency,
      countryCode: session.countryCode,
      transactionId: session.id,
      // The widget charges as soon as the sheet returns: nothing is left to confirm on the page. Google allows it only with a FINAL total.
      ...(!defaultOption && { checkoutOption: 'COMPLETE_IMMEDIATE_PURCHASE' as const }),
      ...(displayItemsWith(session, defaultOption) ?? {}),
    },
    ...(contact?.email && { emailRequired: true }),
    ...(shipping && { shippingAddressRequired: true, shippingAddressParameters: { allowedCountryCodes: shipping.countries, phoneNumberRequired: shipping.phone } }),
    ...(defaultOption && { shippingOptionRequired: true, shippingOptionParameters: shippingOptionParameters(options, defaultOption.id) }),
    // The widget answers onPaymentAuthorized with the charge's outcome; where it cannot, it drops this (docs/embedding.md).
    // With delivery options, every change of address or option is relayed to the server for its quote (onPaymentDataChanged).
    callbackIntents: defaultOption ? ['PAYMENT_AUTHORIZATION', 'SHIPPING_ADDRESS', 'SHIPPING_OPTION'] : ['PAYMENT_AUTHORIZATION'],
  } satisfies GooglePaymentDataRequest;
}

/** The display items of the session with `option` chosen: its line items, then the option's line; none when both are absent. */
function displayItemsWith(session: SessionAmount, option: AskedShippingOption | undefined): { displayItems: google.payments.api.DisplayItem[] } | undefined {
  const lines = (session.lineItems ?? []).map((item) => displayItem(item, session.currency));
  if (option) lines.push({ label: option.label, type: 'SHIPPING_OPTION', price: priceOf(option.amount, session.currency, session.id), status: 'FINAL' });
  return lines.length > 0 ? { displayItems: lines } : undefined;
}

/** The options as Google's sheet lists them, `selected` selected. */
export function shippingOptionParameters(options: readonly AskedShippingOption[], selected: string): { defaultSelectedOptionId: string; shippingOptions: google.payments.api.SelectionOption[] } {
  return { defaultSelectedOptionId: selected, shippingOptions: options.map((option) => ({ id: option.id, label: option.label, ...(option.detail !== undefined && { description: option.detail }) })) };
}

/** The session's total with `option` chosen, as a quote gives it to Google: FINAL, the option on its own line. */
export function quotedTransactionInfo(session: SessionAmount, option: AskedShippingOption): QuotedTransactionInfo {
  return {
    currencyCode: session.currency,
    countryCode: session.countryCode,
    totalPriceStatus: 'FINAL',
    totalPrice: priceOf(session.amount + option.amount, session.currency, session.id),
    displayItems: displayItemsWith(session, option)?.displayItems ?? [],
  };
}

/** Google's price for an amount of the session's; sessions it cannot show are refused before any request is built (googlePayAmountRefusal, server/checkout/payment-request.ts; CreateSessionBody for options). */
function priceOf(amount: number, currency: string, sessionId: string): string {
  const price = googlePayPriceOf(amount, currency);
  if (price === undefined) throw new Error(`session ${sessionId}: ${amount} ${currency} is no Google Pay price; googlePayAmountRefusal must refuse it first`);
  return price;
}

/** A line as Google's sheet shows it: a discount's price is negative, as Google's reference allows a DisplayItem's to be. */
function displayItem(item: LineItem, currency: string): google.payments.api.DisplayItem {
  const size = googlePayPriceOf(Math.abs(item.amount), currency);
  if (size === undefined) throw new Error(`line item ${item.label}: ${item.amount} ${currency} is no Google Pay price; CreateSessionBody must refuse it first`);
  return { label: item.label, type: DISPLAY_ITEM_TYPES[item.kind], price: item.amount < 0 ? `-${size}` : size, status: 'FINAL' };
}

function merchantInfo(app: PaymentRequestApp, context: PaymentRequestContext): PaymentDataRequest['merchantInfo'] {
  if (app.googlePayMode === 'platform') {
    // The route refuses a platform app's session before this when no platform is configured.
    if (!context.platform) throw new Error(`app ${app.id} is in platform mode but no platform authorization was given`);
    const { merchantId, merchantOrigin, authJwt } = context.platform;
    return { merchantName: app.name, merchantId, merchantOrigin, authJwt } satisfies GoogleMerchantInfo;
  }
  return {
    merchantName: app.name,
    // Google's id, never the payment service's: required in PRODUCTION and for DIRECT tokens (the backend's NewApp checks it).
    ...(app.googleMerchantId && { merchantId: app.googleMerchantId }),
  } satisfies GoogleMerchantInfo;
}
