/**
 * How the backend learns of disputes (docs/service-conventions.md#disputes): the payment service lists each merchant
 * account's disputes changed after a sequence, and every reconciliation pass reads that feed after the last change it
 * applied, as it reads the card updates: a poll, so the backend needs no endpoint the service calls nor a credential
 * for it. Each change is mirrored on the dispute's row with its event (`dispute.created`, `dispute.updated`,
 * `dispute.closed`) in the transaction that moves the cursor, by a compare-and-set, so of several instances reading
 * the same page one applies it.
 */
import { type Dispute, type DisputeEventType, OPEN_DISPUTE_STATUSES, type ServiceDispute } from '../../contracts';
import type { Logger } from '../../common/logging';
import { randomId } from '../../common/secrets';
import type { ServiceClient } from '../service-client';
import type { Store } from '../store';
import { advanceDisputeCursor, disputeCursor, type DisputeRow, findDisputeOfService, insertDispute, merchantAccountsWithPayments, sessionOfCharge, toDispute, updateDispute } from '../store/disputes';
import { recordEvent, type StoreTransaction } from '../store/events';

export interface DisputeSyncDependencies {
  store: Store;
  service: ServiceClient;
  logger: Logger;
}

/** Changes read per merchant account and call. */
const PAGE = 100;

const isOpen = (status: Dispute['status']): boolean => (OPEN_DISPUTE_STATUSES as readonly string[]).includes(status);

/** The service's dispute in our row's fields; its times (seconds) in ms, as every time of ours. */
const fieldsOf = (dispute: ServiceDispute) => ({
  service_sequence: dispute.sequence,
  amount: dispute.amount,
  currency: dispute.currency.toUpperCase(),
  reason: dispute.reason,
  status: dispute.status,
  evidence_due_by: dispute.evidence_due_by * 1000,
  evidence: dispute.evidence === null ? null : JSON.stringify(dispute.evidence),
  evidence_submitted: dispute.evidence_submitted_at === null ? null : dispute.evidence_submitted_at * 1000,
});

/**
 * Mirrors the service's dispute on our row, in the caller's transaction, with the events of what changed: a new one is
 * created when it reaches us (ms, where the service's `created` has seconds: the list's order needs them), and is
 * recorded `dispute.created` (and `dispute.closed` too when it is already decided); a dispute that left the open statuses is
 * `dispute.closed`; any other change (its evidence, under review) `dispute.updated`; a change older than the row's
 * (by the service's sequence) is none. Undefined for a dispute of a
 * charge that is not ours (another backend's on the same merchant account); otherwise the row as it now is, and whether
 * this call changed it.
 */
export async function applyServiceDispute(trx: StoreTransaction, dispute: ServiceDispute, now: number): Promise<{ row: DisputeRow; changed: boolean } | undefined> {
  const fields = fieldsOf(dispute);
  const existing = await findDisputeOfService(trx, dispute.id);
  if (!existing) {
    const payment = await sessionOfCharge(trx, dispute.charge);
    if (!payment) return undefined;
    const row: DisputeRow = { id: `dp_${randomId(16)}`, ...payment, service_dispute_id: dispute.id, charge_id: dispute.charge, ...fields, created: now, updated: now };
    await insertDispute(trx, row);
    await recordEvent(trx, row.app_id, 'dispute.created', toDispute(row));
    if (!isOpen(dispute.status)) await recordEvent(trx, row.app_id, 'dispute.closed', toDispute(row));
    return { row, changed: true };
  }
  // Each change at the service takes a new sequence: one not newer than the row's is a change the row has (the
  // evidence call's reply, read after the feed brought the decision that followed it, must not take the row back).
  const updated = dispute.sequence <= Number(existing.service_sequence) ? undefined : await updateDispute(trx, existing.id, { ...fields, updated: now });
  if (!updated) return { row: existing, changed: false };
  const type: DisputeEventType = isOpen(existing.status as Dispute['status']) && !isOpen(dispute.status) ? 'dispute.closed' : 'dispute.updated';
  await recordEvent(trx, updated.app_id, type, toDispute(updated));
  return { row: updated, changed: true };
}

/** Applies every dispute change the service lists that this backend has not; how many of our disputes it created or changed. */
export async function applyDisputeChanges(deps: DisputeSyncDependencies): Promise<number> {
  let changed = 0;
  for (const merchantId of await merchantAccountsWithPayments(deps.store)) {
    for (let more = true; more; ) {
      const after = await disputeCursor(deps.store, merchantId);
      const page = await deps.service.disputesChangedAfter(merchantId, after, PAGE);
      if (!page.ok) {
        deps.logger.warn({ merchantId, code: page.error.code }, 'disputes could not be read from the payment service; the next pass reads them');
        break;
      }
      const last = page.value.data.at(-1);
      if (!last) break;
      const applied = await deps.store.transaction().execute(async (trx) => {
        if (!(await advanceDisputeCursor(trx, merchantId, after, last.sequence))) return undefined;
        let count = 0;
        const now = Date.now();
        for (const dispute of page.value.data) if ((await applyServiceDispute(trx, dispute, now))?.changed) count++;
        return count;
      });
      // Another instance applied this page: it reads the next one too.
      if (applied === undefined) break;
      changed += applied;
      more = page.value.has_more;
    }
  }
  return changed;
}
