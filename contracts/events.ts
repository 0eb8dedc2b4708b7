/**
 * Events: what happened to an app's resources, kept in the store (the outbox)
 * in the same transaction as the change itself, and pushed to the app's
 * webhook endpoints. `data.object` is the resource as the API returns it at
 * the moment of the change.
 */
import { z } from 'zod';
import { DISPUTE_EVENT_TYPES, PAYMENT_EVENT_TYPES, PAYMENT_METHOD_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from './event-types';
import { Dispute } from './disputes';
import { Refund } from './refunds';
import { PaymentMethod } from './saved-cards';
import { Session } from './sessions';

/** A payment's events: its session's and its refunds' (what the dashboard's timeline and deliveries show). */
export const EventType = z.enum(PAYMENT_EVENT_TYPES).meta({ id: 'EventType' });
export type EventType = z.infer<typeof EventType>;

/**
 * A kept card's events (docs/saved-cards.md): attached when a payment first keeps it for a customer; updated
 * when it is kept again, the network updates the card, or its issuer says it expired; detached, for good.
 */
export const PaymentMethodEventType = z.enum(PAYMENT_METHOD_EVENT_TYPES).meta({ id: 'PaymentMethodEventType' });
export type PaymentMethodEventType = z.infer<typeof PaymentMethodEventType>;

/** A dispute's events (docs/disputes.md): `created` when the cardholder's bank opens it, `updated` when evidence is submitted, `closed` when it is won or lost. */
export const DisputeEventType = z.enum(DISPUTE_EVENT_TYPES).meta({ id: 'DisputeEventType' });
export type DisputeEventType = z.infer<typeof DisputeEventType>;

/** Every event an endpoint can listen to: a payment's, a kept card's and a dispute's. */
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES).meta({ id: 'WebhookEventType' });
export type WebhookEventType = z.infer<typeof WebhookEventType>;

export const EventId = z.string().regex(/^evt_[A-Za-z0-9_-]{22}$/, 'an event id (evt_...)');

export const Event = z.object({
  id: z.string(),
  object: z.literal('event'),
  type: WebhookEventType,
  /** ms since the epoch, like every timestamp of the API. */
  created: z.number().int(),
  app_id: z.string(),
  data: z.object({ object: z.discriminatedUnion('object', [Session, Refund, PaymentMethod, Dispute]) }),
}).meta({ id: 'Event' });
export type Event = z.infer<typeof Event>;
