/**
 * A session's refunds. The amount of each is reserved on the session before
 * the service is asked, by a compare-and-set that holds on both engines (one
 * UPDATE whose WHERE re-checks the sum: PostgreSQL re-evaluates it on the row
 * a concurrent refund just committed, SQLite has one writer), and given back
 * if the refund fails: the refunds of a session never add up to more than was
 * taken, however many run at once.
 */
import { type QueryCreator, sql, type Selectable, type Transaction } from 'kysely';
import { type Refund, RefundReason, RefundStatus, type WebhookEventType } from '../../contracts';
import { newEvent, recordEvent, recordingEvent } from './events';
import type { BackendDatabase, RefundsTable } from './schema';
import { onPostgres, type Store } from '.';

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
 * or the amount does not fit in what is left of `refundable`. One statement on
 * PostgreSQL (the insert a step after the reservation, taking the row as one
 * JSON parameter that json_populate_record types); a transaction on SQLite.
 */
export async function reserveRefund(store: Store, row: RefundRow, refundableFrom: readonly string[], refundable: number): Promise<boolean> {
  if (!onPostgres(store)) {
    return store.transaction().execute(async (trx) => {
      const reserved = await reservation(trx, row, refundableFrom, refundable).executeTakeFirst();
      if (Number(reserved.numUpdatedRows) !== 1) return false;
      await trx.insertInto('refunds').values(row).execute();
      return true;
    });
  }
  const columns = Object.keys(row) as (keyof RefundRow & string)[];
  const inserted = await store
    .with('reserved', (db) => reservation(db, row, refundableFrom, refundable).returning('sessions.id'))
    .insertInto('refunds')
    .columns(columns)
    .expression((eb) =>
      eb
        .selectFrom(sql<RefundRow>`json_populate_record(null::refunds, ${JSON.stringify(row)}::json)`.as('row'))
        .select(columns.map((column) => sql.ref(`row.${column}`).as(column)))
        .where(({ exists, selectFrom }) => exists(selectFrom('reserved').select('reserved.id'))),
    )
    .returning('refunds.id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The compare-and-set that reserves a refund's amount: the sum re-checked in its WHERE. */
const reservation = (db: QueryCreator<BackendDatabase>, row: RefundRow, refundableFrom: readonly string[], refundable: number) =>
  db
    .updateTable('sessions')
    .set({ amount_refunded: sql<number>`amount_refunded + ${row.amount}`, updated: row.created })
    .where('sessions.id', '=', row.session_id)
    .where('sessions.status', 'in', refundableFrom)
    .where(sql<boolean>`amount_refunded + ${row.amount} <= ${refundable}`);

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

/**
 * settleRefund with its event (`type`, about the refund as settled), for the refund `row` as it was
 * reserved: one statement on PostgreSQL. The refund as settled is known before the statement (what
 * its event shows never changes but by a settlement, which the compare-and-set on `pending` makes
 * this one), so its event is made first and written with it. A transaction on SQLite.
 */
export async function settleRefundRecordingEvent(store: Store, row: RefundRow, settlement: RefundSettlement, type: WebhookEventType): Promise<RefundRow | undefined> {
  if (!onPostgres(store)) {
    return store.transaction().execute(async (trx) => {
      const settled = await settleRefund(trx, row.id, settlement);
      if (settled) await recordEvent(trx, settled.app_id, type, toRefund(settled));
      return settled;
    });
  }
  const now = Date.now();
  const event = newEvent(row.app_id, type, toRefund({ ...row, ...settlement, updated: now }), undefined, now).row;
  let statement = store.with('settled', (db) =>
    db.updateTable('refunds').set({ ...settlement, updated: now }).where('refunds.id', '=', row.id).where('refunds.status', '=', 'pending').returningAll(),
  );
  if (settlement.status === 'failed') {
    statement = statement.with('given_back', (db) =>
      db
        .updateTable('sessions')
        .from('settled')
        .set({ amount_refunded: sql<number>`sessions.amount_refunded - settled.amount`, updated: now })
        .whereRef('sessions.id', '=', 'settled.session_id')
        .returning('sessions.id'),
    ) as unknown as typeof statement;
  }
  return recordingEvent(statement, 'settled', event).selectFrom('settled').selectAll().executeTakeFirst();
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
