/**
 * Events: what happened to an app's resources, kept in the store (the outbox)
 * in the same transaction as the change itself, and pushed to the app's
 * webhook endpoints. `data.object` is the resource as the API returns it at
 * the moment of the change.
 */
import { z } from 'zod';
import { Refund } from './refunds';
import { Session } from './sessions';

export const EventType = z.enum([
  'session.succeeded',
  'session.authorized',
  'session.captured',
  'session.released',
  'session.payment_failed',
  'session.expired',
  'refund.succeeded',
  'refund.failed',
]).meta({ id: 'EventType' });
export type EventType = z.infer<typeof EventType>;

export const EventId = z.string().regex(/^evt_[A-Za-z0-9_-]{22}$/, 'an event id (evt_...)');

export const Event = z.object({
  id: z.string(),
  object: z.literal('event'),
  type: EventType,
  /** ms since the epoch, like every timestamp of the API. */
  created: z.number().int(),
  app_id: z.string(),
  data: z.object({ object: z.discriminatedUnion('object', [Session, Refund]) }),
}).meta({ id: 'Event' });
export type Event = z.infer<typeof Event>;
