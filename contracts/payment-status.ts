/**
 * A payment's status as a merchant reads it: the session's own status (the
 * state machine's, session-states.ts), except when money went back. A paid
 * session (succeeded, or a hold captured) with refunds is `partially_refunded`
 * or `refunded`, and one the shopper's bank disputes is `disputed` whatever
 * its refunds. Derived, never stored: the session's `status` stays the state
 * machine's, and the merchant API carries this beside it (`payment_status`).
 */
import { z } from 'zod';
import { SESSION_STATUSES } from './session-states';

export const DERIVED_PAYMENT_STATUSES = ['partially_refunded', 'refunded', 'disputed'] as const;
export const PAYMENT_STATUSES = [...SESSION_STATUSES, ...DERIVED_PAYMENT_STATUSES] as const;

export const PaymentStatus = z.enum(PAYMENT_STATUSES).meta({
  id: 'PaymentStatus',
  description:
    'The payment as a merchant reads it: the session\'s `status`, except `partially_refunded` and `refunded` for a succeeded or captured ' +
    'payment with refunds (pending ones included), and `disputed` for one the cardholder\'s bank disputes.',
});
export type PaymentStatus = z.infer<typeof PaymentStatus>;

/** What the derivation reads of a session (the merchant's view and the store's row both have it). */
export interface PaymentStatusInput {
  status: (typeof SESSION_STATUSES)[number];
  amount: number;
  /** What the latest attempt charged, its delivery option included; null before a payment. */
  amount_charged: number | null;
  amount_captured: number | null;
  /** Refunds that succeeded or are pending. */
  amount_refunded: number;
}

/**
 * What was taken from the card, which refunds are measured against (as checkout/refunds.ts reserves
 * them): a charge's amount, a hold's captured part; undefined for a session that took nothing.
 */
export function takenAmount(payment: PaymentStatusInput): number | undefined {
  if (payment.status === 'succeeded') return payment.amount_charged ?? payment.amount;
  if (payment.status === 'captured') return payment.amount_captured ?? 0;
  return undefined;
}

/**
 * The payment's status. `disputed`: whether the cardholder's bank disputes it (the disputes' store
 * answers it; false where none is known), which outweighs refunds: a dispute is what the merchant must act on.
 */
export function paymentStatusOf(payment: PaymentStatusInput, disputed: boolean): PaymentStatus {
  const taken = takenAmount(payment);
  if (disputed && taken !== undefined) return 'disputed';
  if (taken === undefined || payment.amount_refunded <= 0) return payment.status;
  return payment.amount_refunded >= taken ? 'refunded' : 'partially_refunded';
}
