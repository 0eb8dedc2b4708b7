/**
 * The outbox. `recordEvent` runs inside the transaction of the change the
 * event tells of: the event and its deliveries commit with it or not at all,
 * so no event is lost and none is sent for a change that rolled back.
 */
import { type Insertable, type Kysely, type QueryCreator, sql, type Transaction } from 'kysely';
import type { Event, WebhookEventType } from '../../contracts';
import type { DataCipher } from '../lib/data-cipher';
import { randomId } from '../../common/secrets';
import type { BackendDatabase, EventsTable } from './schema';
import { compiledOnce } from './compiled-once';
import { type SyncTransaction, syncStatement } from './sync-statements';

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
export type EventRow = Insertable<EventsTable>;
/** An event's row as newEvent makes it: every column given. */
type NewEventRow = Required<Omit<EventRow, 'session_id'>> & { session_id: string | null };

export function newEvent(appId: string, type: WebhookEventType, object: Event['data']['object'], sealWith: DataCipher | undefined, now: number): { event: Event; row: NewEventRow } {
  const event: Event = { id: `evt_${randomId(16)}`, object: 'event', type, created: now, app_id: appId, data: { object } };
  const body = JSON.stringify(event);
  return { event, row: { id: event.id, app_id: appId, type, created: now, body: sealWith ? sealWith.seal(body) : body, personal_data: sealWith ? 1 : 0, session_id: sessionOf(object) } };
}

type Db = Kysely<BackendDatabase>;
const eventInsert = (db: Db, row: NewEventRow) =>
  db.insertInto('events').values({ id: row.id, app_id: row.app_id, type: row.type, created: row.created, body: row.body, personal_data: row.personal_data, session_id: row.session_id });
const liveEndpointsQuery = (db: Db, { appId }: { appId: string }) => db.selectFrom('webhook_endpoints').select(['id', 'events']).where('app_id', '=', appId).where('deleted', 'is', null);
const deliveriesInsert = (db: Db, rows: ReturnType<typeof pendingDelivery>[]) => db.insertInto('webhook_deliveries').values(rows);

/** Compiled once, as every move that tells the merchant (a payment's outcome among them) runs them. */
const compiled = { eventInsert: compiledOnce(eventInsert), liveEndpoints: compiledOnce(liveEndpointsQuery), deliveriesInsert: compiledOnce(deliveriesInsert) };
/** The same statements in SQLite's synchronous transactions (a payment's outcome, store/attempt-moves.ts). */
const prepared = { eventInsert: syncStatement(eventInsert), liveEndpoints: syncStatement(liveEndpointsQuery), deliveriesInsert: syncStatement(deliveriesInsert) };

const listeningTo = <Endpoint extends { events: string | null }>(endpoints: Endpoint[], type: WebhookEventType): Endpoint[] =>
  endpoints.filter((endpoint) => endpointListensTo(endpoint.events, type));

/**
 * Records an event about `object` for `appId`, and a pending delivery to each of the app's endpoints that
 * listens to its type. `sealWith`: the object carries personal data, and the body is kept sealed with it.
 */
export async function recordEvent(trx: StoreTransaction, appId: string, type: WebhookEventType, object: Event['data']['object'], sealWith?: DataCipher): Promise<Event> {
  const now = Date.now();
  const { event, row } = newEvent(appId, type, object, sealWith, now);
  await compiled.eventInsert(trx, row);
  const listening = listeningTo(await compiled.liveEndpoints(trx, { appId }), type);
  if (listening.length > 0) await compiled.deliveriesInsert(trx, listening.map((endpoint) => pendingDelivery(event.id, endpoint.id, now)));
  return event;
}

/** recordEvent's writes for an event newEvent made, in SQLite's synchronous transaction: the same statements, run by better-sqlite3. */
export function recordNewEvent(transaction: SyncTransaction, { event, row }: ReturnType<typeof newEvent>): void {
  prepared.eventInsert(transaction, row);
  const listening = listeningTo(prepared.liveEndpoints(transaction, { appId: row.app_id }), event.type);
  if (listening.length === 0) return;
  prepared.deliveriesInsert(transaction, listening.map((endpoint) => pendingDelivery(event.id, endpoint.id, row.created)));
  transaction.signal('webhooks');
}

/**
 * PostgreSQL: `statement` (a WITH chain) with two more steps, which record `event` when the step `gate` of
 * the statement wrote a row (the change the event tells of), and with it a pending delivery to each live
 * endpoint of the app that listens to its type, read in the statement as recordEvent reads them in its
 * transaction. One statement, so the event and its deliveries commit with the change or not at all.
 */
export function recordingEvent<Statement>(statement: Statement, gate: string, event: EventRow): Statement {
  // The gate's name is the caller's: its table is not one this module can name in a type.
  const chain = statement as unknown as QueryCreator<BackendDatabase & Record<string, { id: string }>>;
  const now = event.created;
  return chain
    .with('event', (db) =>
      db
        .insertInto('events')
        .columns(['id', 'app_id', 'type', 'created', 'body', 'personal_data', 'session_id'])
        .expression((eb) =>
          eb
            .selectFrom(gate)
            .select([
              sql<string>`${event.id}::text`.as('id'),
              sql<string>`${event.app_id}::text`.as('app_id'),
              sql<string>`${event.type}::text`.as('type'),
              sql<number>`${event.created}::bigint`.as('created'),
              sql<string>`${event.body}::text`.as('body'),
              sql<number>`${event.personal_data ?? 0}::integer`.as('personal_data'),
              sql<string | null>`${event.session_id ?? null}::text`.as('session_id'),
            ]),
        )
        .returning('events.id'),
    )
    .with('deliveries', (db) =>
      db
        .insertInto('webhook_deliveries')
        .columns(['id', 'event_id', 'endpoint_id', 'status', 'next_attempt', 'created', 'updated'])
        .expression((eb) =>
          eb
            .selectFrom('event')
            .innerJoin('webhook_endpoints', (join) => join.onTrue())
            .select([
              // pendingDelivery's: whd_ and 16 random bytes in base64url, here a random UUID's.
              sql<string>`'whd_' || rtrim(translate(encode(uuid_send(gen_random_uuid()), 'base64'), '+/', '-_'), '=')`.as('id'),
              'event.id as event_id',
              'webhook_endpoints.id as endpoint_id',
              sql<string>`'pending'`.as('status'),
              sql<number>`${now}::bigint`.as('next_attempt'),
              sql<number>`${now}::bigint`.as('created'),
              sql<number>`${now}::bigint`.as('updated'),
            ])
            .where('webhook_endpoints.app_id', '=', event.app_id)
            .where('webhook_endpoints.deleted', 'is', null)
            // endpointListensTo: a null list is every type.
            .where((eb) => eb.or([eb('webhook_endpoints.events', 'is', null), sql<boolean>`webhook_endpoints.events::jsonb @> jsonb_build_array(${event.type}::text)`])),
        ),
    ) as unknown as Statement;
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
