/**
 * The Google Pay API objects we exchange with the wallet, as zod schemas.
 * The request is built on the server (contracts/payment-data-request.ts); the
 * PaymentData is what the wallet returns and the widget posts to /pay.
 * Reference: https://developers.google.com/pay/api/web/reference/request-objects
 */
import { z } from 'zod';
import { CountryCode } from './country';
import { googleMerchantIdPattern } from './google-merchant-id';
import { authMethods, cardNetworks } from './payment-methods';

export { authMethods, cardNetworks };

export const AuthMethod = z.enum(authMethods);
export type AuthMethod = z.infer<typeof AuthMethod>;

export const CardNetwork = z.enum(cardNetworks);
export type CardNetwork = z.infer<typeof CardNetwork>;

export const WalletEnvironment = z.enum(['SANDBOX', 'TEST', 'PRODUCTION']);
export type WalletEnvironment = z.infer<typeof WalletEnvironment>;

/** How an application integrates: `gateway` forwards the wallet's encrypted payload to the service, `direct` decrypts it here (docs/direct-mode.md). */
export const DecryptionMode = z.enum(['gateway', 'direct']);
export type DecryptionMode = z.infer<typeof DecryptionMode>;

/**
 * The merchant id Google issued. Unrelated to the payment service's merchant id: it goes in
 * `merchantInfo.merchantId` and the direct-mode recipient `merchant:<id>` (docs/go-live.md).
 */
export const GoogleMerchantId = z.string().regex(googleMerchantIdPattern, 'a Google merchant id: 16 upper-case letters and digits, or 20 digits');

/** The gateway merchant id the payment service assigns a merchant (the charge API: `mrchnt_{merchant_id}`): what the wallet is asked to seal tokens for. */
export const gatewayMerchantId = (merchantId: string): string => `mrchnt_${merchantId}`;

export const TokenizationSpecification = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('PAYMENT_GATEWAY'),
    parameters: z.object({ gateway: z.string(), gatewayMerchantId: z.string() }),
  }),
  z.object({
    type: z.literal('DIRECT'),
    parameters: z.object({ protocolVersion: z.literal('ECv2'), publicKey: z.string() }),
  }),
]);
export type TokenizationSpecification = z.infer<typeof TokenizationSpecification>;

export const CardPaymentMethod = z.object({
  type: z.literal('CARD'),
  parameters: z.object({
    allowedAuthMethods: z.array(AuthMethod).min(1),
    allowedCardNetworks: z.array(CardNetwork).min(1),
    /** Google's default is false: a request that leaves it out asks for no billing address. */
    billingAddressRequired: z.boolean().optional(),
    billingAddressParameters: z.object({ format: z.enum(['MIN', 'FULL']), phoneNumberRequired: z.boolean().optional() }).optional(),
    /** Asks the wallet for `info.assuranceDetails`: what it verified about the card and its holder. */
    assuranceDetailsRequired: z.boolean().optional(),
  }),
  tokenizationSpecification: TokenizationSpecification,
});
export type CardPaymentMethod = z.infer<typeof CardPaymentMethod>;

/**
 * Google's MerchantInfo. A platform (Google Pay for platforms) names itself
 * with its own `merchantId` and vouches for the merchant's site with
 * `merchantOrigin` and `authJwt` (docs/platform.md).
 */
export const MerchantInfo = z.object({
  merchantName: z.string(),
  merchantId: z.string().optional(),
  merchantOrigin: z.string().optional(),
  authJwt: z.string().optional(),
});
export type MerchantInfo = z.infer<typeof MerchantInfo>;

/**
 * The payment data callbacks the request declares. PAYMENT_AUTHORIZATION keeps
 * the sheet open while the backend charges, so a decline is shown in the sheet;
 * SHIPPING_ADDRESS, SHIPPING_OPTION (a session with delivery options, or priced by
 * the merchant's quote endpoint) and OFFER (promotion codes) call
 * onPaymentDataChanged, which the widget relays to the server for a quote.
 */
export const CallbackIntent = z.enum(['PAYMENT_AUTHORIZATION', 'SHIPPING_ADDRESS', 'SHIPPING_OPTION', 'OFFER']);
export type CallbackIntent = z.infer<typeof CallbackIntent>;

