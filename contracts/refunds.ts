/**
 * Refunds: the merchant's (POST /api/sessions/{id}/refunds, shown on the
 * session and in `refund.*` events) and the payment service's refund call, a
 * convention of ours the charge API leaves open (docs/service-conventions.md).
 */
import { z } from 'zod';

const MAX_AMOUNT = 99_999_999_999;

/** Why the merchant gives the money back: Stripe's three, a closed set so reports can count them (docs/api.md). */
export const RefundReason = z.enum(['duplicate', 'fraudulent', 'requested_by_customer']).meta({ id: 'RefundReason' });
export type RefundReason = z.infer<typeof RefundReason>;

/** POST /api/sessions/{id}/refunds: without `amount`, all that is left to refund. */
export const CreateRefundBody = z.strictObject({
  amount: z.number().int().positive().max(MAX_AMOUNT).optional(),
  reason: RefundReason.optional(),
}).meta({ id: 'CreateRefundBody' });
export type CreateRefundBody = z.infer<typeof CreateRefundBody>;

/** pending: sent, its outcome not known yet (reconciliation settles it); succeeded; failed: nothing was refunded. */
export const RefundStatus = z.enum(['pending', 'succeeded', 'failed']).meta({ id: 'RefundStatus' });
export type RefundStatus = z.infer<typeof RefundStatus>;

/** A refund as the merchant sees it: on the session (`refunds`), as the reply, and as a `refund.*` event's object. */
export const Refund = z.object({
  id: z.string(),
  object: z.literal('refund'),
  session_id: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  reason: RefundReason.nullable(),
  status: RefundStatus,
  failure_code: z.string().nullable(),
  failure_message: z.string().nullable(),
  created: z.number().int(),
  updated: z.number().int(),
}).meta({ id: 'Refund' });
export type Refund = z.infer<typeof Refund>;

/** POST {base_url}/api/v1/refunds at the payment service. */
export const ServiceRefundRequest = z.strictObject({
  charge: z.string().regex(/^ch_[A-Za-z0-9]{1,64}$/, 'a charge id (ch_...)'),
  amount: z.number().int().positive().max(MAX_AMOUNT),
  reason: RefundReason.optional(),
}).meta({ id: 'ServiceRefundRequest' });
export type ServiceRefundRequest = z.infer<typeof ServiceRefundRequest>;

/** The payment service's refund object; `created` in seconds, like its charge. */
export const ServiceRefund = z.object({
  id: z.string(),
  object: z.literal('refund'),
  charge: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  status: z.enum(['succeeded', 'failed']),
  failure_code: z.string().nullable(),
  created: z.number().int(),
}).meta({ id: 'ServiceRefund' });
export type ServiceRefund = z.infer<typeof ServiceRefund>;
