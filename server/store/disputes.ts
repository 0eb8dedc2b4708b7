/**
 * The disputes of an app's payments (server/disputes/): mirrored from the payment service's feed of changes with the
 * session of the disputed charge, found by id, listed newest first; how far into each merchant account's feed the
 * backend has read; and what other parts ask of them: whether a session is disputed, and the disputed amounts of a period.
 */
import type { Insertable, Selectable, Transaction, Updateable } from 'kysely';
import { type Dispute, DisputeReason, DisputeStatus, OPEN_DISPUTE_STATUSES, ServiceDisputeEvidence } from '../../contracts';
import type { BackendDatabase, DisputesTable } from './schema';
import type { Store } from '.';

type Db = Store | Transaction<BackendDatabase>;
export type DisputeRow = Selectable<DisputesTable>;

/** The dispute as the merchant sees it (the API, `dispute.*` events, the dashboard). */
export function toDispute(row: DisputeRow): Dispute {
  return {
    id: row.id,
    object: 'dispute',
    session_id: row.session_id,
    amount: Number(row.amount),
    currency: row.currency,
    reason: DisputeReason.parse(row.reason),
    status: DisputeStatus.parse(row.status),
    evidence_due_by: Number(row.evidence_due_by),
    evidence: row.evidence === null ? null : ServiceDisputeEvidence.parse(JSON.parse(row.evidence)),
    evidence_submitted: row.evidence_submitted === null ? null : Number(row.evidence_submitted),
    created: Number(row.created),
    updated: Number(row.updated),
  };
}

export const findDispute = (db: Db, id: string): Promise<DisputeRow | undefined> => db.selectFrom('disputes').selectAll().where('id', '=', id).executeTakeFirst();

export const findDisputeOfService = (db: Db, serviceDisputeId: string): Promise<DisputeRow | undefined> =>
  db.selectFrom('disputes').selectAll().where('service_dispute_id', '=', serviceDisputeId).executeTakeFirst();

/** The session (and its app) whose attempt made this charge at the service; undefined for a charge that is not ours. */
export const sessionOfCharge = (db: Db, chargeId: string): Promise<{ session_id: string; app_id: string } | undefined> =>
  db
    .selectFrom('charge_attempts')
    .innerJoin('sessions', 'sessions.id', 'charge_attempts.session_id')
    .select(['sessions.id as session_id', 'sessions.app_id'])
    .where('charge_attempts.charge_id', '=', chargeId)
    .executeTakeFirst();

/** The row, and its session marked disputed while it is open or lost. Run in the transaction that writes the dispute. */
export async function insertDispute(db: Db, row: Insertable<DisputesTable>): Promise<void> {
  await db.insertInto('disputes').values(row).execute();
  await markSessionDisputed(db, row.session_id);
}

/** The row with `changes`, as changed, and its session's mark moved with its status. */
export async function updateDispute(db: Db, id: string, changes: Updateable<DisputesTable>): Promise<DisputeRow | undefined> {
  const row = await db.updateTable('disputes').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
  if (row && changes.status !== undefined) await markSessionDisputed(db, row.session_id);
  return row;
}

/**
 * The session's `disputed` mark: 1 while any of its disputes is open or lost (a won one gave the money back). Read by every view
 * of the session with the row itself, so its payment status costs no statement more.
 */
async function markSessionDisputed(db: Db, sessionId: string): Promise<void> {
  const disputing = db.selectFrom('disputes').select('id').where('session_id', '=', sessionId).where('status', 'in', DISPUTING_STATUSES);
  await db
    .updateTable('sessions')
    .set((eb) => ({ disputed: eb.case().when(eb.exists(disputing)).then(1).else(0).end() }))
    .where('id', '=', sessionId)
    .execute();
}

export interface DisputeListFilter {
  appId: string;
  status?: DisputeStatus | undefined;
  /** The last row of the previous page: only rows after it (older, in this order). */
  after?: { created: number; id: string } | undefined;
  limit: number;
}

