/**
 * The payment service's charge API: the request exactly as the seed writes it
 * (`source_data` with `walletpay` or `network_token`, integer `amount`,
 * lowercase `currency`), plus the conventions the seed leaves unshown and
 * the sandbox owns (billing fields, the charge object, the error shape).
 * See docs/service-conventions.md.
 */
import { z } from 'zod';
import { EcV2Token } from './ecv2';
import { AuthMethod, CardNetwork } from './google-pay';

export const NetworkToken = z.strictObject({
  token: z.string().regex(/^\d{12,19}$/),
  token_type: z.literal('walletpay'),
  expiry_month: z.string().regex(/^(0[1-9]|1[0-2])$/),
  expiry_year: z.string().regex(/^\d{4}$/),
  /** Present for CRYPTOGRAM_3DS tokens; a PAN_ONLY token has no cryptogram to send. */
  three_ds: z.strictObject({ eci: z.string().max(2), cryptogram: z.string().min(1).max(200) }).optional(),
});
export type NetworkToken = z.infer<typeof NetworkToken>;

export const SourceData = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('walletpay'), walletpay: EcV2Token }),
  z.strictObject({ type: z.literal('network_token'), network_token: NetworkToken }),
]);
export type SourceData = z.infer<typeof SourceData>;

/** Billing fields filled from the wallet's billing address (seed rule 2). */
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
    country: z.string().regex(/^[A-Z]{2}$/),
  }),
});
export type BillingDetails = z.infer<typeof BillingDetails>;

export const Currency = z.string().regex(/^[a-z]{3}$/, 'currency must be a lowercase ISO 4217 code');

export const ChargeRequest = z.strictObject({
  source_data: SourceData,
  amount: z.number().int().positive().max(99_999_999_999),
  currency: Currency,
  billing_details: BillingDetails.optional(),
  description: z.string().max(500).optional(),
  metadata: z.record(z.string().max(40), z.string().max(500)).optional(),
});
export type ChargeRequest = z.infer<typeof ChargeRequest>;

export const ChargeStatus = z.enum(['succeeded', 'failed']);
export type ChargeStatus = z.infer<typeof ChargeStatus>;

/** What the card behind a charge can safely be shown as: never the number. */
export const CardSummary = z.object({
  network: CardNetwork,
  last4: z.string().regex(/^\d{4}$/),
  auth_method: AuthMethod,
  exp_month: z.number().int(),
  exp_year: z.number().int(),
});
export type CardSummary = z.infer<typeof CardSummary>;

export const Charge = z.object({
  id: z.string(),
  object: z.literal('charge'),
  status: ChargeStatus,
  amount: z.number().int(),
  currency: Currency,
  source_type: z.enum(['walletpay', 'network_token']),
  card: CardSummary,
  billing_details: BillingDetails.nullable(),
  failure_code: z.string().nullable(),
  failure_message: z.string().nullable(),
  created: z.number().int(),
});
export type Charge = z.infer<typeof Charge>;

export const ApiErrorBody = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;