/** A Google Pay DisplayItem: one line of what the total is made of. */
export const DisplayItem = z.object({ label: z.string(), type: z.enum(['LINE_ITEM', 'SUBTOTAL', 'TAX', 'DISCOUNT', 'SHIPPING_OPTION']), price: z.string(), status: z.enum(['FINAL', 'PENDING']).optional() });
export type DisplayItem = z.infer<typeof DisplayItem>;

/** Google's ShippingOptionParameters: the options the sheet lists, and the one selected (the first when none is named, as Google's reference says). */
export const ShippingOptionParameters = z.object({
  defaultSelectedOptionId: z.string().optional(),
  shippingOptions: z.array(z.object({ id: z.string(), label: z.string(), description: z.string().optional() })),
});
export type ShippingOptionParameters = z.infer<typeof ShippingOptionParameters>;

/** Google's OfferInfo: the promotion codes applied, each with what the sheet shows of it. */
export const OfferInfo = z.object({ offers: z.array(z.object({ redemptionCode: z.string(), description: z.string() })) });
export type OfferInfo = z.infer<typeof OfferInfo>;

/** Google's TransactionInfo: a payment's total, charged (or held) now. */
export const TransactionInfo = z.object({
  /** ESTIMATED for a session with delivery options until the server's quote for the address (then FINAL); FINAL otherwise. */
  totalPriceStatus: z.enum(['FINAL', 'ESTIMATED']),
  totalPrice: z.string(),
  currencyCode: z.string(),
  countryCode: z.string(),
  /** Our checkout session's id: the same payment in Google's records and ours. */
  transactionId: z.string().optional(),
  /** COMPLETE_IMMEDIATE_PURCHASE: the sheet's button reads "Pay" (the widget charges as soon as it returns), not "Continue". Absent with an ESTIMATED total, which Google does not allow it with. */
  checkoutOption: z.enum(['DEFAULT', 'COMPLETE_IMMEDIATE_PURCHASE']).optional(),
  /** What the amount is made of, as the sheet shows it (the session's line items, and the delivery option's price). */
  displayItems: z.array(DisplayItem).optional(),
});
export type TransactionInfo = z.infer<typeof TransactionInfo>;

/** What Google's three merchant-initiated transaction objects share: who asks, what is charged today, and the agreement the sheet shows. */
const futureTransaction = {
  currencyCode: z.string(),
  countryCode: z.string(),
  transactionId: z.string().optional(),
  /** The agreement's text (at most 300 characters), shown in the sheet; absent when the text is longer. */
  billingAgreement: z.string().max(300).optional(),
  /** What is charged today: "0.00" when nothing is (intent setup). */
  immediateTotalPrice: z.string(),
};

/** Google's RecurrencePeriodItem as the server asks for a subscription: one period, at a FINAL price. */
export const RecurrencePeriodItem = z.object({
  label: z.string(),
  priceStatus: z.literal('FINAL'),
  recurrencePeriod: z.enum(['DAY', 'WEEK', 'MONTH', 'YEAR']),
  recurrencePeriodCount: z.number().int(),
  price: z.string(),
});

/** Google's RecurringTransactionInfo: a card kept for a subscription (a session saving it for usage `recurring`). */
export const RecurringTransactionInfo = z.object({ ...futureTransaction, recurrenceItems: z.array(RecurrencePeriodItem).min(1) });
export type RecurringTransactionInfo = z.infer<typeof RecurringTransactionInfo>;

/** Google's AutomaticReloadTransactionInfo: a card kept to top a balance up (usage `reload`). */
export const AutomaticReloadTransactionInfo = z.object({ ...futureTransaction, minimumBalanceAmount: z.string(), reloadAmount: z.string(), label: z.string() });
export type AutomaticReloadTransactionInfo = z.infer<typeof AutomaticReloadTransactionInfo>;

/**
 * Exactly one of `transactionInfo`, `recurringTransactionInfo` and `automaticReloadTransactionInfo` (Google's
 * rule, GP15): a session that keeps the card for a subscription or a reload asks with the second or the third.
 */