/** One page, newest first, keyset on (created, id) as the sessions' list, and whether another follows. */
export async function listDisputes(store: Store, filter: DisputeListFilter): Promise<{ rows: DisputeRow[]; hasMore: boolean }> {
  let query = store.selectFrom('disputes').selectAll().where('app_id', '=', filter.appId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  const after = filter.after;
  if (after) query = query.where(({ eb, refTuple, tuple }) => eb(refTuple('created', 'id'), '<', tuple(after.created, after.id)));
  const rows = await query.orderBy('created', 'desc').orderBy('id', 'desc').limit(filter.limit + 1).execute();
  return { rows: rows.slice(0, filter.limit), hasMore: rows.length > filter.limit };
}

/** The session statuses in which money was taken: only a captured charge can be disputed. */
const CAPTURED_STATUSES = ['succeeded', 'captured'];

/**
 * The merchant accounts of the apps that took money at least once: the feeds of disputes read (a merchant that
 * never did has none to read). One probe of (app_id, status, created, id) per app (migration 0009), not a scan.
 */
export async function merchantAccountsWithPayments(store: Store): Promise<string[]> {
  const rows = await store
    .selectFrom('apps')
    .select('apps.merchant_id')
    .distinct()
    .where(({ exists, selectFrom }) => exists(selectFrom('sessions').select('sessions.id').whereRef('sessions.app_id', '=', 'apps.id').where('sessions.status', 'in', CAPTURED_STATUSES)))
    .execute();
  return rows.map((row) => row.merchant_id);
}

/** The sequence of the last dispute change applied for this merchant account; 0 before any. */
export async function disputeCursor(db: Db, merchantId: string): Promise<number> {
  const row = await db.selectFrom('dispute_cursors').select('sequence').where('merchant_id', '=', merchantId).executeTakeFirst();
  return Number(row?.sequence ?? 0);
}

/** Moves the cursor from `from` to `to` (a compare-and-set: of instances reading the same page, one moves it); false when another did. */
export async function advanceDisputeCursor(trx: Transaction<BackendDatabase>, merchantId: string, from: number, to: number): Promise<boolean> {
  if (from === 0) {
    const inserted = await trx.insertInto('dispute_cursors').values({ merchant_id: merchantId, sequence: to }).onConflict((oc) => oc.column('merchant_id').doNothing()).executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  }
  const moved = await trx.updateTable('dispute_cursors').set({ sequence: to }).where('merchant_id', '=', merchantId).where('sequence', '=', from).executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

/** The statuses that make a payment disputed: still open (its money held), or lost (its money gone back). */
const DISPUTING_STATUSES: readonly DisputeStatus[] = [...OPEN_DISPUTE_STATUSES, 'lost'];

/** Which of these sessions have an open or a lost dispute: their `disputed` mark (markSessionDisputed), for a page of them at once. */
export async function disputedSessions(db: Db, sessionIds: readonly string[]): Promise<Set<string>> {
  if (sessionIds.length === 0) return new Set();
  const rows = await db.selectFrom('sessions').select('id').where('id', 'in', sessionIds).where('disputed', '=', 1).execute();
  return new Set(rows.map((row) => row.id));
}

/** Whether the session has an open or a lost dispute. */
export const isSessionDisputed = async (db: Db, sessionId: string): Promise<boolean> => (await disputedSessions(db, [sessionId])).has(sessionId);

export interface DisputeSummary {
  /** Per currency, what the period's disputes take back or hold (won ones excluded), and how many there are. */
  amounts: { currency: string; amount: number; count: number }[];
  /** How many of the period's disputes are in each status. */
  statuses: Record<DisputeStatus, number>;
}

/**
 * The app's disputes opened in [from, to) (ms since the epoch): the amounts disputed per currency (open and lost: a
 * won dispute gave the money back to the merchant), and the count in each status. For the overview page.
 */
export async function disputeSummary(db: Db, appId: string, period: { from: number; to: number }): Promise<DisputeSummary> {
  const rows = await db
    .selectFrom('disputes')
    .select((eb) => ['currency', 'status', eb.fn.countAll().as('count'), eb.fn.sum<number | string>('amount').as('amount')])
    .where('app_id', '=', appId)
    .where('created', '>=', period.from)
    .where('created', '<', period.to)
    .groupBy(['currency', 'status'])
    .orderBy('currency')
    .execute();
  const statuses = Object.fromEntries(DisputeStatus.options.map((status) => [status, 0])) as Record<DisputeStatus, number>;
  const amounts = new Map<string, { currency: string; amount: number; count: number }>();
  for (const row of rows) {
    const status = DisputeStatus.parse(row.status);
    statuses[status] += Number(row.count);
    if (!DISPUTING_STATUSES.includes(status)) continue;
    const total = amounts.get(row.currency) ?? { currency: row.currency, amount: 0, count: 0 };
    amounts.set(row.currency, { currency: row.currency, amount: total.amount + Number(row.amount), count: total.count + Number(row.count) });
  }
  return { amounts: [...amounts.values()], statuses };
}
