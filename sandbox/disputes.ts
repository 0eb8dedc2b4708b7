/**
 * The sandbox service's disputes (docs/service-conventions.md#disputes): a cardholder's bank disputes a captured
 * charge (the dispute test cards at once, or the test helper on demand), the merchant submits evidence once before
 * the due date, and the issuer decides. As Stripe's test mode does, the evidence's explanation decides the outcome:
 * `winning_evidence` wins, `losing_evidence` loses, anything else stays under review; a dispute without evidence by its
 * due date is lost. The service's clock moves disputes on when they are next read: each change takes the merchant's
 * next feed sequence, so a backend that reads the feed after its last sequence sees every dispute that changed.
 */
import { randomBytes } from 'node:crypto';
import { DisputeReason, DisputeStatus, type OpenDisputeRequest, type ServiceDispute, ServiceDisputeEvidence } from '../contracts';
import { type HttpError, httpError } from '../common/http/errors';
import { err, ok, type Result } from '../common/result';
import type { DisputeRow, SandboxDb, SandboxTransaction } from './store';
import { changeDispute, disputeOfCharge, disputeRowsChangedAfter, disputesDue, findCharge, findDisputeRow, insertDispute, refundableAmount } from './store';

/** How long the merchant has to submit evidence: a week, the shortest of the networks' usual windows. */
export const EVIDENCE_WINDOW_SECONDS = 7 * 24 * 60 * 60;

/** The words of the explanation that decide the issuer's review (Stripe's test-mode evidence). */
export const WINNING_EVIDENCE = 'winning_evidence';
export const LOSING_EVIDENCE = 'losing_evidence';

function toServiceDispute(row: DisputeRow): ServiceDispute {
  return {
    id: row.id,
    object: 'dispute',
    charge: row.charge_id,
    amount: row.amount,
    currency: row.currency,
    reason: DisputeReason.parse(row.reason),
    status: DisputeStatus.parse(row.status),
    evidence_due_by: row.evidence_due_by,
    evidence: row.evidence === null ? null : ServiceDisputeEvidence.parse(JSON.parse(row.evidence)),
    evidence_submitted_at: row.evidence_submitted_at,
    sequence: row.sequence,
    created: row.created,
  };
}

/**
 * Opens a dispute on a captured charge, in the caller's transaction: by default on all it captured and kept (less
 * its refunds). A charge is disputed once; a hold, a decline or a charge refunded in full cannot be.
 */
export async function openDispute(trx: SandboxTransaction, merchantAccount: string, request: OpenDisputeRequest, now: number): Promise<Result<ServiceDispute, HttpError>> {
  const charge = await findCharge(trx, merchantAccount, request.charge);
  if (!charge) return err(httpError(404, 'resource_missing', 'charge: no such charge for this merchant'));
  if (charge.status !== 'succeeded') return err(httpError(409, 'invalid_state', `charge: it is ${charge.status}: only a captured charge can be disputed`));
  const kept = await refundableAmount(trx, charge.id);
  const amount = request.amount ?? kept;
  if (amount <= 0 || amount > kept) return err(httpError(400, 'amount_too_large', `amount: 1 to what the charge kept after its refunds (${kept})`));
  if (await disputeOfCharge(trx, charge.id)) return err(httpError(409, 'invalid_state', 'charge: it is already disputed'));
  const created = Math.floor(now / 1000);
  const row = await insertDispute(trx, {
    id: `dp_${randomBytes(12).toString('hex')}`,
    merchant_account: merchantAccount,
    charge_id: charge.id,
    amount,
    currency: charge.currency,
    reason: request.reason ?? 'general',
    status: 'needs_response',
    evidence_due_by: created + EVIDENCE_WINDOW_SECONDS,
    evidence: null,
    evidence_submitted_at: null,
    outcome: null,
    decided_at: null,
    created,
  });
  return ok(toServiceDispute(row));
}

/**
 * Moves the merchant's disputes on at `now`: a review whose decision is due closes `won` or `lost`, and a dispute
 * that needed a response past its due date is `lost`. Run before every read, so what is read is the service's now.
 */
async function decideDueDisputes(db: SandboxDb, merchantAccount: string, now: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const row of await disputesDue(trx, merchantAccount, now)) await changeDispute(trx, row, { status: row.status === 'under_review' ? row.outcome! : 'lost' });
  });
}

export async function findDispute(db: SandboxDb, merchantAccount: string, id: string, now: number): Promise<ServiceDispute | undefined> {
  await decideDueDisputes(db, merchantAccount, now);
  const row = await findDisputeRow(db, merchantAccount, id);
  return row && toServiceDispute(row);
}

/** The merchant's disputes changed after the sequence `after`, each once as it is now, in sequence order; one more row tells `has_more`. */
export async function disputesChangedAfter(db: SandboxDb, merchantAccount: string, after: number, limit: number, now: number): Promise<{ data: ServiceDispute[]; has_more: boolean }> {
  await decideDueDisputes(db, merchantAccount, now);
  const { rows, has_more } = await disputeRowsChangedAfter(db, merchantAccount, after, limit);
  return { data: rows.map(toServiceDispute), has_more };
}

/** What the issuer's review will decide of this evidence (Stripe's test words); null: it stays under review. */
const outcomeOf = (evidence: ServiceDisputeEvidence): 'won' | 'lost' | null =>
  evidence.explanation.includes(WINNING_EVIDENCE) ? 'won' : evidence.explanation.includes(LOSING_EVIDENCE) ? 'lost' : null;

/**
 * Takes the merchant's evidence, once, before the due date: the dispute goes under review, and its decision (if the
 * evidence makes one) is due at once, so the next read closes it. The outcome (the dispute under review, or the
 * refusal) is handed to `keep` in the transaction that wrote it, which stores the reply against the Idempotency-Key.
 */
export async function submitEvidence<Reply>(
  db: SandboxDb,
  merchantAccount: string,
  id: string,
  evidence: ServiceDisputeEvidence,
  now: number,
  keep: (trx: SandboxTransaction, outcome: Result<ServiceDispute, HttpError>) => Promise<Reply>,
): Promise<Reply> {
  await decideDueDisputes(db, merchantAccount, now);
  return db.transaction().execute(async (trx) => keep(trx, await evidenceOutcome(trx, merchantAccount, id, evidence, now)));
}

async function evidenceOutcome(trx: SandboxTransaction, merchantAccount: string, id: string, evidence: ServiceDisputeEvidence, now: number): Promise<Result<ServiceDispute, HttpError>> {
  const row = await findDisputeRow(trx, merchantAccount, id);
  if (!row) return err(httpError(404, 'resource_missing', 'no such dispute for this merchant'));
  if (row.evidence !== null) return err(httpError(409, 'evidence_already_submitted', 'the dispute already has its evidence: it is submitted once'));
  if (row.status !== 'needs_response') return err(httpError(409, 'evidence_past_due', 'the evidence was due by evidence_due_by: the dispute is lost'));
  const submitted = await changeDispute(trx, row, {
    status: 'under_review',
    evidence: JSON.stringify(evidence),
    evidence_submitted_at: Math.floor(now / 1000),
    outcome: outcomeOf(evidence),
    decided_at: now,
  });
  return ok(toServiceDispute(submitted));
}