export const PaymentDataRequest = z.object({
  apiVersion: z.literal(2),
  apiVersionMinor: z.literal(0),
  allowedPaymentMethods: z.array(CardPaymentMethod).min(1),
  merchantInfo: MerchantInfo,
  transactionInfo: TransactionInfo.optional(),
  recurringTransactionInfo: RecurringTransactionInfo.optional(),
  automaticReloadTransactionInfo: AutomaticReloadTransactionInfo.optional(),
  /** Asks the wallet for the shopper's e-mail (PaymentData `email`, returned only then). */
  emailRequired: z.boolean().optional(),
  /** Asks the wallet for a shipping address (PaymentData `shippingAddress`), in `allowedCountryCodes` only, its phone when `phoneNumberRequired`. */
  shippingAddressRequired: z.boolean().optional(),
  shippingAddressParameters: z.object({ allowedCountryCodes: z.array(CountryCode).min(1).optional(), phoneNumberRequired: z.boolean().optional() }).optional(),
  /** A session with delivery options: the sheet asks for one (PaymentData `shippingOptionData`). */
  shippingOptionRequired: z.boolean().optional(),
  shippingOptionParameters: ShippingOptionParameters.optional(),
  /** A session that takes promotion codes: the codes applied (none when the sheet opens); the sheet shows a field to enter one. */
  offerInfo: OfferInfo.optional(),
  callbackIntents: z.array(CallbackIntent).optional(),
});
export type PaymentDataRequest = z.infer<typeof PaymentDataRequest>;

/**
 * The claims of a platform's `merchantInfo.authJwt` (ES256): the platform's
 * Google merchant id and the merchant's origin it vouches for, and its life.
 * The platform signs them (server/checkout/platform.ts); the wallet checks them
 * (sandbox/platform-check.ts, as Google does).
 */
export const PlatformAuthClaims = z.object({
  merchantId: z.string().min(1),
  merchantOrigin: z.string().min(1),
  iat: z.number().int(),
  exp: z.number().int(),
});
export type PlatformAuthClaims = z.infer<typeof PlatformAuthClaims>;

/** What the wallet verified about the card (`assuranceDetailsRequired`), as Google returns it. */
export const AssuranceDetails = z.object({ accountVerified: z.boolean().optional(), cardHolderAuthenticated: z.boolean().optional() });
export type AssuranceDetails = z.infer<typeof AssuranceDetails>;

/** The wallet's billing address (format FULL). Every field but the country may be absent. */
export const WalletAddress = z.object({
  name: z.string().max(300).optional(),
  address1: z.string().max(300).optional(),
  address2: z.string().max(300).optional(),
  address3: z.string().max(300).optional(),
  locality: z.string().max(100).optional(),
  administrativeArea: z.string().max(100).optional(),
  countryCode: CountryCode,
  postalCode: z.string().max(20).optional(),
  sortingCode: z.string().max(20).optional(),
  phoneNumber: z.string().max(40).optional(),
});
export type WalletAddress = z.infer<typeof WalletAddress>;

/**
 * The PaymentData the wallet returns, as the widget posts it. Only what we use
 * is checked strictly; the token itself is parsed separately (contracts/ecv2.ts)
 * because it arrives as a JSON string.
 */
export const PaymentData = z.object({
  apiVersion: z.literal(2),
  apiVersionMinor: z.literal(0),
  email: z.string().max(320).optional(),
  paymentMethodData: z.object({
    type: z.literal('CARD'),
    description: z.string().max(200).optional(),
    info: z.object({
      cardNetwork: CardNetwork,
      cardDetails: z.string().regex(/^\d{4}$/),
      assuranceDetails: AssuranceDetails.optional(),
      billingAddress: WalletAddress.optional(),
    }),
    tokenizationData: z.object({
      type: z.enum(['PAYMENT_GATEWAY', 'DIRECT']),
      token: z.string().min(2).max(16_384),
    }),
  }),
  /** With shippingAddressRequired: the full address, given only once the shopper paid (the callbacks saw it redacted). */
  shippingAddress: WalletAddress.optional(),
  /** With shippingOptionRequired: the option the shopper chose. */
  shippingOptionData: z.object({ id: z.string().max(100) }).optional(),
  /** With the OFFER intent: the codes of the offers applied in the sheet. */
  offerData: z.object({ redemptionCodes: z.array(z.string().max(100)).max(20) }).optional(),
});
export type PaymentData = z.infer<typeof PaymentData>;
