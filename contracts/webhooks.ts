/**
 * Webhook endpoints and the events API (docs/webhooks.md): where an app's
 * events are pushed, signed with a secret of the endpoint's own, and how a
 * merchant reads or redelivers them.
 */
import { z } from 'zod';
import { EventId, Event, WebhookEventType } from './events';
import { MerchantUrl } from './merchant-url';
import { listOf, pageLimit, QueryInteger, startingAfter } from './paging';

/** An app's live endpoints, at most: enough for a shop and its staging copies; every event fans out to each. */
export const MAX_WEBHOOK_ENDPOINTS_PER_APP = 16;

export const WebhookEndpointId = z.string().regex(/^we_[A-Za-z0-9_-]{22}$/, 'a webhook endpoint id (we_...)');

/** POST /api/webhook_endpoints. */
export const CreateWebhookEndpointBody = z.strictObject({
  url: MerchantUrl.meta({ description: 'Where events are POSTed; in production an https URL of a public address' }),
  events: z
    .array(WebhookEventType)
    .min(1)
    .optional()
    .meta({ description: 'The event types sent to this endpoint; every type (also those added later) when absent' }),
}).meta({ id: 'CreateWebhookEndpointBody' });
export type CreateWebhookEndpointBody = z.input<typeof CreateWebhookEndpointBody>;

/** An endpoint as the API shows it: never its secret. */
export const WebhookEndpoint = z.object({
  id: z.string(),
  object: z.literal('webhook_endpoint'),
  url: z.string(),
  /** null: every type. */
  events: z.array(WebhookEventType).nullable(),
  created: z.number().int(),
}).meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

/** The reply to POST /api/webhook_endpoints: the only time the signing secret is shown. */
export const CreatedWebhookEndpoint = WebhookEndpoint.extend({
  secret: z.string().meta({ description: 'The signing secret, whsec_...: shown only here' }),
}).meta({ id: 'CreatedWebhookEndpoint' });
export type CreatedWebhookEndpoint = z.infer<typeof CreatedWebhookEndpoint>;

export const WebhookEndpointList = z.object({
  object: z.literal('list'),
  data: z.array(WebhookEndpoint),
  has_more: z.literal(false),
}).meta({ id: 'WebhookEndpointList' });
export type WebhookEndpointList = z.infer<typeof WebhookEndpointList>;

/** The reply to POST /api/webhook_endpoints/{id}/roll_secret (body: RollSecretKeyBody, as POST /api/keys/roll): the only time the new secret is shown. */
export const RolledWebhookSecret = z.object({
  object: z.literal('webhook_endpoint_secret'),
  endpoint: z.string(),
  secret: z.string().meta({ description: 'The new signing secret, whsec_...: shown only here' }),
  created: z.number().int(),
  /** Until then (ms since the epoch) each delivery carries a signature by the previous secret as well. */
  previous_secret_expires: z.number().int(),
}).meta({ id: 'RolledWebhookSecret' });
export type RolledWebhookSecret = z.infer<typeof RolledWebhookSecret>;

/**
 * GET /api/events: newest first, keyset on (created, id) like GET /api/sessions, with its
 * `created_gte` / `created_lt` (ms since the epoch): how a follower (`wallet-checkout listen`) asks
 * only for the events of its last few seconds, whatever the app's history holds.
 */
export const ListEventsQuery = z.strictObject({
  type: WebhookEventType.optional().meta({ description: 'Only events of this type' }),
  created_gte: QueryInteger.optional().meta({ description: 'Only events recorded at or after this time (ms since the epoch)' }),
  created_lt: QueryInteger.optional().meta({ description: 'Only events recorded before this time (ms since the epoch)' }),
  limit: pageLimit('Events'),
  starting_after: startingAfter(EventId, 'event'),
});
export type ListEventsQuery = z.infer<typeof ListEventsQuery>;

export const EventList = listOf(Event).meta({ id: 'EventList' });
export type EventList = z.infer<typeof EventList>;

/** The reply to POST /api/events/{id}/redeliver. */
export const EventRedelivery = z.object({
  object: z.literal('event_redelivery'),
  event: z.string(),
  /** The endpoints the event is being sent to again: every live one that listens to its type now. */
  endpoints: z.array(z.string()),
}).meta({ id: 'EventRedelivery' });
export type EventRedelivery = z.infer<typeof EventRedelivery>;

/** The reply to DELETE /api/webhook_endpoints/{id}: nothing more is sent to it, pending deliveries included. */
export const DeletedWebhookEndpoint = z.object({
  id: z.string(),
  object: z.literal('webhook_endpoint'),
  deleted: z.literal(true),
}).meta({ id: 'DeletedWebhookEndpoint' });
export type DeletedWebhookEndpoint = z.infer<typeof DeletedWebhookEndpoint>;
