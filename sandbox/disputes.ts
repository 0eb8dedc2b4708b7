/**
 * The sandbox service's disputes (docs/service-conventions.md#disputes): a cardholder's bank disputes a captured
 * charge (the dispute test cards at once, or the test helper on demand), the merchant submits evidence once before
 * the due date, and the issuer decides. As Stripe's test mode does, the evidence's explanation decides the outcome:
 * `winning_evidence` wins, `losing_evidence` loses, anything else stays under review; a dispute without evidence by its
 * due date is lost. The service's clock moves disputes on when they are next read: each change takes the merchant's
 * next feed sequence, so a backend that reads the feed after its last sequence sees every dispute that changed.
 */
import { randomBytes } from 'node:crypto';
import type { Selectable, Transaction } from 'kysely';
import { DisputeReason, DisputeStatus, type OpenDisputeRequest, type ServiceDispute, ServiceDisputeEvidence } from '../contracts';
import { type HttpError, httpError } from '../common/http/errors';
import { err, ok, type Result } from '../common/result';
import type { DisputesTable, SandboxDatabase, SandboxDb, SandboxDbOrTransaction } from './store';
import { findCharge } from './store';

/** How long the merchant has to submit evidence: a week, the shortest of the networks' usual windows. */
export const EVIDENCE_WINDOW_SECONDS = 7 * 24 * 60 * 60;

/** The words of the explanation that decide the issuer's review (Stripe's test-mode evidence). */
export const WINNING_EVIDENCE = 'winning_evidence';
export const LOSING_EVIDENCE = 'losing_evidence';

type DisputeRow = Selectable<DisputesTable>;

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

/** The merchant's next feed sequence: the sandbox's one SQLite writer serializes the transactions that take it. */
async function nextSequence(trx: Transaction<SandboxDatabase>, merchantAccount: string): Promise<number> {
  const last = await trx.selectFrom('disputes').select((eb) => eb.fn.max('sequence').as('sequence')).where('merchant_account', '=', merchantAccount).executeTakeFirst();
  return Number(last?.sequence ?? 0) + 1;
}

/**
 * Opens a dispute on a captured charge, in the caller's transaction: by default on all it captured and kept (less
 * its refunds). A charge is disputed once; a hold, a decline or a charge refunded in full cannot be.
 */
export async function openDispute(trx: Transaction<SandboxDatabase>, merchantAccount: string, request: OpenDisputeRequest, now: number): Promise<Result<ServiceDispute, HttpError>> {
  const charge = await findCharge(trx, merchantAccount, request.charge);
  if (!charge) return err(httpError(404, 'resource_missing', 'charge: no such charge for this merchant'));
  if (charge.status !== 'succeeded') return err(httpError(409, 'invalid_state', `charge: it is ${charge.status}: only a captured charge can be disputed`));
  const refunded = await trx.selectFrom('charges').select('amount_refunded').where('id', '=', charge.id).executeTakeFirstOrThrow();
  const kept = charge.amount_captured - refunded.amount_refunded;
  const amount = request.amount ?? kept;
  if (amount <= 0 || amount > kept) return err(httpError(400, 'amount_too_large', `amount: 1 to what the charge kept after its refunds (${kept})`));
  if (await trx.selectFrom('disputes').select('id').where('charge_id', '=', charge.id).executeTakeFirst()) {
    return err(httpError(409, 'invalid_state', 'charge: it is already disputed'));
  }
  const created = Math.floor(now / 1000);
  const row: DisputeRow = {
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
    sequence: await nextSequence(trx, merchantAccount),
    created,
  };
  await trx.insertInto('disputes').values(row).execute();
  return ok(toServiceDispute(row));
}

/**
 * Moves the merchant's disputes on at `now`: a review whose decision is due closes `won` or `lost`, and a dispute
 * that needed a response past its due date is `lost`. Run before every read, so what is read is the service's now.
 */
