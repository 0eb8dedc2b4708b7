/**
 * The merchant's evidence on a dispute (POST /api/disputes/{id}/evidence, and the dashboard's form): once, before the
 * due date. The server attaches what it knows of the payment: the billing address check and the card issuer's address
 * verification of the session (how the addresses compared, never the addresses); the merchant adds its explanation,
 * and the carrier and tracking number of an express checkout the shopper gave a shipping address in. The service is
 * asked under one key per dispute, so a retry is the same submission; the dispute as it answers is mirrored at once
 * (`dispute.updated`), and its decision comes with the feed (sync.ts).
 */
import type { App } from '../apps';
import { AddressVerification, BillingAddressCheck, type Dispute, type ServiceDisputeEvidence, SubmitDisputeEvidenceBody } from '../../contracts';
import { invalidRequest } from '../../common/http/errors';
import { type Failure, type Result, err, ok } from '../../common/result';
import type { ServiceClient } from '../service-client';
import type { Store } from '../store';
import { toDispute } from '../store/disputes';
import { findSession, type SessionRow } from '../store/sessions';
import { appDispute, noSuchDispute } from './records';
import { applyServiceDispute } from './sync';

export interface EvidenceDependencies {
  store: Store;
  service: ServiceClient;
}

/** The service's key for a dispute's evidence: one per dispute, so every retry is the same submission. */
export const evidenceIdempotencyKey = (disputeId: string): string => `${disputeId}:evidence`;

const alreadySubmitted: Failure = { code: 'evidence_already_submitted', message: 'The dispute already has its evidence: evidence is submitted once' };
const pastDue: Failure = { code: 'evidence_past_due', message: 'The evidence was due by evidence_due_by: it is refused from then on, and the dispute is lost' };

/** Whether the shopper gave a shipping address in the session's sheet (an express checkout that asked for one), erased since or not. */
export const shipsGoods = (session: SessionRow): boolean => session.shipping !== null && session.shipping_address_sealed !== null;

/** What the session says of the payment's addresses: the two checks, as recorded (not personal data: kept after erasure). */
export function addressChecksOf(session: SessionRow): Pick<ServiceDisputeEvidence, 'billing_address_check' | 'address_verification'> {
  return {
    billing_address_check: session.billing_address_check === null ? null : BillingAddressCheck.parse(JSON.parse(session.billing_address_check)),
    address_verification: session.address_verification === null ? null : AddressVerification.parse(JSON.parse(session.address_verification)),
  };
}

export async function submitDisputeEvidence(deps: EvidenceDependencies, app: App, id: string, body: unknown): Promise<Result<Dispute, Failure>> {
  const parsed = SubmitDisputeEvidenceBody.safeParse(body);
  if (!parsed.success) return err(invalidRequest(parsed.error));
  const row = await appDispute(deps.store, app, id);
  if (!row) return err(noSuchDispute);
  if (row.evidence !== null) return err(alreadySubmitted);
  if (row.status !== 'needs_response' || Date.now() >= Number(row.evidence_due_by)) return err(pastDue);
  const session = await findSession(deps.store, row.session_id);
  if (!session) return err(noSuchDispute);
  if (parsed.data.shipping && !shipsGoods(session)) {
    return err({ code: 'invalid_request', message: 'shipping: only for an express checkout the shopper gave a shipping address in; this payment shipped nothing' });
  }
  const evidence: ServiceDisputeEvidence = { explanation: parsed.data.explanation, ...addressChecksOf(session), shipping: parsed.data.shipping ?? null };
  const reply = await deps.service.submitDisputeEvidence(row.service_dispute_id, evidence, { merchantId: app.merchantId, idempotencyKey: evidenceIdempotencyKey(row.id) });
  if (!reply.ok) {
    // The service's own refusals are ours too (its clock decided first); the feed brings the dispute as it is.
    if (reply.error.serviceCode === 'evidence_already_submitted') return err(alreadySubmitted);
    if (reply.error.serviceCode === 'evidence_past_due') return err(pastDue);
    return err({ code: 'service_unavailable', message: 'The payment service could not take the evidence; retry with the same request' });
  }
  const applied = await deps.store.transaction().execute((trx) => applyServiceDispute(trx, reply.value, Date.now()));
  return ok(toDispute(applied?.row ?? row));
}
