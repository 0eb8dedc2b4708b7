/**
 * The queries of webhooks: endpoints, the events API's pages, and the
 * delivery worker's lease (on lease_until, so that with several instances on
 * one database one sends a delivery at a time).
 */
import type { Selectable } from 'kysely';
import type { WebhookEventType } from '../../contracts';
import { endpointListensTo, pendingDelivery } from './events';
import type { WebhookEndpointsTable } from './schema';
import { onPostgres, type Store } from '.';

export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;

export async function countLiveEndpoints(store: Store, appId: string): Promise<number> {
  const row = await store.selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll<number | string>().as('count')).where('app_id', '=', appId).where('deleted', 'is', null).executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertEndpoint(store: Store, row: Omit<WebhookEndpointRow, 'previous_secret_sealed' | 'previous_secret_expires' | 'deleted'>): Promise<void> {
  await store.insertInto('webhook_endpoints').values({ ...row, previous_secret_sealed: null, previous_secret_expires: null, deleted: null }).execute();
}

/** The app's live endpoints, oldest first. */
export function liveEndpoints(store: Store, appId: string): Promise<WebhookEndpointRow[]> {
  return store.selectFrom('webhook_endpoints').selectAll().where('app_id', '=', appId).where('deleted', 'is', null).orderBy('created').orderBy('id').execute();
}

export function findLiveEndpoint(store: Store, appId: string, id: string): Promise<WebhookEndpointRow | undefined> {
  return store.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).where('app_id', '=', appId).where('deleted', 'is', null).executeTakeFirst();
}

/** Deletes the endpoint (its row stays, so its deliveries stay readable) and gives up its pending deliveries; false if it was not live. */
export async function deleteEndpoint(store: Store, appId: string, id: string, now: number): Promise<boolean> {
  return store.transaction().execute(async (trx) => {
    const deleted = await trx.updateTable('webhook_endpoints').set({ deleted: now }).where('id', '=', id).where('app_id', '=', appId).where('deleted', 'is', null).executeTakeFirst();
    if (deleted.numUpdatedRows === 0n) return false;
    await trx
      .updateTable('webhook_deliveries')
      .set({ status: 'failed', last_error: 'the endpoint was deleted', updated: now })
      .where('endpoint_id', '=', id)
      .where('status', '=', 'pending')
      .execute();
    return true;
  });
}

/** A new current secret; the one before it is kept (signing too) until `previousExpires`. */
export async function replaceEndpointSecret(store: Store, id: string, secrets: { current: string; previous: string; previousExpires: number }): Promise<void> {
  await store
    .updateTable('webhook_endpoints')
    .set({ secret_sealed: secrets.current, previous_secret_sealed: secrets.previous, previous_secret_expires: secrets.previousExpires })
    .where('id', '=', id)
    .execute();
}

export interface EventPageFilter {
  appId: string;
  type?: WebhookEventType;
  /** ms since the epoch, as `created`. */
  createdGte?: number;
  createdLt?: number;
  /** The last event of the previous page. */
  after?: { created: number; id: string };
  limit: number;
}

/** One page of the app's events, newest first; keyset on (created, id) as store/session-list.ts pages sessions. */
export async function eventPage(store: Store, filter: EventPageFilter): Promise<{ bodies: string[]; hasMore: boolean }> {
  let query = store.selectFrom('events').select('body').where('app_id', '=', filter.appId);
  if (filter.type !== undefined) query = query.where('type', '=', filter.type);
  if (filter.createdGte !== undefined) query = query.where('created', '>=', filter.createdGte);
  if (filter.createdLt !== undefined) query = query.where('created', '<', filter.createdLt);
  const after = filter.after;
  if (after) query = query.where(({ eb, or, and }) => or([eb('created', '<', after.created), and([eb('created', '=', after.created), eb('id', '<', after.id)])]));
  const rows = await query.orderBy('created', 'desc').orderBy('id', 'desc').limit(filter.limit + 1).execute();
  return { bodies: rows.slice(0, filter.limit).map((row) => row.body), hasMore: rows.length > filter.limit };
}

export function findEvent(store: Store, appId: string, id: string): Promise<{ id: string; type: string; created: number; body: string } | undefined> {
  return store.selectFrom('events').select(['id', 'type', 'created', 'body']).where('id', '=', id).where('app_id', '=', appId).executeTakeFirst();
}

/**
 * Sends the event again to every live endpoint of the app that listens to
 * its type now: its deliveries start over (failed or delivered alike, with a
 * retry window from now), and an endpoint added since gets one. Returns the endpoints.
 */
export async function redeliverEvent(store: Store, event: { id: string; type: WebhookEventType }, appId: string, now: number, retryUntil: number): Promise<string[]> {
  return store.transaction().execute(async (trx) => {
    const endpoints = (await trx.selectFrom('webhook_endpoints').select(['id', 'events']).where('app_id', '=', appId).where('deleted', 'is', null).orderBy('created').execute()).filter(
      (endpoint) => endpointListensTo(endpoint.events, event.type),
    );
    const ids = endpoints.map((endpoint) => endpoint.id);
    if (ids.length === 0) return [];
    await trx
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', attempts: 0, next_attempt: now, retry_until: retryUntil, last_status_code: null, last_error: null, updated: now })
      .where('event_id', '=', event.id)
      .where('endpoint_id', 'in', ids)
      .execute();
    const existing = new Set((await trx.selectFrom('webhook_deliveries').select('endpoint_id').where('event_id', '=', event.id).execute()).map((row) => row.endpoint_id));
    const missing = ids.filter((id) => !existing.has(id));
    if (missing.length > 0) {
      await trx
        .insertInto('webhook_deliveries')
        .values(missing.map((endpointId) => pendingDelivery(event.id, endpointId, now, retryUntil)))
        .execute();
    }
    return ids;
  });
}

