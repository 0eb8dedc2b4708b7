/**
 * The outbox. `recordEvent` runs inside the transaction of the change the
 * event tells of: the event and its deliveries commit with it or not at all,
 * so no event is lost and none is sent for a change that rolled back.
 */
import type { Insertable, Transaction } from 'kysely';
import type { Event, WebhookEventType } from '../../contracts';
import type { DataCipher } from '../lib/data-cipher';
import { randomId } from '../../common/secrets';
import type { BackendDatabase, EventsTable } from './schema';

export type StoreTransaction = Transaction<BackendDatabase>;

/** Whether an endpoint listening to `events` (JSON array, or null for all) takes `type`. */
export function endpointListensTo(events: string | null, type: WebhookEventType): boolean {
  return events === null || (JSON.parse(events) as string[]).includes(type);
}

/** A delivery of `eventId` to `endpointId`, due at once; `retryUntil` null: the event's own window (a redelivery sets its own). */
export function pendingDelivery(eventId: string, endpointId: string, now: number, retryUntil: number | null = null) {
  return {
    id: `whd_${randomId(16)}`,
    event_id: eventId,
    endpoint_id: endpointId,
    status: 'pending',
    next_attempt: now,
    lease_until: null,
    last_status_code: null,
    last_error: null,
    delivered: null,
    created: now,
    updated: now,
    retry_until: retryUntil,
  };
}

/** An event about `object` for `appId`, and its row in `events`. `sealWith`: the object carries personal data, and the body is kept sealed with it. */
export function newEvent(appId: string, type: WebhookEventType, object: Event['data']['object'], sealWith: DataCipher | undefined, now: number): { event: Event; row: Insertable<EventsTable> } {
  const event: Event = { id: `evt_${randomId(16)}`, object: 'event', type, created: now, app_id: appId, data: { object } };
  const body = JSON.stringify(event);
  return { event, row: { id: event.id, app_id: appId, type, created: now, body: sealWith ? sealWith.seal(body) : body, personal_data: sealWith ? 1 : 0, session_id: sessionOf(object) } };
}

/**
 * Records an event about `object` for `appId`, and a pending delivery to each of the app's endpoints that
 * listens to its type. `sealWith`: the object carries personal data, and the body is kept sealed with it.
 */
export async function recordEvent(trx: StoreTransaction, appId: string, type: WebhookEventType, object: Event['data']['object'], sealWith?: DataCipher): Promise<Event> {
  const now = Date.now();
  const { event, row } = newEvent(appId, type, object, sealWith, now);
  await trx.insertInto('events').values(row).execute();
  const endpoints = await trx.selectFrom('webhook_endpoints').select(['id', 'events']).where('app_id', '=', appId).where('deleted', 'is', null).execute();
  const listening = endpoints.filter((endpoint) => endpointListensTo(endpoint.events, type));
  if (listening.length > 0) {
    await trx
      .insertInto('webhook_deliveries')
      .values(listening.map((endpoint) => pendingDelivery(event.id, endpoint.id, now)))
      .execute();
  }
  return event;
}

/** The session an event is about, for the dashboard's timeline: a session's own, a refund's; none for a kept card. */
function sessionOf(object: Event['data']['object']): string | null {
  if (object.object === 'refund') return object.session_id;
  return object.object === 'checkout_session' ? object.id : null;
}

/**
 * An event's body as recorded, opened if it is sealed (a JSON body starts with `{`, a sealed one never does).
 * A body the data key does not open is a misconfigured key: an error that says so.
 */
export function openEventBody(cipher: DataCipher, body: string): string {
  if (body.startsWith('{')) return body;
  const opened = cipher.open(body);
  if (!opened.ok) throw new Error(`a sealed event body does not open: ${opened.error.message}`);
  return opened.value;
}
