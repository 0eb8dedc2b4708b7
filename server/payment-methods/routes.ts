/**
 * The payment methods API (secret key, docs/saved-cards.md): the cards kept for the application's
 * customers, listed, read, detached, and charged without the shopper. Every reply is no-store,
 * as every one under /api/ (http/reply-headers.ts).
 */
import express, { type RequestHandler } from 'express';
import { EmptyBody, PaymentMethodRecordId, unstorableTextPath } from '../../contracts';
import { invalidRequest, pathIdParam, sendError, sendFailure, unstorableText } from '../../common/http/errors';
import { IDEMPOTENT, JSON_BODY, MERCHANT_CALL, NO_BODY, PATH_ID, type RouteAnswers } from '../../contracts/error-codes';
import { type BodyRules, KB } from '../../common/http/body';
import { refusal, replyOf, respondIdempotently } from '../http/idempotency';
import { authenticatedMerchant } from '../http/merchant-auth';
import type { ChargeDependencies } from '../checkout/pay';
import type { Logger } from '../../common/logging';
import { chargePaymentMethod } from './merchant-initiated';
import { detachAppPaymentMethod, getAppPaymentMethod, listAppPaymentMethods } from './records';

export interface PaymentMethodRoutesOptions extends ChargeDependencies {
  logger: Logger;
  /** The secret-key routes' one budget, shared with the checkout routes (checkout/routes.ts merchantLimiter). */
  merchantCalls: RequestHandler;
  longestRequestMs: number;
}

/** What each route answers besides its success, by operationId (as checkoutAnswers in server/checkout/routes.ts). */
export const paymentMethodAnswers = {
  listPaymentMethods: [...MERCHANT_CALL, ...NO_BODY, 'invalid_request'],
  getPaymentMethod: [...MERCHANT_CALL, ...NO_BODY, ...PATH_ID],
  detachPaymentMethod: [...MERCHANT_CALL, ...PATH_ID, ...JSON_BODY, ...IDEMPOTENT],
  chargePaymentMethod: [...MERCHANT_CALL, ...PATH_ID, ...JSON_BODY, ...IDEMPOTENT, 'customer_mismatch', 'payment_method_detached', 'payment_method_expired', 'not_covered_by_agreement'],
} as const satisfies Record<string, RouteAnswers>;

/** The bodies these routes take, read at the edge (as checkoutBodies in server/checkout/routes.ts). */
export const paymentMethodBodies = {
  // Nothing to say (EmptyBody): none, or `{}`.
  'POST /api/payment_methods/:paymentMethodId/detach': { body: 'optional', limit: 32 * KB },
  'POST /api/payment_methods/:paymentMethodId/charges': { body: 'required', limit: 32 * KB },
} as const satisfies BodyRules;

export function paymentMethodRoutes(options: PaymentMethodRoutesOptions): express.Router {
  const { store, merchantCalls } = options;
  const router = express.Router();
  const keys = { db: store, cipher: options.cipher, abandonedAfterMs: options.longestRequestMs };

  router.param('paymentMethodId', pathIdParam(PaymentMethodRecordId, { code: 'not_found', message: 'No such payment method' }));

  router.get('/api/payment_methods', merchantCalls, async (req, res) => {
    const app = await authenticatedMerchant(store, req, res);
    if (!app) return;
    const unstorable = unstorableTextPath(req.query);
    if (unstorable) return sendError(res, unstorableText(unstorable));
    const listed = await listAppPaymentMethods(store, app, req.query);
    if (listed.ok) res.json(listed.value);
    else sendFailure(res, listed.error);
  });

  router.get('/api/payment_methods/:paymentMethodId', merchantCalls, async (req, res) => {
    const app = await authenticatedMerchant(store, req, res);
    if (!app) return;
    const found = await getAppPaymentMethod(store, app, String(req.params.paymentMethodId));
    if (found.ok) res.json(found.value);
    else sendFailure(res, found.error);
  });

  /** Final: the card is never charged again through it; keeping it again (a new session) makes a new payment method. */
  router.post('/api/payment_methods/:paymentMethodId/detach', merchantCalls, async (req, res) => {
    const app = await authenticatedMerchant(store, req, res);
    if (!app) return;
    await respondIdempotently(keys, `${app.id}:${req.path}`, req, res, async () => {
      const empty = EmptyBody.safeParse(req.body ?? {});
      if (!empty.success) return refusal(invalidRequest(empty.error));
      return replyOf(await detachAppPaymentMethod(options, app, String(req.params.paymentMethodId)), 200);
    });
  });

  /**
   * A merchant-initiated charge, under a required Idempotency-Key (the charge is named by it: a retry is the
   * same charge, however its first request ended). A refusal of the body is not kept against the key.
   */
  router.post('/api/payment_methods/:paymentMethodId/charges', merchantCalls, async (req, res) => {
    const app = await authenticatedMerchant(store, req, res);
    if (!app) return;
    const merchantKey = req.get('idempotency-key');
    if (merchantKey === undefined) {
      return sendFailure(res, { code: 'invalid_request', message: 'Idempotency-Key: a merchant-initiated charge requires one (the same key for every retry of the same charge)' });
    }
    await respondIdempotently(keys, `${app.id}:${req.path}`, req, res, async () =>
      replyOf(await chargePaymentMethod(options, app, String(req.params.paymentMethodId), req.body, merchantKey), 201, (failure) => failure.code !== 'invalid_request'),
    );
  });

  return router;
}
