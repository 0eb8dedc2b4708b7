/**
 * What the sandbox service shares with its clients: the key a backend calls it
 * with, and what its wallet's server side tells the wallet's script
 * (sandbox/pay-js) and the tests, the cards its sheet offers.
 */
import { z } from 'zod';
import { CountryCode } from './country';
import { AuthMethod, CardNetwork, PaymentData, PaymentDataRequest, TransactionInfo, WalletAddress } from './google-pay';

/** A sandbox service key; `sk_sandbox_` so that NODE_ENV=production refuses it as a payment service key. */
export const SandboxServiceKey = z.string().regex(/^sk_sandbox_[A-Za-z0-9_-]{32,}$/, 'sk_sandbox_ followed by at least 32 characters of A-Z a-z 0-9 _ -');

/** What the issuer answers once any 3-D Secure it asks for is done. */
export const CardOutcome = z.enum([
  'success',
  'card_declined',
  'insufficient_funds',
  'expired_card',
  'processing_error',
  'invalid_number',
  'fraudulent',
  'lost_card',
  'stolen_card',
  'incorrect_cvc',
  'do_not_honor',
]);
export type CardOutcome = z.infer<typeof CardOutcome>;

/** How an Authentication Session on a card runs: the issuer asks the shopper, or decides alone. */
export const ThreeDsFlow = z.enum(['challenge', 'frictionless']);
export type ThreeDsFlow = z.infer<typeof ThreeDsFlow>;

/**
 * What a test card is for, by which the sheet groups its cards: paying, a decline, 3-D Secure, what
 * follows the payment (an issuer late to answer, a refused capture, a failed refund), address
 * verification, and the merchant's later charges on a kept card.
 */
export const WalletCardGroup = z.enum(['success', 'decline', 'three_ds', 'after_payment', 'address_verification', 'merchant_initiated']);
export type WalletCardGroup = z.infer<typeof WalletCardGroup>;

export const WalletCard = z
  .object({
    id: z.string(),
    label: z.string(),
    network: CardNetwork,
    last4: z.string(),
    auth_method: AuthMethod,
    outcome: CardOutcome,
    /** PAN_ONLY cards the issuer authenticates first, and how; null otherwise. */
    three_ds: ThreeDsFlow.nullable(),
    group: WalletCardGroup,
  })
  .meta({ id: 'SandboxWalletCard' });
export type WalletCard = z.infer<typeof WalletCard>;

const addressChoice = (id: string) => z.object({ id: z.string(), label: z.string(), address: WalletAddress }).meta({ id });

/** One of the fictional billing addresses the sandbox wallet offers (docs/test-cards.md#billing-addresses). */
export const WalletBillingAddress = addressChoice('SandboxWalletBillingAddress');
export type WalletBillingAddress = z.infer<typeof WalletBillingAddress>;

/** One of the fictional shipping addresses the sandbox wallet offers (docs/test-cards.md#shipping-addresses). */
export const WalletShippingAddress = addressChoice('SandboxWalletShippingAddress');
export type WalletShippingAddress = z.infer<typeof WalletShippingAddress>;

/**
 * GET /sandbox/wallet/cards: what the sandbox wallet's sheet offers, the cards, the billing addresses
 * (the first is the default) and the shipping addresses (the first the request's allowedCountryCodes allow is).
 */
export const WalletCardsReply = z
  .object({ cards: z.array(WalletCard), billing_addresses: z.array(WalletBillingAddress), shipping_addresses: z.array(WalletShippingAddress) })
  .meta({ id: 'SandboxWalletCards' });
export type WalletCardsReply = z.infer<typeof WalletCardsReply>;

const choiceId = z.string().min(1).max(100);

/**
 * The request as the sandbox wallet takes it from any merchant, not only from our server's builder:
 * an express checkout's too, its total maybe estimated, its shipping asked for, any callback intent.
 */
const WalletPaymentDataRequest = PaymentDataRequest.extend({
  transactionInfo: TransactionInfo.extend({
    totalPriceStatus: z.enum(['NOT_CURRENTLY_KNOWN', 'ESTIMATED', 'FINAL']),
    totalPrice: z.string().optional(),
  }).optional(),
  callbackIntents: z.array(z.enum(['OFFER', 'PAYMENT_AUTHORIZATION', 'PAYMENT_METHOD', 'SHIPPING_ADDRESS', 'SHIPPING_OPTION'])).optional(),
  shippingAddressRequired: z.boolean().optional(),
  shippingAddressParameters: z.object({ allowedCountryCodes: z.array(CountryCode).min(1).optional(), phoneNumberRequired: z.boolean().optional() }).optional(),
  shippingOptionRequired: z.boolean().optional(),
});

/** POST /sandbox/wallet/tokens: what the sheet sends once the shopper picked a card (`id` of GET /sandbox/wallet/cards). */
export const WalletTokenRequest = z
  .strictObject({
    card_id: choiceId,
    /** One of GET /sandbox/wallet/cards' `billing_addresses`; the first when absent. */
    billing_address_id: choiceId.optional(),
    /** With shippingAddressRequired: one of `shipping_addresses` the request's allowedCountryCodes allow; the first of them when absent. */
    shipping_address_id: choiceId.optional(),
    /** With shippingOptionRequired: the option the shopper chose in the sheet (required then), of the merchant's latest list. */
    shipping_option_id: choiceId.optional(),
    /** The offers applied in the sheet, returned as `offerData` when the request declares OFFER. */
    redemption_codes: z.array(choiceId).max(20).optional(),
    payment_data_request: WalletPaymentDataRequest,
  })
  .meta({ id: 'SandboxWalletTokenRequest' });
export type WalletTokenRequest = z.infer<typeof WalletTokenRequest>;

/** The reply to POST /sandbox/wallet/tokens: the PaymentData the real wallet would return, with a real ECv2 token. */
export const WalletTokenReply = z.object({ payment_data: PaymentData }).meta({ id: 'SandboxWalletToken' });
export type WalletTokenReply = z.infer<typeof WalletTokenReply>;
