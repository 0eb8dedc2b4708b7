/**
 * A session's refunds. The amount of each is reserved on the session before
 * the service is asked, by a compare-and-set that holds on both engines (one
 * UPDATE whose WHERE re-checks the sum: PostgreSQL re-evaluates it on the row
 * a concurrent refund just committed, SQLite has one writer), and given back
 * if the refund fails: the refunds of a session never add up to more than was
 * taken, however many run at once.
 */
import { sql, type Selectable, type Transaction } from 'kysely';
import { type Refund, RefundReason, RefundStatus } from '../../contracts';
import type { BackendDatabase, RefundsTable } from './schema';
import type { Store } from '.';

type Db = Store | Transaction<BackendDatabase>;
export type RefundRow = Selectable<RefundsTable>;

/** The columns a Refund is made of: what a read that brings refunds along with another row selects. */
const REFUND_FIELDS = {
  id: true,
  session_id: true,
  amount: true,
  currency: true,
  reason: true,
  status: true,
  failure_code: true,
  failure_message: true,
  created: true,
  updated: true,
} as const satisfies Partial<Record<keyof RefundRow, true>>;
export type RefundFieldsRow = Pick<RefundRow, keyof typeof REFUND_FIELDS>;
export const REFUND_COLUMNS = Object.keys(REFUND_FIELDS) as (keyof typeof REFUND_FIELDS)[];

export function toRefund(row: RefundFieldsRow): Refund {
  return {
    id: row.id,
    object: 'refund',
    session_id: row.session_id,
    amount: row.amount,
    currency: row.currency,
    reason: row.reason === null ? null : RefundReason.parse(row.reason),
    status: RefundStatus.parse(row.status),
    failure_code: row.failure_code,
    failure_message: row.failure_message,
    created: row.created,
    updated: row.updated,
  };
}

/**
 * Reserves `row.amount` on its session and records the refund as pending;
 * false (nothing written) when the session is no longer in `refundableFrom`
 * or the amount does not fit in what is left of `refundable`.
 */
export async function reserveRefund(trx: Transaction<BackendDatabase>, row: RefundRow, refundableFrom: readonly string[], refundable: number): Promise<boolean> {
  const reserved = await trx
    .updateTable('sessions')
    .set({ amount_refunded: sql<number>`amount_refunded + ${row.amount}`, updated: row.created })
    .where('id', '=', row.session_id)
    .where('status', 'in', refundableFrom)
    .where(sql<boolean>`amount_refunded + ${row.amount} <= ${refundable}`)
    .executeTakeFirst();
  if (Number(reserved.numUpdatedRows) !== 1) return false;
  await trx.insertInto('refunds').values(row).execute();
  return true;
}

export interface RefundSettlement {
  status: 'succeeded' | 'failed';
  service_refund_id: string | null;
  failure_code: string | null;
  failure_message: string | null;
}

/**
 * Settles a pending refund (a compare-and-set: of a request and a
 * reconciliation settling it at once, one does); a failed one gives its
 * reservation back. Returns the settled refund, or undefined when it was not
 * pending any more.
 */
export async function settleRefund(trx: Transaction<BackendDatabase>, refundId: string, settlement: RefundSettlement): Promise<RefundRow | undefined> {
  const now = Date.now();
  const settled = await trx.updateTable('refunds').set({ ...settlement, updated: now }).where('id', '=', refundId).where('status', '=', 'pending').returningAll().executeTakeFirst();
  if (settled && settlement.status === 'failed') {
    await trx
      .updateTable('sessions')
      .set({ amount_refunded: sql<number>`amount_refunded - ${settled.amount}`, updated: now })
      .where('id', '=', settled.session_id)
      .execute();
  }
  return settled;
}

export const findRefund = (db: Db, id: string): Promise<RefundRow | undefined> => db.selectFrom('refunds').selectAll().where('id', '=', id).executeTakeFirst();

/** Each session's refunds, oldest first; a session without any has none in the map. */
export async function refundsOfSessions(db: Db, sessionIds: readonly string[]): Promise<Map<string, Refund[]>> {
  const bySession = new Map<string, Refund[]>();
  if (sessionIds.length === 0) return bySession;
  const rows = await db.selectFrom('refunds').selectAll().where('session_id', 'in', sessionIds).orderBy('created').orderBy('id').execute();
  for (const row of rows) bySession.set(row.session_id, [...(bySession.get(row.session_id) ?? []), toRefund(row)]);
  return bySession;
}

/** Every refund whose outcome is unknown and that no reconciliation holds at `now`, oldest first, with the merchant account of its app: reconciliation replays each. */
export const pendingRefunds = (db: Store, now: number) =>
  db
    .selectFrom('refunds')
    .innerJoin('apps', 'apps.id', 'refunds.app_id')
    .selectAll('refunds')
    .select('apps.merchant_id')
    .where('refunds.status', '=', 'pending')
    .where((eb) => eb.or([eb('refunds.lease_until', 'is', null), eb('refunds.lease_until', '<', now)]))
    .orderBy('refunds.created')
    .execute();
