/** The webhook API's part of the OpenAPI document (docs/webhooks.md). */
import { z } from 'zod';
import type { ZodOpenApiObject } from 'zod-openapi';
import { CreatedWebhookEndpoint, CreateWebhookEndpointBody, DeletedWebhookEndpoint, Event, EventList, EventRedelivery, ListEventsQuery, RolledWebhookSecret, RollSecretKeyBody, WebhookEndpoint, WebhookEndpointList } from '../contracts';
import { apiError, idempotencyKey, json, reply, storeDown } from './parts';

const endpointId = z.object({ id: z.string().meta({ description: 'The webhook endpoint id (we_...)' }) });
const eventId = z.object({ id: z.string().meta({ description: 'The event id (evt_...)' }) });
const secretKey = [{ merchantSecretKey: [] }];

export const webhookPaths: ZodOpenApiObject['paths'] = {
  '/api/webhook_endpoints': {
    post: {
      operationId: 'createWebhookEndpoint',
      summary: 'Register a URL that events are POSTed to, signed with the secret returned (shown only here)',
      security: secretKey,
      requestParams: { header: z.object({ 'idempotency-key': idempotencyKey.optional() }) },
      requestBody: { required: true, ...json(CreateWebhookEndpointBody) },
      responses: {
        '201': reply('The endpoint and its signing secret', CreatedWebhookEndpoint),
        '400': apiError('invalid_json, invalid_request, or url_not_allowed (production: https to a public address only)'),
        '401': apiError('unauthenticated: a valid secret key is required'),
        '409': apiError('too_many_endpoints (16 per application), idempotency_key_reused or idempotency_key_in_use'),
        '503': storeDown(),
      },
    },
    get: {
      operationId: 'listWebhookEndpoints',
      summary: "The application's live endpoints, without their secrets",
      security: secretKey,
      responses: {
        '200': reply('Every live endpoint (at most 16)', WebhookEndpointList),
        '401': apiError('unauthenticated: a valid secret key is required'),
        '503': storeDown(),
      },
    },
  },
  '/api/webhook_endpoints/{id}': {
    delete: {
      operationId: 'deleteWebhookEndpoint',
      summary: 'Stop sending to the endpoint, its pending deliveries included',
      security: secretKey,
      requestParams: { path: endpointId },
      responses: {
        '200': reply('The endpoint is deleted', DeletedWebhookEndpoint),
        '401': apiError('unauthenticated'),
        '404': apiError("not_found, including an endpoint already deleted or another application's"),
        '503': storeDown(),
      },
    },
  },
  '/api/webhook_endpoints/{id}/roll_secret': {
    post: {
      operationId: 'rollWebhookSecret',
      summary: 'A new signing secret, used at once; deliveries carry a signature by the current one too for expire_current_in_seconds',
      security: secretKey,
      requestParams: { path: endpointId, header: z.object({ 'idempotency-key': idempotencyKey.optional() }) },
      requestBody: { required: false, ...json(RollSecretKeyBody) },
      responses: {
        '201': reply('The new secret (shown only here) and until when the current one signs too', RolledWebhookSecret),
        '400': apiError('invalid_json or invalid_request'),
        '401': apiError('unauthenticated'),
        '404': apiError('not_found'),
        '409': apiError('idempotency_key_reused or idempotency_key_in_use'),
        '503': storeDown(),
      },
    },
  },
  '/api/events': {
    get: {
      operationId: 'listEvents',
      summary: "The application's events, newest first, a page at a time (starting_after: the last id of the previous page)",
      security: secretKey,
      requestParams: { query: ListEventsQuery },
      responses: {
        '200': reply('One page; has_more says whether another follows', EventList),
        '400': apiError("invalid_request, naming the parameter (starting_after must be one of this application's events)"),
        '401': apiError('unauthenticated: a valid secret key is required'),
        '503': storeDown(),
      },
    },
  },
  '/api/events/{id}': {
    get: {
      operationId: 'getEvent',
      summary: 'One event, exactly as it is delivered',
      security: secretKey,
      requestParams: { path: eventId },
      responses: {
        '200': reply('The event', Event),
        '401': apiError('unauthenticated'),
        '404': apiError("not_found, including another application's event"),
        '503': storeDown(),
      },
    },
  },
  '/api/events/{id}/redeliver': {
    post: {
      operationId: 'redeliverEvent',
      summary: 'Send the event again to every live endpoint that listens to its type (failed, delivered, or added since), with a new retry window',
      security: secretKey,
      requestParams: { path: eventId },
      responses: {
        '202': reply('The endpoints it is being sent to', EventRedelivery),
        '401': apiError('unauthenticated'),
        '404': apiError('not_found'),
        '503': storeDown(),
      },
    },
  },
};

export const webhookSchemas = { Event, EventList, WebhookEndpoint, WebhookEndpointList, CreatedWebhookEndpoint, RolledWebhookSecret, EventRedelivery };
