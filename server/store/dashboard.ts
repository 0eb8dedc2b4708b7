/**
 * The dashboard's reads (server/dashboard/): what happened to one payment, as
 * the stores and the outbox recorded it, and an endpoint's recent deliveries.
 */
import type { Store } from '.';

/** A session's charge attempts, oldest first: never the sealed request, which holds payment data. */
export const attemptsOfSession = (store: Store, sessionId: string) =>
  store
    .selectFrom('charge_attempts')
    .select(['attempt_no', 'status', 'source_type', 'outcome', 'authentication_session', 'created', 'updated'])
    .where('session_id', '=', sessionId)
    .orderBy('attempt_no')
    .execute();

/**
 * The events about a session or its refunds, oldest first, by their `session_id` column (an event that
 * carries a billing address is sealed, so its body cannot be searched). A refund event's body comes with it:
 * it names the refund the event reports, and is never sealed.
 */
export const eventsOfSession = (store: Store, appId: string, sessionId: string) =>
  store
    .selectFrom('events')
    .select((eb) => ['id', 'type', 'created', eb.case().when('type', 'like', 'refund.%').then(eb.ref('body')).else(null).end().as('refund_body')])
    .where('app_id', '=', appId)
    .where('session_id', '=', sessionId)
    .orderBy('created')
    .orderBy('id')
    .execute();

const deliveryColumns = [
  'webhook_deliveries.id',
  'webhook_deliveries.event_id',
  'webhook_deliveries.endpoint_id',
  'webhook_deliveries.status',
  'webhook_deliveries.attempts',
  'webhook_deliveries.last_status_code',
  'webhook_deliveries.last_error',
  'webhook_deliveries.delivered',
  'webhook_deliveries.next_attempt',
  'webhook_deliveries.updated',
  'webhook_endpoints.url',
  'events.type as event_type',
] as const;

/** The deliveries of these events, to any endpoint of the app (deleted ones included). */
export const deliveriesOfEvents = (store: Store, eventIds: readonly string[]) =>
  eventIds.length === 0
    ? Promise.resolve([])
    : store
        .selectFrom('webhook_deliveries')
        .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
        .innerJoin('events', 'events.id', 'webhook_deliveries.event_id')
        .select(deliveryColumns)
        .where('webhook_deliveries.event_id', 'in', eventIds)
        .orderBy('webhook_deliveries.created')
        .execute();

/** An endpoint's latest deliveries, newest first. */
export const recentDeliveries = (store: Store, endpointId: string, limit: number) =>
  store
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
    .innerJoin('events', 'events.id', 'webhook_deliveries.event_id')
    .select(deliveryColumns)
    .where('webhook_deliveries.endpoint_id', '=', endpointId)
    .orderBy('webhook_deliveries.created', 'desc')
    .orderBy('webhook_deliveries.id', 'desc')
    .limit(limit)
    .execute();

export type DeliveryRow = Awaited<ReturnType<typeof recentDeliveries>>[number];
