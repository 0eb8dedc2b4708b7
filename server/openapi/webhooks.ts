/** The webhook API's part of the OpenAPI document (docs/webhooks.md). */
import { z } from 'zod';
import type { ZodOpenApiObject } from 'zod-openapi';
import { CreatedWebhookEndpoint, CreateWebhookEndpointBody, DeletedWebhookEndpoint, EmptyBody, Event, EventList, EventRedelivery, ListEventsQuery, RolledWebhookSecret, RollSecretKeyBody, WebhookEndpointList, WebhookEventType } from '../../contracts';
import { webhookAnswers, webhookBodies } from '../webhooks/routes';
import { SIGNATURE_HEADER } from '../webhooks/signature';
import { errorResponses, idempotencyKey, reply, requestBody } from './parts';

const endpointId = z.object({ id: z.string().meta({ description: 'The webhook endpoint id (we_...)' }) });
const eventId = z.object({ id: z.string().meta({ description: 'The event id (evt_...)' }) });
const secretKey = [{ merchantSecretKey: [] }];

export const webhookPaths: ZodOpenApiObject['paths'] = {
  '/api/webhook_endpoints': {
    post: {
      operationId: 'createWebhookEndpoint',
      tags: ['Webhook endpoints'],
      summary: 'Register a webhook endpoint',
      description: 'Register a URL that events are POSTed to, signed with the secret returned (shown only here)',
      security: secretKey,
      requestParams: { header: z.object({ 'idempotency-key': idempotencyKey.optional() }) },
      requestBody: requestBody(webhookBodies['POST /api/webhook_endpoints'], CreateWebhookEndpointBody),
      responses: {
        '201': reply('The endpoint and its signing secret', CreatedWebhookEndpoint),
        ...errorResponses(webhookAnswers.createWebhookEndpoint),
      },
    },
    get: {
      operationId: 'listWebhookEndpoints',
      tags: ['Webhook endpoints'],
      summary: 'List webhook endpoints',
      description: "The application's live endpoints, without their secrets",
      security: secretKey,
      responses: {
        '200': reply('Every live endpoint (at most 16)', WebhookEndpointList),
        ...errorResponses(webhookAnswers.listWebhookEndpoints),
      },
    },
  },
  '/api/webhook_endpoints/{id}': {
    delete: {
      operationId: 'deleteWebhookEndpoint',
      tags: ['Webhook endpoints'],
      summary: 'Delete a webhook endpoint',
      description: 'Stop sending to the endpoint, its pending deliveries included',
      security: secretKey,
      requestParams: { path: endpointId },
      responses: {
        '200': reply('The endpoint is deleted', DeletedWebhookEndpoint),
        ...errorResponses(webhookAnswers.deleteWebhookEndpoint),
      },
    },
  },
  '/api/webhook_endpoints/{id}/roll_secret': {
    post: {
      operationId: 'rollWebhookSecret',
      tags: ['Webhook endpoints'],
      summary: "Roll an endpoint's signing secret",
      description: 'A new signing secret, used at once; deliveries carry a signature by the current one too for expire_current_in_seconds',
      security: secretKey,
      requestParams: { path: endpointId, header: z.object({ 'idempotency-key': idempotencyKey.optional() }) },
      requestBody: requestBody(webhookBodies['POST /api/webhook_endpoints/:endpointId/roll_secret'], RollSecretKeyBody),
      responses: {
        '201': reply('The new secret (shown only here) and until when the current one signs too', RolledWebhookSecret),
        ...errorResponses(webhookAnswers.rollWebhookSecret),
      },
    },
  },
  '/api/events': {
    get: {
      operationId: 'listEvents',
      tags: ['Events'],
      summary: 'List events',
      description: "The application's events, newest first, a page at a time (starting_after: the last id of the previous page); created_gte and created_lt keep a time window, as a follower of new events (wallet-checkout listen) asks",
      security: secretKey,
      requestParams: { query: ListEventsQuery },
      responses: {
        '200': reply('One page; has_more says whether another follows', EventList),
        ...errorResponses(webhookAnswers.listEvents),
      },
    },
  },
  '/api/events/{id}': {
    get: {
      operationId: 'getEvent',
      tags: ['Events'],
      summary: 'Read an event',
      description: 'One event, exactly as it is delivered',
      security: secretKey,
      requestParams: { path: eventId },
      responses: {
        '200': reply('The event', Event),
        ...errorResponses(webhookAnswers.getEvent),
      },
    },
  },
  '/api/events/{id}/redeliver': {
    post: {
      operationId: 'redeliverEvent',
      tags: ['Events'],
      summary: 'Redeliver an event',
      description: 'Send the event again to every live endpoint that listens to its type (failed, delivered, or added since), with a new retry window. No body, or `{}`.',
      security: secretKey,
      requestParams: { path: eventId },
      requestBody: requestBody(webhookBodies['POST /api/events/:eventId/redeliver'], EmptyBody),
      responses: {
        '202': reply('The endpoints it is being sent to', EventRedelivery),
        ...errorResponses(webhookAnswers.redeliverEvent),
      },
    },
  },
};

/**
 * What each endpoint receives: one POST per event, its type one of WebhookEventType, signed in the
 * SIGNATURE_HEADER header (docs/webhooks.md, "Verifying a delivery"). A 2xx within the timeout is
 * delivered; anything else is retried with backoff until the retry window closes.
 */
/** Event's component id (contracts/events.ts), rendered once by the events API's replies. */
const EVENT_COMPONENT = 'Event';

export const webhookEvents: ZodOpenApiObject['webhooks'] = Object.fromEntries(
  WebhookEventType.options.map((type) => [
    type,
    {
      post: {
        operationId: `${type.replace(/[._](\w)/g, (_match, letter: string) => letter.toUpperCase())}Event`,
        tags: ['Events'],
        summary: `The \`${type}\` event`,
        description: `POSTed to every live endpoint that listens to \`${type}\` (or to every type): the event, exactly as GET /api/events/{id} returns it.`,
        // No credential of the receiver's: the signature header proves the sender (docs/webhooks.md).
        security: [],
        requestParams: { header: z.object({ [SIGNATURE_HEADER.toLowerCase()]: z.string().meta({ description: 't=<unix seconds>,v1=<HMAC-SHA256 of "t.body" by each live secret, hex>' }) }) },
        // By reference: a request body is rendered as zod's input, which would make a second Event component for the one the events API replies with.
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${EVENT_COMPONENT}` } } } },
        responses: {
          '200': { description: 'Any 2xx: delivered. Any other status, a timeout or a redirect: the delivery is retried' },
        },
      },
    },
  ]),
);