/** A delivery the worker leased to send: the event as stored and the endpoint's URL and sealed secrets. */
export interface DueDelivery {
  id: string;
  attempts: number;
  retry_until: number | null;
  event_created: number;
  body: string;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires: number | null;
}

const DUE_DELIVERY_COLUMNS = [
  'webhook_deliveries.id',
  'webhook_deliveries.attempts',
  'webhook_deliveries.retry_until',
  'events.created as event_created',
  'events.body',
  'webhook_endpoints.url',
  'webhook_endpoints.secret_sealed',
  'webhook_endpoints.previous_secret_sealed',
  'webhook_endpoints.previous_secret_expires',
] as const;

/**
 * Leases up to `limit` deliveries due by `now` (pending, next attempt passed, no lease or a lapsed one, to a live
 * endpoint), oldest first, until `leaseUntil`: the lease is the token recordAttempt checks. On PostgreSQL one
 * statement, whose `FOR UPDATE SKIP LOCKED` passes over the rows another instance is leasing at that moment, so
 * instances claiming together never wait for nor contend for the same rows. On SQLite (one process, one writer at a
 * time) a read, then a compare-and-set on each row's lease as read.
 */
export async function leaseDueDeliveries(store: Store, now: number, limit: number, leaseUntil: number): Promise<DueDelivery[]> {
  if (!onPostgres(store)) return leaseDueOneByOne(store, now, limit, leaseUntil);
  return store
    .with('leased', (db) =>
      db
        .updateTable('webhook_deliveries')
        .set({ lease_until: leaseUntil, updated: now })
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('webhook_deliveries as due')
            .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'due.endpoint_id')
            .select('due.id')
            .where('due.status', '=', 'pending')
            .where('due.next_attempt', '<=', now)
            .where((eb) => eb.or([eb('due.lease_until', 'is', null), eb('due.lease_until', '<', now)]))
            .where('webhook_endpoints.deleted', 'is', null)
            .orderBy('due.next_attempt')
            .limit(limit)
            .forUpdate('due')
            .skipLocked(),
        )
        .returning(['id', 'attempts', 'retry_until', 'event_id', 'endpoint_id', 'next_attempt']),
    )
    .selectFrom('leased as webhook_deliveries')
    .innerJoin('events', 'events.id', 'webhook_deliveries.event_id')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
    .select(DUE_DELIVERY_COLUMNS)
    .orderBy('webhook_deliveries.next_attempt')
    .execute();
}

async function leaseDueOneByOne(store: Store, now: number, limit: number, leaseUntil: number): Promise<DueDelivery[]> {
  const due = await store
    .selectFrom('webhook_deliveries')
    .innerJoin('events', 'events.id', 'webhook_deliveries.event_id')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
    .select([...DUE_DELIVERY_COLUMNS, 'webhook_deliveries.lease_until'])
    .where('webhook_deliveries.status', '=', 'pending')
    .where('webhook_deliveries.next_attempt', '<=', now)
    .where((eb) => eb.or([eb('webhook_deliveries.lease_until', 'is', null), eb('webhook_deliveries.lease_until', '<', now)]))
    .where('webhook_endpoints.deleted', 'is', null)
    .orderBy('webhook_deliveries.next_attempt')
    .limit(limit)
    .execute();
  const leased: DueDelivery[] = [];
  for (const { lease_until: asRead, ...delivery } of due) {
    const taken = await store
      .updateTable('webhook_deliveries')
      .set({ lease_until: leaseUntil, updated: now })
      .where('id', '=', delivery.id)
      .where('status', '=', 'pending')
      .where('lease_until', asRead === null ? 'is' : '=', asRead)
      .executeTakeFirst();
    if (taken.numUpdatedRows === 1n) leased.push(delivery);
  }
  return leased;
}

/**
 * When the next pending delivery falls due: its next attempt, or when its lease lapses if it is leased (its sender
 * may die). Undefined when nothing is pending. The worker sleeps until then instead of polling.
 */
export async function nextDeliveryDue(store: Store): Promise<number | undefined> {
  const row = await store
    .selectFrom('webhook_deliveries')
    .select((eb) =>
      eb.fn
        .min<number | null>(eb.case().when('lease_until', '>', eb.ref('next_attempt')).then(eb.ref('lease_until')).else(eb.ref('next_attempt')).end())
        .as('due'),
    )
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return row?.due ?? undefined;
}

export type DeliveryOutcome =
  | { status: 'delivered'; statusCode: number }
  | { status: 'pending'; nextAttempt: number; statusCode: number | null; error: string }
  | { status: 'failed'; statusCode: number | null; error: string };

/** Records an attempt under the lease `leaseUntil`; a lease lost meanwhile (it lapsed and another took it) records nothing. */
export async function recordAttempt(store: Store, id: string, leaseUntil: number, outcome: DeliveryOutcome, now: number): Promise<void> {
  await store
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      status: outcome.status,
      attempts: eb('attempts', '+', 1),
      lease_until: null,
      last_status_code: outcome.statusCode,
      last_error: outcome.status === 'delivered' ? null : outcome.error,
      ...(outcome.status === 'delivered' ? { delivered: now } : {}),
      ...(outcome.status === 'pending' ? { next_attempt: outcome.nextAttempt } : {}),
      updated: now,
    }))
    .where('id', '=', id)
    .where('lease_until', '=', leaseUntil)
    .execute();
}
