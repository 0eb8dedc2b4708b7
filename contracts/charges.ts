/**
 * The payment service's charge API: the request exactly as its document writes it
 * (`source_data` with `walletpay` or `network_token`, integer `amount`,
 * lowercase `currency`), plus the conventions the document leaves unshown and
 * the sandbox owns (billing fields, the charge object, the error shape).
 * See docs/service-conventions.md.
 */
import { z } from 'zod';
import { CountryCode } from './country';
import { EcV2Token } from './ecv2';
import { isPaymentCurrency } from './currency';
import { AuthMethod, CardNetwork } from './google-pay';
import { MERCHANT_CHARGE_REASONS, SAVED_CARD_USAGES } from './agreements';

export const NetworkToken = z.strictObject({
  token: z.string().regex(/^\d{12,19}$/),
  token_type: z.literal('walletpay'),
  expiry_month: z.string().regex(/^(0[1-9]|1[0-2])$/),
  expiry_year: z.string().regex(/^\d{4}$/),
  /**
   * Present for CRYPTOGRAM_3DS tokens; a PAN_ONLY token has no cryptogram to send. `eci` only when the
   * wallet gave one (Google's eciIndicator is optional): never empty, never made up (docs/direct-mode.md).
   */
  three_ds: z.strictObject({ eci: z.string().regex(/^\d{1,2}$/, 'one or two digits').optional(), cryptogram: z.string().min(1).max(200) }).optional(),
});
export type NetworkToken = z.infer<typeof NetworkToken>;

/** A payment method the service created from an earlier wallet charge (`Charge.payment_method`). */
export const PaymentMethodId = z.string().regex(/^pm_[A-Za-z0-9]{1,64}$/, 'a payment method id (pm_...)');

export const AuthenticationSessionId = z.string().regex(/^as_[A-Za-z0-9]{1,64}$/, 'an authentication session id (as_...)');

/**
 * The charge API's two wallet sources, and a third of the sandbox's conventions:
 * `payment_method`, to charge a card the service already holds once a 3-D
 * Secure Authentication Session has been run on it (docs/service-conventions.md).
 */
export const SourceData = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('walletpay'), walletpay: EcV2Token }),
  z.strictObject({ type: z.literal('network_token'), network_token: NetworkToken }),
  z.strictObject({ type: z.literal('payment_method'), payment_method: PaymentMethodId }),
]);
export type SourceData = z.infer<typeof SourceData>;

/** Billing fields filled from the wallet's billing address (rule 2 of the charge API's document). */
export const BillingDetails = z.strictObject({
  name: z.string().max(300).optional(),
  phone: z.string().max(40).optional(),
  address: z.strictObject({
    line1: z.string().max(300).optional(),
    line2: z.string().max(300).optional(),
    line3: z.string().max(300).optional(),
    city: z.string().max(100).optional(),
    state: z.string().max(100).optional(),
    postal_code: z.string().max(20).optional(),
    sorting_code: z.string().max(20).optional(),
    country: CountryCode,
  }),
});
export type BillingDetails = z.infer<typeof BillingDetails>;

export const Currency = z
  .string()
  .regex(/^[a-z]{3}$/, 'currency must be a lowercase ISO 4217 code')
  .refine(isPaymentCurrency, 'currency must be an active ISO 4217 currency');

/**
 * A stored credential, as the card networks name the use of a kept card (docs/service-conventions.md, a
 * convention of ours): `customer`, the customer-initiated transaction that keeps the card for `usage` (the
 * shopper present, who agreed to it); `merchant`, a later charge without the shopper, for `reason`, naming
 * the network's reference of that first transaction.
 */
export const StoredCredential = z.discriminatedUnion('initiator', [
  z.strictObject({ initiator: z.literal('customer'), usage: z.enum(SAVED_CARD_USAGES) }),
  z.strictObject({ initiator: z.literal('merchant'), reason: z.enum(MERCHANT_CHARGE_REASONS), network_transaction_reference: z.string().min(1).max(100) }),
]).meta({ id: 'StoredCredential' });
export type StoredCredential = z.infer<typeof StoredCredential>;

