/**
 * Disputes (docs/disputes.md): a cardholder's bank takes a payment back, and the merchant answers with
 * evidence before a due date. The charge API's document has none: the payment service's disputes are a
 * convention of ours, as its refunds are (docs/service-conventions.md#disputes). The merchant reads them
 * through GET /api/disputes, `dispute.*` events and the dashboard.
 */
import { z } from 'zod';
import { AddressVerification, BillingAddressCheck } from './billing-address';
import { listOf, pageLimit, startingAfter } from './paging';

const MAX_AMOUNT = 99_999_999_999;
const ChargeId = z.string().regex(/^ch_[A-Za-z0-9]{1,64}$/, 'a charge id (ch_...)');

/** Why the cardholder disputes the payment: Stripe's most common reasons, a closed set so the overview can count them. */
export const DisputeReason = z
  .enum(['fraudulent', 'product_not_received', 'product_unacceptable', 'duplicate', 'subscription_canceled', 'credit_not_processed', 'general'])
  .meta({ id: 'DisputeReason' });
export type DisputeReason = z.infer<typeof DisputeReason>;

/**
 * `needs_response`: opened, evidence is due by `evidence_due_by`; `under_review`: evidence submitted, the issuer decides;
 * `won` (the money stays with the merchant) or `lost` (it goes back to the cardholder, also when no evidence came in time): closed.
 */
export const DisputeStatus = z.enum(['needs_response', 'under_review', 'won', 'lost']).meta({ id: 'DisputeStatus' });
export type DisputeStatus = z.infer<typeof DisputeStatus>;

/** The statuses in which a dispute is still open: its money is held from the merchant. */
export const OPEN_DISPUTE_STATUSES = ['needs_response', 'under_review'] as const satisfies readonly DisputeStatus[];

/** Proof that the goods were shipped: the carrier and its tracking number. */
export const ShippingProof = z.strictObject({
  carrier: z.string().trim().min(1).max(100),
  tracking_number: z.string().trim().min(1).max(100),
}).meta({ id: 'ShippingProof' });
export type ShippingProof = z.infer<typeof ShippingProof>;

const Explanation = z.string().trim().min(1).max(5000).meta({ description: "The merchant's account of the payment, for the cardholder's bank" });

/**
 * The evidence as the payment service takes it (POST {base_url}/api/v1/disputes/{id}/evidence): the merchant's
 * explanation, the address checks of the payment, the shipping proof. Never an address: the checks say how they compared.
 */
export const ServiceDisputeEvidence = z.strictObject({
  explanation: Explanation,
  billing_address_check: BillingAddressCheck.nullable(),
  address_verification: AddressVerification.nullable(),
  shipping: ShippingProof.nullable(),
}).meta({ id: 'ServiceDisputeEvidence' });
export type ServiceDisputeEvidence = z.infer<typeof ServiceDisputeEvidence>;

/** The payment service's dispute; times in seconds, like its charge. `sequence` increases with every change, per merchant. */
export const ServiceDispute = z.object({
  id: z.string(),
  object: z.literal('dispute'),
  charge: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  reason: DisputeReason,
  status: DisputeStatus,
  evidence_due_by: z.number().int(),
  evidence: ServiceDisputeEvidence.nullable(),
  evidence_submitted_at: z.number().int().nullable(),
  sequence: z.number().int(),
  created: z.number().int(),
}).meta({ id: 'ServiceDispute' });
export type ServiceDispute = z.infer<typeof ServiceDispute>;

/** GET {base_url}/api/v1/disputes?changed_after=&limit=: the disputes changed after a sequence, each once as it is now, in sequence order. */
export const ServiceDisputeList = z.object({ object: z.literal('list'), data: z.array(ServiceDispute), has_more: z.boolean() });
export type ServiceDisputeList = z.infer<typeof ServiceDisputeList>;

/** The sandbox's test helper (POST {base_url}/test_helpers/disputes): a dispute opened on a captured charge, as a cardholder's bank would. */
export const OpenDisputeRequest = z.strictObject({
  charge: ChargeId,
  reason: DisputeReason.optional(),
  /** Default: all that was captured and not refunded. */
  amount: z.number().int().positive().max(MAX_AMOUNT).optional(),
}).meta({ id: 'OpenDisputeRequest' });
export type OpenDisputeRequest = z.infer<typeof OpenDisputeRequest>;

export const DisputeId = z.string().regex(/^dp_[A-Za-z0-9_-]{22}$/, 'a dispute id (dp_...)');

/** POST /api/disputes/{id}/evidence: the address checks are the session's own, attached by the server. */
export const SubmitDisputeEvidenceBody = z.strictObject({
  explanation: Explanation,
  shipping: ShippingProof.optional().meta({ description: 'Only for an express checkout the shopper gave a shipping address in' }),
}).meta({ id: 'SubmitDisputeEvidenceBody' });
export type SubmitDisputeEvidenceBody = z.infer<typeof SubmitDisputeEvidenceBody>;

/** A dispute as the merchant sees it: the API's reply, a `dispute.*` event's object, the dashboard's row. Times in ms. */
export const Dispute = z.object({
  id: z.string(),
  object: z.literal('dispute'),
  session_id: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  reason: DisputeReason,
  status: DisputeStatus,
  evidence_due_by: z.number().int().meta({ description: 'Evidence is refused from this time on (ms since the epoch); a dispute with none by then is lost' }),
  evidence: ServiceDisputeEvidence.nullable(),
  evidence_submitted: z.number().int().nullable(),
  created: z.number().int(),
  updated: z.number().int(),
}).meta({ id: 'Dispute' });
export type Dispute = z.infer<typeof Dispute>;

/** GET /api/disputes: newest first. */
export const ListDisputesQuery = z.strictObject({
  status: DisputeStatus.optional().meta({ description: 'Only disputes in this status' }),
  limit: pageLimit('Disputes'),
  starting_after: startingAfter(DisputeId, 'dispute'),
});
export type ListDisputesQuery = z.infer<typeof ListDisputesQuery>;

export const DisputeList = listOf(Dispute).meta({ id: 'DisputeList' });
export type DisputeList = z.infer<typeof DisputeList>;

/** The dashboard's row of a dispute: its amount's currency exponent beside it, as a payment's (DashboardPayment). */
export const DashboardDispute = Dispute.extend({ currency_exponent: z.number().int() }).meta({ id: 'DashboardDispute' });
export type DashboardDispute = z.infer<typeof DashboardDispute>;

export const DashboardDisputeList = listOf(DashboardDispute).meta({ id: 'DashboardDisputeList' });
export type DashboardDisputeList = z.infer<typeof DashboardDisputeList>;

/**
 * The dashboard's page of a dispute: the dispute, what the server will attach to its evidence (the payment's address
 * checks), and whether the payment shipped goods, so the form asks for the shipping proof only then.
 */
export const DashboardDisputePage = z.object({
  dispute: DashboardDispute,
  attached: ServiceDisputeEvidence.pick({ billing_address_check: true, address_verification: true }),
  ships_goods: z.boolean(),
}).meta({ id: 'DashboardDisputePage' });
export type DashboardDisputePage = z.infer<typeof DashboardDisputePage>;
