/**
 * The events API: an app's events as they were recorded (and delivered),
 * newest first, and their redelivery.
 */
import type { App } from '../apps';
import { type Event, type EventList, type EventRedelivery, ListEventsQuery, WebhookEventType } from '../../contracts';
import { invalidRequest } from '../../common/http/errors';
import { type Failure, type Result, err, ok } from '../../common/result';
import type { DataCipher } from '../lib/data-cipher';
import type { Store } from '../store';
import { openEventBody } from '../store/events';
import { eventPage, findEvent, redeliverEvent } from '../store/webhooks';

const noSuchEvent: Failure = { code: 'not_found', message: 'No such event' };

/** GET /api/events. `starting_after` must be one of this app's events, as GET /api/sessions wants one of its sessions. */
export async function listEvents(store: Store, cipher: DataCipher, app: App, query: unknown): Promise<Result<EventList, Failure>> {
  const parsed = ListEventsQuery.safeParse(query);
  if (!parsed.success) return err(invalidRequest(parsed.error, '(query)'));
  const { type, created_gte, created_lt, limit, starting_after } = parsed.data;
  const cursor = starting_after === undefined ? undefined : await findEvent(store, app.id, starting_after);
  if (starting_after !== undefined && !cursor) return err({ code: 'invalid_request', message: 'starting_after: no event of this application has this id' });
  const page = await eventPage(store, { appId: app.id, type, createdGte: created_gte, createdLt: created_lt, after: cursor, limit });
  return ok({ object: 'list', data: page.bodies.map((body) => JSON.parse(openEventBody(cipher, body)) as Event), has_more: page.hasMore });
}

export async function getEvent(store: Store, cipher: DataCipher, app: App, id: string): Promise<Result<Event, Failure>> {
  const found = await findEvent(store, app.id, id);
  return found ? ok(JSON.parse(openEventBody(cipher, found.body)) as Event) : err(noSuchEvent);
}

/**
 * POST /api/events/{id}/redeliver: the event goes again to every live
 * endpoint that listens to its type now (one added since included), with a
 * retry window of its own from now.
 */
export async function redeliver(store: Store, app: App, id: string, retryWindowMs: number): Promise<Result<EventRedelivery, Failure>> {
  const found = await findEvent(store, app.id, id);
  if (!found) return err(noSuchEvent);
  const now = Date.now();
  const endpoints = await redeliverEvent(store, { id: found.id, type: WebhookEventType.parse(found.type) }, app.id, now, now + retryWindowMs);
  return ok({ object: 'event_redelivery', event: found.id, endpoints });
}
