/**
 * The Google Pay PaymentDataRequest of a session, built from its application's
 * configuration and its amount: by the backend for every real session, and by
 * whoever shows the widget with a session of its own making (the demo's widget
 * gallery, the tests' sandbox wallet), so the two cannot drift apart.
 */
import { googlePayPriceOf } from './currency';
import type { AskedContact, AskedShipping, AskedShippingOption, LineItem, LineItemKind } from './express';
import { type AuthMethod, type CallbackIntent, type CardNetwork, type CardPaymentMethod, type DecryptionMode, gatewayMerchantId, type PaymentDataRequest, type TokenizationSpecification } from './google-pay';
import type { GoogleMerchantInfo, GooglePaymentDataRequest } from './google-pay-types';
import type { QuotePricing } from './quote-endpoint';
import type { QuotedTransactionInfo } from './quotes';
import type { SavePaymentMethod } from './saved-cards';

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
  /** Priced by the merchant's quote endpoint (and whether it takes promotion codes); the session's own prices when absent or null. */
  quotePricing?: QuotePricing | null;
  /** A session that keeps the card (docs/saved-cards.md): what for, and the agreement's text; none when absent or null. */
  saving?: SavingTerms | null;
}

/** What a session that keeps the card asks Google to show: its use and terms, the agreement's text, and whether it charges nothing now. */
export interface SavingTerms extends Pick<SavePaymentMethod, 'usage' | 'recurring' | 'reload' | 'description'> {
  agreement: string;
  /** Intent setup: nothing is charged today. */
  setup: boolean;
}

/** Google's RecurrencePeriod of each interval. */
const RECURRENCE_PERIODS = { day: 'DAY', week: 'WEEK', month: 'MONTH', year: 'YEAR' } as const;

/** The longest billingAgreement Google takes: a longer text is left to the widget alone. */
const MAX_BILLING_AGREEMENT = 300;

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
  const { shipping, contact, quotePricing } = session;
  const options = shipping?.options ?? [];
  const [defaultOption] = options;
  // With delivery options or the merchant's quote endpoint, the total is an estimate until the server quotes the sheet's choices.
  const estimated = defaultOption !== undefined || !!quotePricing;
  const offers = quotePricing?.promotion_codes === true;
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
    ...(futureTransactionOf(session) ?? {
      transactionInfo: {
        // With delivery options it is the default option's; with the merchant's quote endpoint, the amount until its first quote.
        totalPriceStatus: estimated ? 'ESTIMATED' : 'FINAL',
        totalPrice: priceOf(session.amount + (defaultOption?.amount ?? 0), session.currency, session.id),
        currencyCode: session.currency,
        countryCode: session.countryCode,
        transactionId: session.id,
        // The widget charges as soon as the sheet returns: nothing is left to confirm on the page. Google allows it only with a FINAL total.
        ...(!estimated && { checkoutOption: 'COMPLETE_IMMEDIATE_PURCHASE' as const }),
        ...(displayItemsWith(session, { option: defaultOption }) ?? {}),
      },
    }),
    ...(contact?.email && { emailRequired: true }),
    ...(shipping && { shippingAddressRequired: true, shippingAddressParameters: { allowedCountryCodes: shipping.countries, phoneNumberRequired: shipping.phone } }),
    ...(defaultOption && { shippingOptionRequired: true, shippingOptionParameters: shippingOptionParameters(options, defaultOption.id) }),
    // No code is applied when the sheet opens: each one the shopper enters is accepted or refused by a quote.
    ...(offers && { offerInfo: { offers: [] } }),
    callbackIntents: callbackIntentsOf(session),
  } satisfies GooglePaymentDataRequest;
}

/**
 * A session that keeps the card for a subscription or a reload asks Google with the object for that use in
 * place of transactionInfo (Google takes exactly one): what is charged today (its amount; "0.00" for a setup,
 * which Google's reference allows these objects, never a transactionInfo total of 0), the terms, and the
 * agreement's text. A card kept for unscheduled charges has no such object: its payment is an ordinary one
 * (undefined here), and the widget shows the agreement.
 */