async function decideDueDisputes(db: SandboxDb, merchantAccount: string, now: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('disputes')
      .selectAll()
      .where('merchant_account', '=', merchantAccount)
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'under_review'), eb('outcome', 'is not', null), eb('decided_at', '<=', now)]),
          eb.and([eb('status', '=', 'needs_response'), eb('evidence_due_by', '<=', Math.floor(now / 1000))]),
        ]),
      )
      .orderBy('sequence')
      .execute();
    for (const row of due) {
      const status = row.status === 'under_review' ? row.outcome! : 'lost';
      await trx.updateTable('disputes').set({ status, sequence: await nextSequence(trx, merchantAccount) }).where('id', '=', row.id).execute();
    }
  });
}

export async function findDispute(db: SandboxDb, merchantAccount: string, id: string, now: number): Promise<ServiceDispute | undefined> {
  await decideDueDisputes(db, merchantAccount, now);
  const row = await db.selectFrom('disputes').selectAll().where('merchant_account', '=', merchantAccount).where('id', '=', id).executeTakeFirst();
  return row && toServiceDispute(row);
}

/** The merchant's disputes changed after the sequence `after`, each once as it is now, in sequence order; one more row tells `has_more`. */
export async function disputesChangedAfter(db: SandboxDb, merchantAccount: string, after: number, limit: number, now: number): Promise<{ data: ServiceDispute[]; has_more: boolean }> {
  await decideDueDisputes(db, merchantAccount, now);
  const rows = await db.selectFrom('disputes').selectAll().where('merchant_account', '=', merchantAccount).where('sequence', '>', after).orderBy('sequence').limit(limit + 1).execute();
  return { data: rows.slice(0, limit).map(toServiceDispute), has_more: rows.length > limit };
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
  keep: (trx: Transaction<SandboxDatabase>, outcome: Result<ServiceDispute, HttpError>) => Promise<Reply>,
): Promise<Reply> {
  await decideDueDisputes(db, merchantAccount, now);
  return db.transaction().execute(async (trx) => keep(trx, await evidenceOutcome(trx, merchantAccount, id, evidence, now)));
}

async function evidenceOutcome(trx: Transaction<SandboxDatabase>, merchantAccount: string, id: string, evidence: ServiceDisputeEvidence, now: number): Promise<Result<ServiceDispute, HttpError>> {
  const row = await trx.selectFrom('disputes').selectAll().where('merchant_account', '=', merchantAccount).where('id', '=', id).executeTakeFirst();
  if (!row) return err(httpError(404, 'resource_missing', 'no such dispute for this merchant'));
  if (row.evidence !== null) return err(httpError(409, 'evidence_already_submitted', 'the dispute already has its evidence: it is submitted once'));
  if (row.status !== 'needs_response') return err(httpError(409, 'evidence_past_due', 'the evidence was due by evidence_due_by: the dispute is lost'));
  const submitted: DisputeRow = {
    ...row,
    status: 'under_review',
    evidence: JSON.stringify(evidence),
    evidence_submitted_at: Math.floor(now / 1000),
    outcome: outcomeOf(evidence),
    decided_at: now,
    sequence: await nextSequence(trx, merchantAccount),
  };
  await trx.updateTable('disputes').set(submitted).where('id', '=', row.id).execute();
  return ok(toServiceDispute(submitted));
}

/** Test clocks (docs/test-clocks.md): the merchant's disputes of the named charges, opened and due `seconds` earlier. */
export async function backdateDisputes(db: SandboxDbOrTransaction, merchantAccount: string, chargeIds: readonly string[], seconds: number): Promise<void> {
  await db
    .updateTable('disputes')
    .set((eb) => ({ created: eb('created', '-', seconds), evidence_due_by: eb('evidence_due_by', '-', seconds) }))
    .where('merchant_account', '=', merchantAccount)
    .where('charge_id', 'in', chargeIds)
    .execute();
}