export const ChargeRequest = z.strictObject({
  source_data: SourceData,
  /** Positive; 0 only for an account verification: the customer-initiated charge that keeps a card without charging it (a setup). */
  amount: z.number().int().nonnegative().max(99_999_999_999),
  currency: Currency,
  billing_details: BillingDetails.optional(),
  description: z.string().max(500).optional(),
  metadata: z.record(z.string().max(40), z.string().max(500)).optional(),
  /** false places a hold (status `held`) to capture or release later; default true. */
  capture: z.boolean().optional(),
  /** `required`: the merchant asks for 3-D Secure on every PAN_ONLY card, whatever the issuer says. */
  authentication: z.literal('required').optional(),
  /** With a `payment_method` source: the authenticated session that makes the charge 3-D Secure. */
  authentication_session: AuthenticationSessionId.optional(),
  /** The use of a kept card: the first payment that keeps it (`customer`), or a later one without the shopper (`merchant`). */
  stored_credential: StoredCredential.optional(),
}).superRefine((request, ctx) => {
  const verification = request.stored_credential?.initiator === 'customer' && request.capture !== false;
  if (request.amount === 0 && !verification) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'must be positive: 0 is only an account verification, a charge that keeps the card (stored_credential.initiator customer), not held' });
  if (request.stored_credential?.initiator === 'merchant' && request.source_data.type !== 'payment_method') {
    ctx.addIssue({ code: 'custom', path: ['stored_credential'], message: 'a merchant-initiated charge is made on a kept payment method (source_data.type payment_method)' });
  }
  if (request.stored_credential?.initiator === 'merchant' && request.authentication_session !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['authentication_session'], message: 'a merchant-initiated charge is made without the shopper: it carries no authentication' });
  }
}).meta({ id: 'ChargeRequest' });
export type ChargeRequest = z.infer<typeof ChargeRequest>;

/** succeeded: captured (at once, or a hold later); held: authorized, not captured; released: a hold let go. */
/**
 * How long a hold (`capture: false`) can be captured: an authorization the
 * card networks let lapse after about a week (the sandbox's convention,
 * docs/service-conventions.md). After it the service refuses a capture with
 * `hold_expired`; a release still ends the hold.
 */
export const HOLD_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export const ChargeStatus = z.enum(['succeeded', 'failed', 'held', 'released']).meta({ id: 'ChargeStatus' });
export type ChargeStatus = z.infer<typeof ChargeStatus>;

/** What the card behind a charge can safely be shown as: never the number. */
export const CardSummary = z.object({
  network: CardNetwork,
  last4: z.string().regex(/^\d{4}$/),
  auth_method: AuthMethod,
  exp_month: z.number().int(),
  exp_year: z.number().int(),
}).meta({ id: 'Card' });
export type CardSummary = z.infer<typeof CardSummary>;

/**
 * The card issuer's address verification (AVS) of one field of the billing
 * details a charge request sent, against the cardholder's address it has on
 * record: `match`, `mismatch`, or `unavailable` (the issuer does not verify
 * addresses, or could not). Null when the request did not send the field.
 * The sandbox's convention (docs/service-conventions.md#address-verification);
 * the service client reads it into the merchant's shape (`addressVerificationOf`).
 */
export const AddressCheckResult = z.enum(['match', 'mismatch', 'unavailable']);
export type AddressCheckResult = z.infer<typeof AddressCheckResult>;

export const Charge = z.object({
  id: z.string(),
  object: z.literal('charge'),
  status: ChargeStatus,
  amount: z.number().int(),
  currency: Currency,
  source_type: z.enum(['walletpay', 'network_token', 'payment_method']),
  /** What has been captured: `amount` for a charge, 0 for a hold until it is captured (all or part). */
  amount_captured: z.number().int(),
  card: CardSummary,
  /** The card as a payment method the service keeps (its public part is `card`); null when none was made. */
  payment_method: PaymentMethodId.nullable(),
  billing_details: BillingDetails.nullable(),
  /**
   * The issuer's address verification of `billing_details.address.line1` and `.postal_code`
   * (AddressCheckResult). Optional: a reply the service stored for an Idempotency-Key before it
   * verified addresses has neither, and reads as not verified.
   */
  address_line1_check: AddressCheckResult.nullable().optional().meta({
    description: "The card issuer's address verification of billing_details.address.line1 against the cardholder's address on record: match, mismatch, unavailable (not verified); null when the request sent no first line",
  }),
  address_postal_code_check: AddressCheckResult.nullable().optional().meta({
    description: "The card issuer's address verification of billing_details.address.postal_code against the cardholder's address on record: match, mismatch, unavailable (not verified); null when the request sent no postal code",
  }),
  failure_code: z.string().nullable(),
  failure_message: z.string().nullable(),
  /**
   * The card network's reference of the transaction, for a charge the issuer authorized; null for a decline.
   * Optional: a reply the service stored for an Idempotency-Key before it answered one has none.
   */
  network_transaction_reference: z.string().nullable().optional(),
  created: z.number().int(),
}).meta({ id: 'Charge' });
export type Charge = z.infer<typeof Charge>;

/** POST {base_url}/api/v1/charges/{id}/capture: all of a hold by default; the rest is released. */
export const CaptureRequest = z.strictObject({ amount: z.number().int().positive().max(99_999_999_999).optional() }).meta({ id: 'CaptureRequest' });
export type CaptureRequest = z.infer<typeof CaptureRequest>;

export const ApiErrorBody = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
}).meta({ id: 'ApiErrorBody' });
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;