function futureTransactionOf(session: SessionAmount): Pick<PaymentDataRequest, 'recurringTransactionInfo' | 'automaticReloadTransactionInfo'> | undefined {
  const saving = session.saving;
  if (!saving || saving.usage === 'unscheduled') return undefined;
  const price = (amount: number) => priceOf(amount, session.currency, session.id);
  const shared = {
    currencyCode: session.currency,
    countryCode: session.countryCode,
    transactionId: session.id,
    ...(saving.agreement.length <= MAX_BILLING_AGREEMENT && { billingAgreement: saving.agreement }),
    immediateTotalPrice: price(saving.setup ? 0 : session.amount),
  };
  if (saving.recurring) {
    const { interval, interval_count: count, amount, label } = saving.recurring;
    const item = { label: label ?? saving.description ?? 'Subscription', priceStatus: 'FINAL' as const, recurrencePeriod: RECURRENCE_PERIODS[interval], recurrencePeriodCount: count, price: price(amount) };
    return { recurringTransactionInfo: { ...shared, recurrenceItems: [item] } };
  }
  if (!saving.reload) throw new Error(`session ${session.id}: usage reload without its terms; SavePaymentMethod must refuse it first`);
  const { threshold, amount, label } = saving.reload;
  return { automaticReloadTransactionInfo: { ...shared, minimumBalanceAmount: price(threshold), reloadAmount: price(amount), label: label ?? saving.description ?? 'Automatic reload' } };
}

/**
 * The widget answers onPaymentAuthorized with the charge's outcome; where it cannot, it drops it (docs/embedding.md).
 * Every change that can move the price calls onPaymentDataChanged, relayed to the server for its quote: the address and
 * the option with delivery options, the address with the merchant's quote endpoint, a promotion code where the session takes them.
 */
function callbackIntentsOf({ shipping, quotePricing }: SessionAmount): CallbackIntent[] {
  const withOptions = (shipping?.options ?? []).length > 0;
  return [
    'PAYMENT_AUTHORIZATION',
    ...(shipping && (withOptions || quotePricing) ? (['SHIPPING_ADDRESS'] as const) : []),
    ...(withOptions ? (['SHIPPING_OPTION'] as const) : []),
    ...(quotePricing?.promotion_codes ? (['OFFER'] as const) : []),
  ];
}

/** What a quote adds to the session's amount, each on a line of its own: the delivery option, the tax, the promotion codes' discounts (positive amounts, taken off). */
export interface QuoteParts {
  option?: { label: string; amount: number } | undefined;
  tax?: number;
  discounts?: readonly { label: string; amount: number }[];
}

/** The total a quote charges: the session's amount, plus the option and the tax, less the discounts. */
export const quoteTotal = (amount: number, { option, tax = 0, discounts = [] }: QuoteParts): number =>
  amount + (option?.amount ?? 0) + tax - discounts.reduce((sum, discount) => sum + discount.amount, 0);

/** The display items of the session with a quote's `parts`: its line items, then the option's, the tax's and each discount's line; none when there are none. */
function displayItemsWith(session: SessionAmount, { option, tax = 0, discounts = [] }: QuoteParts): { displayItems: google.payments.api.DisplayItem[] } | undefined {
  const lines = (session.lineItems ?? []).map((item) => displayItem(item, session.currency));
  if (option) lines.push({ label: option.label, type: 'SHIPPING_OPTION', price: priceOf(option.amount, session.currency, session.id), status: 'FINAL' });
  if (tax > 0) lines.push({ label: 'Tax', type: 'TAX', price: priceOf(tax, session.currency, session.id), status: 'FINAL' });
  for (const discount of discounts) lines.push({ label: discount.label, type: 'DISCOUNT', price: `-${priceOf(discount.amount, session.currency, session.id)}`, status: 'FINAL' });
  return lines.length > 0 ? { displayItems: lines } : undefined;
}

/** The options as Google's sheet lists them, `selected` selected. */
export function shippingOptionParameters(options: readonly AskedShippingOption[], selected: string): { defaultSelectedOptionId: string; shippingOptions: google.payments.api.SelectionOption[] } {
  return { defaultSelectedOptionId: selected, shippingOptions: options.map((option) => ({ id: option.id, label: option.label, ...(option.detail !== undefined && { description: option.detail }) })) };
}

/** The session's total with a quote's `parts`, as the quote gives it to Google: FINAL, each part on its own line. */
export function quotedTransactionInfo(session: SessionAmount, parts: QuoteParts): QuotedTransactionInfo {
  return {
    currencyCode: session.currency,
    countryCode: session.countryCode,
    totalPriceStatus: 'FINAL',
    totalPrice: priceOf(quoteTotal(session.amount, parts), session.currency, session.id),
    displayItems: displayItemsWith(session, parts)?.displayItems ?? [],
  };
}

/**
 * Google's price for an amount of the session's; sessions it cannot show are refused before any request is built (googlePayAmountRefusal,
 * server/checkout/payment-request.ts; CreateSessionBody for options), and a merchant's quote before it is turned into an update (server/checkout/quote-pricing.ts).
 */
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
