/**
 * The disputes API (secret key, docs/disputes.md): the application's disputes, listed and read, and their evidence
 * submitted once, before the due date, under an optional Idempotency-Key. Every reply is no-store,
 * as every one under /api/ (http/reply-headers.ts).
 */
import express, { type RequestHandler } from 'express';
import { DisputeId, unstorableTextPath } from '../../contracts';
import { pathIdParam, sendError, sendFailure, unstorableText } from '../../common/http/errors';
import { IDEMPOTENT, JSON_BODY, MERCHANT_CALL, NO_BODY, PATH_ID, type RouteAnswers } from '../../contracts/error-codes';
import { type BodyRules, KB } from '../../common/http/body';
import type { DataCipher } from '../lib/data-cipher';
import { replyOf, respondIdempotently } from '../http/idempotency';
import { authenticatedMerchant } from '../http/merchant-auth';
import type { ServiceClient } from '../service-client';
import type { Store } from '../store';
import { submitDisputeEvidence } from './evidence';
import { getAppDispute, listAppDisputes } from './records';

export interface DisputeRoutesOptions {
  store: Store;
  service: ServiceClient;
  cipher: DataCipher;
  /** The secret-key routes' one budget, shared with the checkout routes (checkout/routes.ts merchantLimiter). */
  merchantCalls: RequestHandler;
  longestRequestMs: number;
}

/** What each route answers besides its success, by operationId (as checkoutAnswers in server/checkout/routes.ts). */
export const disputeAnswers = {
  listDisputes: [...MERCHANT_CALL, ...NO_BODY, 'invalid_request'],
  getDispute: [...MERCHANT_CALL, ...NO_BODY, ...PATH_ID],
  submitDisputeEvidence: [...MERCHANT_CALL, ...PATH_ID, ...JSON_BODY, ...IDEMPOTENT, 'evidence_already_submitted', 'evidence_past_due', 'service_unavailable'],
} as const satisfies Record<string, RouteAnswers>;

/** The bodies these routes take, read at the edge (as checkoutBodies in server/checkout/routes.ts). */
export const disputeBodies = {
  'POST /api/disputes/:disputeId/evidence': { body: 'required', limit: 32 * KB },
} as const satisfies BodyRules;

export function disputeRoutes(options: DisputeRoutesOptions): express.Router {
  const { store, merchantCalls } = options;
  const router = express.Router();
  const keys = { db: store, cipher: options.cipher, abandonedAfterMs: options.longestRequestMs };

  router.param('disputeId', pathIdParam(DisputeId, { code: 'not_found', message: 'No such dispute' }));

  router.get('/api/disputes', merchantCalls, async (req, res) => {
    const app = await authenticatedMerchant(store, req, res);
    if (!app) return;
    const unstorable = unstorableTextPath(req.query);
    if (unstorable) return sendError(res, unstorableText(unstorable));
    const listed = await listAppDisputes(store, app, req.query);
    if (listed.ok) res.json(listed.value);
    else sendFailure(res, listed.error);
  });

  router.get('/api/disputes/:disputeId', merchantCalls, async (req, res) => {
    const app = await authenticatedMerchant(store, req, res);
    if (!app) return;
    const found = await getAppDispute(store, app, String(req.params.disputeId));
    if (found.ok) res.json(found.value);
    else sendFailure(res, found.error);
  });

  /** Once, before the due date; a refusal of the body is not kept against the key (it never ran), every other answer is. */
  router.post('/api/disputes/:disputeId/evidence', merchantCalls, async (req, res) => {
    const app = await authenticatedMerchant(store, req, res);
    if (!app) return;
    await respondIdempotently(keys, `${app.id}:${req.path}`, req, res, async () =>
      replyOf(await submitDisputeEvidence(options, app, String(req.params.disputeId), req.body), 200, (failure) => failure.code !== 'invalid_request' && failure.code !== 'service_unavailable'),
    );
  });

  return router;
}
