/**
 * The webhook API (secret key): endpoints, their secrets, and the events API.
 * Every reply is no-store, as every one under /api/ (http/reply-headers.ts):
 * creations and rolls carry a secret, the rest a payment's state.
 */
import express, { type RequestHandler } from 'express';
import { EmptyBody, EventId, RollSecretKeyBody, unstorableTextPath, WebhookEndpointId } from '../../contracts';
import { invalidRequest, pathIdParam, sendError, sendFailure, unstorableText } from '../../common/http/errors';
import { IDEMPOTENT, JSON_BODY, MERCHANT_CALL, NO_BODY, PATH_ID, type RouteAnswers } from '../../contracts/error-codes';
import { type BodyRules, KB } from '../../common/http/body';
import { refusal, replyOf, respondIdempotently } from '../http/idempotency';
import { authenticatedMerchant } from '../http/merchant-auth';
import type { DataCipher } from '../lib/data-cipher';
import type { Store } from '../store';
import { deleteEndpoint, findLiveEndpoint, liveEndpoints } from '../store/webhooks';
import type { WebhookAddressPolicy } from '../config';
import type { Resolve } from './address-policy';
import { createEndpoint, endpointView, rollEndpointSecret } from './endpoints';
import { getEvent, listEvents, redeliver } from './events';

export interface WebhookRoutesOptions {
  store: Store;
  cipher: DataCipher;
  /** The secret-key routes' one budget, shared with the checkout routes (checkout/routes.ts merchantLimiter). */
  merchantCalls: RequestHandler;
  longestRequestMs: number;
  addressPolicy: WebhookAddressPolicy;
  /** A redelivery's retry window (WEBHOOK_RETRY_WINDOW_MS). */
  retryWindowMs: number;
  resolve?: Resolve;
}

/** What each route answers besides its success, by operationId (as checkoutAnswers in server/checkout/routes.ts). */
export const webhookAnswers = {
  createWebhookEndpoint: [...MERCHANT_CALL, ...JSON_BODY, ...IDEMPOTENT, 'url_not_allowed', 'too_many_endpoints'],
  listWebhookEndpoints: [...MERCHANT_CALL, ...NO_BODY],
  deleteWebhookEndpoint: [...MERCHANT_CALL, ...NO_BODY, ...PATH_ID],
  rollWebhookSecret: [...MERCHANT_CALL, ...PATH_ID, ...JSON_BODY, ...IDEMPOTENT],
  listEvents: [...MERCHANT_CALL, ...NO_BODY, 'invalid_request'],
  getEvent: [...MERCHANT_CALL, ...NO_BODY, ...PATH_ID],
  redeliverEvent: [...MERCHANT_CALL, ...PATH_ID, ...JSON_BODY],
} as const satisfies Record<string, RouteAnswers>;

/** The bodies these routes take, read at the edge (as checkoutBodies in server/checkout/routes.ts). */
export const webhookBodies = {
  'POST /api/webhook_endpoints': { body: 'required', limit: 32 * KB },
  'POST /api/webhook_endpoints/:endpointId/roll_secret': { body: 'optional', limit: 32 * KB },
  // Nothing to say (EmptyBody): none, or `{}` as the Node library sends on every POST.
  'POST /api/events/:eventId/redeliver': { body: 'optional', limit: 32 * KB },
} as const satisfies BodyRules;

const noSuchEndpoint = { code: 'not_found', message: 'No such webhook endpoint' };

export function webhookRoutes(options: WebhookRoutesOptions): express.Router {
  const { store } = options;
  const router = express.Router();
  const { merchantCalls } = options;
  const keys = { db: store, cipher: options.cipher, abandonedAfterMs: options.longestRequestMs };
  const endpoints = { store, cipher: options.cipher, addressPolicy: options.addressPolicy, resolve: options.resolve };

  router.param('endpointId', pathIdParam(WebhookEndpointId, noSuchEndpoint));
  router.param('eventId', pathIdParam(EventId, { code: 'not_found', message: 'No such event' }));

  router.post('/api/webhook_endpoints', merchantCalls, async (req, res) => {
    const app = await authenticatedMerchant(store, req, res);
    if (!app) return;
    await respondIdempotently(keys, `${app.id}:${req.path}`, req, res, async () => {
      const created = await createEndpoint(endpoints, app, req.body);
      // A refusal never acted: the same key may carry a corrected request.
      return replyOf(created, 201, () => false);
    });
  });

  router.get('/api/webhook_endpoints', merchantCalls, async (req, res) => {
    const app = await authenticatedMerchant(store, req, res);
    if (!app) return;
    res.json({ object: 'list', data: (await liveEndpoints(store, app.id)).map(endpointView), has_more: false });
  });

  router.delete('/api/webhook_endpoints/:endpointId', merchantCalls, async (req, res) => {
    const app = await authenticatedMerchant(store, req, res);
    if (!app) return;
    const id = String(req.params.endpointId);
    if (!(await deleteEndpoint(store, app.id, id, Date.now()))) return sendFailure(res, noSuchEndpoint);
    res.json({ id, object: 'webhook_endpoint', deleted: true });
  });

  /** As POST /api/keys/roll: under an Idempotency-Key a retry replays the same new secret (kept sealed). */
  router.post('/api/webhook_endpoints/:endpointId/roll_secret', merchantCalls, async (req, res) => {
    const app = await authenticatedMerchant(store, req, res);
    if (!app) return;
    await respondIdempotently(keys, `${app.id}:${req.path}`, req, res, async () => {
      const parsed = RollSecretKeyBody.safeParse(req.body ?? {});
      if (!parsed.success) return refusal(invalidRequest(parsed.error));
      const endpoint = await findLiveEndpoint(store, app.id, String(req.params.endpointId));
      if (!endpoint) return refusal(noSuchEndpoint);
      return { status: 201, body: await rollEndpointSecret(endpoints, endpoint, parsed.data.expire_current_in_seconds), record: true };
    });
  });

  router.get('/api/events', merchantCalls, async (req, res) => {
    const app = await authenticatedMerchant(store, req, res);
    if (!app) return;
    const unstorable = unstorableTextPath(req.query);
    if (unstorable) return sendError(res, unstorableText(unstorable));
    const listed = await listEvents(store, options.cipher, app, req.query);
    if (listed.ok) res.json(listed.value);
    else sendFailure(res, listed.error);
  });

  router.get('/api/events/:eventId', merchantCalls, async (req, res) => {
    const app = await authenticatedMerchant(store, req, res);
    if (!app) return;
    const found = await getEvent(store, options.cipher, app, String(req.params.eventId));
    if (found.ok) res.json(found.value);
    else sendFailure(res, found.error);
  });

  router.post('/api/events/:eventId/redeliver', merchantCalls, async (req, res) => {
    const app = await authenticatedMerchant(store, req, res);
    if (!app) return;
    const empty = EmptyBody.safeParse(req.body ?? {});
    if (!empty.success) return sendFailure(res, invalidRequest(empty.error));
    const started = await redeliver(store, app, String(req.params.eventId), options.retryWindowMs);
    if (started.ok) res.status(202).json(started.value);
    else sendFailure(res, started.error);
  });

  return router;
}
