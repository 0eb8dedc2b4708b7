/**
 * The cards kept for customers (server/payment-methods/): one live row per app, customer and card
 * (the service's fingerprint; a partial unique index, migration 0026), found by id, listed newest
 * first, updated when the card is kept again or the network updates it, detached for good; and how
 * far into each merchant account's feed of card updates the backend has read.
 */
import type { ExpressionBuilder, Insertable, Selectable, Transaction, Updateable } from 'kysely';
import type { PaymentMethodStatus } from '../../contracts';
import type { BackendDatabase, PaymentMethodsTable } from './schema';
import type { Store } from '.';

type Db = Store | Transaction<BackendDatabase>;
export type PaymentMethodRow = Selectable<PaymentMethodsTable>;

export const findPaymentMethod = (db: Db, id: string): Promise<PaymentMethodRow | undefined> =>
  db.selectFrom('payment_methods').selectAll().where('id', '=', id).executeTakeFirst();

/** The app's live (not detached) row for this customer's card, if any. */
export const findLivePaymentMethod = (db: Db, appId: string, customer: string, fingerprint: string): Promise<PaymentMethodRow | undefined> =>
  db.selectFrom('payment_methods').selectAll().where('app_id', '=', appId).where('customer', '=', customer).where('fingerprint', '=', fingerprint).where('detached', 'is', null).executeTakeFirst();

export async function insertPaymentMethod(db: Db, row: Insertable<PaymentMethodsTable>): Promise<void> {
  await db.insertInto('payment_methods').values(row).execute();
}

/** The row with `changes`, as changed; undefined when it was detached meanwhile (a detached row never changes again). */
export const updateLivePaymentMethod = (db: Db, id: string, changes: Updateable<PaymentMethodsTable>): Promise<PaymentMethodRow | undefined> =>
  db.updateTable('payment_methods').set(changes).where('id', '=', id).where('detached', 'is', null).returningAll().executeTakeFirst();

/** Detaches the row (a compare-and-set: of two detaches one does it); the row as detached, undefined when it already was. */
export const detachPaymentMethodRow = (db: Db, id: string, now: number): Promise<PaymentMethodRow | undefined> =>
  db.updateTable('payment_methods').set({ detached: now, updated: now }).where('id', '=', id).where('detached', 'is', null).returningAll().executeTakeFirst();

export interface PaymentMethodListFilter {
  appId: string;
  customer?: string;
  /**
   * Only rows of this status as the API reads it at `at` (paymentMethodView): detached, else expired when the card's
   * expiry month is before `at`'s (UTC), else active.
   */
  status?: { is: PaymentMethodStatus; at: number };
  /** The last row of the previous page: only rows after it (older, in this order). */
  after?: { created: number; id: string };
  limit: number;
}

/**
 * One page, newest first, keyset on (created, id) as the sessions' list (store/session-list.ts), one more row than the
 * page. A customer is read through (app_id, customer, created, id); a status is tested on each row along
 * (app_id, created, id) (migration 0026; server/dashboard/list-plan.test.ts holds the plans).
 */
export function paymentMethodPageQuery(store: Store, filter: PaymentMethodListFilter) {
  let query = store.selectFrom('payment_methods').selectAll().where('app_id', '=', filter.appId);
  if (filter.customer !== undefined) query = query.where('customer', '=', filter.customer);
  const status = filter.status;
  if (status?.is === 'detached') query = query.where('detached', 'is not', null);
  else if (status) {
    const today = new Date(status.at);
    const [year, month] = [today.getUTCFullYear(), today.getUTCMonth() + 1];
    const expired = (eb: ExpressionBuilder<BackendDatabase, 'payment_methods'>) => eb.or([eb('exp_year', '<', year), eb.and([eb('exp_year', '=', year), eb('exp_month', '<', month)])]);
    query = query.where('detached', 'is', null).where((eb) => (status.is === 'expired' ? expired(eb) : eb.not(expired(eb))));
  }
  const after = filter.after;
  if (after) query = query.where(({ eb, refTuple, tuple }) => eb(refTuple('created', 'id'), '<', tuple(after.created, after.id)));
  return query.orderBy('created', 'desc').orderBy('id', 'desc').limit(filter.limit + 1);
}

/** One page and whether another follows (`has_more`). */
export async function listPaymentMethods(store: Store, filter: PaymentMethodListFilter): Promise<{ rows: PaymentMethodRow[]; hasMore: boolean }> {
  const rows = await paymentMethodPageQuery(store, filter).execute();
  return { rows: rows.slice(0, filter.limit), hasMore: rows.length > filter.limit };
}

/** The live rows that keep this payment method of the service's (a card update names it). */
export const livePaymentMethodsOfService = (db: Db, servicePaymentMethod: string): Promise<PaymentMethodRow[]> =>
  db.selectFrom('payment_methods').selectAll().where('service_payment_method', '=', servicePaymentMethod).where('detached', 'is', null).execute();

/** Detached rows whose detach the service has not confirmed, with their app's merchant account, oldest first. */
export const unconfirmedDetaches = (store: Store, limit: number) =>
  store
    .selectFrom('payment_methods')
    .innerJoin('apps', 'apps.id', 'payment_methods.app_id')
    .select(['payment_methods.id', 'payment_methods.service_payment_method', 'apps.merchant_id'])
    .where('payment_methods.detached', 'is not', null)
    .where('payment_methods.service_detached', 'is', null)
    .orderBy('payment_methods.detached')
    .limit(limit)
    .execute();

export async function markServiceDetached(store: Store, id: string, now: number): Promise<void> {
  await store.updateTable('payment_methods').set({ service_detached: now }).where('id', '=', id).execute();
}

/** The merchant accounts some live card is kept at: the ones whose card updates are read. */
export async function merchantAccountsWithLiveCards(store: Store): Promise<string[]> {
  const rows = await store
    .selectFrom('payment_methods')
    .innerJoin('apps', 'apps.id', 'payment_methods.app_id')
    .select('apps.merchant_id')
    .distinct()
    .where('payment_methods.detached', 'is', null)
    .execute();
  return rows.map((row) => row.merchant_id);
}

/** The sequence of the last card update applied for this merchant account; 0 before any. */
export async function cardUpdateCursor(db: Db, merchantId: string): Promise<number> {
  const row = await db.selectFrom('card_update_cursors').select('sequence').where('merchant_id', '=', merchantId).executeTakeFirst();
  return row ? Number(row.sequence) : 0;
}

/**
 * Moves the cursor from `from` to `to`, in the transaction that applies the updates between them: a
 * compare-and-set, so that of two instances reading the same updates one applies them. False when
 * another moved it first (the caller's transaction then applies nothing).
 */
export async function advanceCardUpdateCursor(trx: Transaction<BackendDatabase>, merchantId: string, from: number, to: number): Promise<boolean> {
  if (from === 0) {
    const inserted = await trx.insertInto('card_update_cursors').values({ merchant_id: merchantId, sequence: to }).onConflict((oc) => oc.column('merchant_id').doNothing()).executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  }
  const moved = await trx.updateTable('card_update_cursors').set({ sequence: to }).where('merchant_id', '=', merchantId).where('sequence', '=', from).executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}
