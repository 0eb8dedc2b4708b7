/**
 * The merchant's dashboard: its page at /dashboard and the API its page calls
 * at /dashboard/api, behind a signed-in session (session.ts). Every action
 * runs the function the merchant API runs (operateHold, createRefund,
 * createEndpoint, redeliver, rollSecretKey...): the dashboard is another door
 * to the same rooms. docs/dashboard.md.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import express, { type Request, type RequestHandler, type Response } from 'express';
import helmet from 'helmet';
import { type App, changeCheckoutSettings, findAppBySecretKey, getApp, rollSecretKey } from '../apps';
import { CheckoutSettings, CreateRefundBody, DashboardKeyRoll, DashboardPaymentsExportQuery, DashboardPaymentsQuery, DisputeId, type DashboardSessionState, PaymentMethodRecordId, DashboardSignIn, type DashboardSettings, EmptyBody, EventId, RollSecretKeyBody, SessionId, unstorableTextPath, VerifyOriginBody, WebhookEndpointId } from '../../contracts';
import { invalidRequest, pathIdParam, sendError, sendFailure, unstorableText } from '../../common/http/errors';
import { type BodyRules, KB } from '../../common/http/body';
import { refusal, replyOf, respondIdempotently } from '../http/idempotency';
import type { DataCipher } from '../lib/data-cipher';
import { escapeHtml } from '../../common/html';
import { bundleRoutes, readManifest } from '../../common/http/static';
import { ok } from '../../common/result';
import type { ServiceClient } from '../service-client';
import type { Store } from '../store';
import { deleteEndpoint, findLiveEndpoint, liveEndpoints } from '../store/webhooks';
import { expiredIfPastDue } from '../checkout/expiry';
import { holdReply, type HoldOperation } from '../checkout/holds';
import { type OriginVerificationDependencies, originVerifications, verifyOrigin } from '../checkout/origin-verification';
import { createRefund } from '../checkout/refunds';
import { sessionPage, sessionView } from '../checkout/sessions';
import { listSessions } from '../store/session-list';
import { dashboardFilterOf } from './payment-list';
import { paymentsCsv } from './csv-export';
import { findSession } from '../store/sessions';
import type { WebhookAddressPolicy } from '../config';
import { createEndpoint, rollEndpointSecret } from '../webhooks/endpoints';
import { redeliver } from '../webhooks/events';
import { dashboardSessions, signedInOf } from './session';
import { detachAppPaymentMethod, getAppPaymentMethod } from '../payment-methods/records';
import type { Logger } from '../../common/logging';
import { endpointWithDeliveries, paymentView, timelineOf } from './views';
import { listDashboardPaymentMethods } from './payment-methods';
import { dashboardDisputePage, listDashboardDisputes, submitDashboardEvidence } from '../disputes/dashboard';
import { dashboardOverview } from './overview';

export interface DashboardRoutesOptions {
  store: Store;
  service: ServiceClient;
  cipher: DataCipher;
  ownOrigin: () => string;
  /**
   * The secret-key routes' budget (checkout/routes.ts merchantLimiter): a sign-in is one more try of a
   * secret key, and every signed-in request one more merchant call, as the API's are.
   */
  merchantCalls: RequestHandler;
  longestRequestMs: number;
  webhooks: { addressPolicy: WebhookAddressPolicy; retryWindowMs: number };
  /** Platform mode's origin verification: shown, and checked now on request (docs/platform.md). */
  originVerification: OriginVerificationDependencies;
  /** A kept card's detach is told to the payment service, and logged when it cannot be yet (server/payment-methods). */
  logger: Logger;
}

/** The bodies the dashboard's API takes, read at the edge (as checkoutBodies in server/checkout/routes.ts). */
export const dashboardBodies = {
  'POST /dashboard/api/session': { body: 'required', limit: 32 * KB },
  'POST /dashboard/api/payments/:paymentId/capture': { body: 'optional', limit: 32 * KB },
  'POST /dashboard/api/payments/:paymentId/release': { body: 'optional', limit: 32 * KB },
  'POST /dashboard/api/payments/:paymentId/refunds': { body: 'optional', limit: 32 * KB },
  'POST /dashboard/api/webhook_endpoints': { body: 'required', limit: 32 * KB },
  'POST /dashboard/api/webhook_endpoints/:endpointId/roll_secret': { body: 'optional', limit: 32 * KB },
  'POST /dashboard/api/events/:eventId/redeliver': { body: 'optional', limit: 32 * KB },
  'POST /dashboard/api/keys/roll': { body: 'required', limit: 32 * KB },
  'PUT /dashboard/api/settings': { body: 'required', limit: 32 * KB },
  'POST /dashboard/api/origins/verify': { body: 'required', limit: 32 * KB },
  'POST /dashboard/api/payment_methods/:paymentMethodId/detach': { body: 'optional', limit: 32 * KB },
  'POST /dashboard/api/disputes/:disputeId/evidence': { body: 'required', limit: 32 * KB },
} as const satisfies BodyRules;

const noSuchPayment = { code: 'not_found', message: 'No such payment' };
const noSuchEndpoint = { code: 'not_found', message: 'No such webhook endpoint' };

export function dashboardRoutes(options: DashboardRoutesOptions): express.Router {
  const { store } = options;
  const router = express.Router();
  const sessions = dashboardSessions(options);
  // Counted before the session is looked up: a flood of made-up cookies spends the budget too, and costs no store read past it.
  const signedIn: RequestHandler = (req, res, next) => options.merchantCalls(req, res, (error?: unknown) => (error ? next(error) : void sessions.required(req, res, next).catch(next)));
  const keys = { db: store, cipher: options.cipher, abandonedAfterMs: options.longestRequestMs };
  const endpoints = { store, cipher: options.cipher, addressPolicy: options.webhooks.addressPolicy };

  const manifest = readManifest();
  const script = `/${manifest['dashboard.js']?.file ?? 'dashboard.js'}`;
  router.use(bundleRoutes({ '/dashboard.js': 'dashboard.js' }, manifest));
  // Neither the page nor its API is for a search engine (robots.txt says so to crawlers that ask first).
  router.use('/dashboard', (_req, res, next) => {
    res.set('X-Robots-Tag', 'noindex, nofollow');
    next();
  });
  router.get('/dashboard', helmet.contentSecurityPolicy({ directives: DASHBOARD_CSP }), (_req, res) => {
    res.set('Cache-Control', 'no-store');
    res.type('html').send(dashboardPage(script));
  });

  // Every reply carries a merchant's data or a secret.
  router.use('/dashboard/api', (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  router.param('paymentId', pathIdParam(SessionId, noSuchPayment));
  router.param('endpointId', pathIdParam(WebhookEndpointId, noSuchEndpoint));
  router.param('eventId', pathIdParam(EventId, { code: 'not_found', message: 'No such event' }));
  router.param('paymentMethodId', pathIdParam(PaymentMethodRecordId, { code: 'not_found', message: 'No such payment method' }));
  router.param('disputeId', pathIdParam(DisputeId, { code: 'not_found', message: 'No such dispute' }));

  router.post('/dashboard/api/session', options.merchantCalls, async (req, res) => {
    const parsed = DashboardSignIn.safeParse(req.body);
    if (!parsed.success) return sendFailure(res, invalidRequest(parsed.error));
    await sessions.signIn(req, res, parsed.data.secret_key);
  });

  // The page's first question, asked before anyone signed in: answered 200 either way, so a browser logs no failed request for it.
  router.get('/dashboard/api/session', options.merchantCalls, async (req, res) => {
    const current = await sessions.current(req, res);
    const reply: DashboardSessionState = current ? { signed_in: true, app: { id: current.app.id, name: current.app.name }, csrf_token: current.csrfToken } : { signed_in: false };
    res.json(reply);
  });

  router.delete('/dashboard/api/session', signedIn, async (_req, res) => sessions.signOut(res));

  /** Sign out everywhere: every session of the app, in every browser, this one included. */
  router.delete('/dashboard/api/sessions', signedIn, async (_req, res) => sessions.signOutEverywhere(res));

  router.get('/dashboard/api/payments', signedIn, async (req, res) => {
    const unstorable = unstorableTextPath(req.query);
    if (unstorable) return sendError(res, unstorableText(unstorable));
    const parsed = DashboardPaymentsQuery.safeParse(req.query);
    if (!parsed.success) return sendFailure(res, invalidRequest(parsed.error, '(query)'));
    const filter = { ...dashboardFilterOf(parsed.data, options.cipher), limit: parsed.data.limit };
    const listed = await sessionPage(store, options.cipher, signedInOf(res).app, filter, parsed.data.starting_after);
    if (!listed.ok) return sendFailure(res, listed.error);
    res.json({ ...listed.value, data: listed.value.data.map(paymentView) });
  });

  /** The list's filters, every page of them, as CSV streamed a keyset page at a time (csv-export.ts). */
  router.get('/dashboard/api/payments.csv', signedIn, async (req, res) => {
    const unstorable = unstorableTextPath(req.query);
    if (unstorable) return sendError(res, unstorableText(unstorable));
    const parsed = DashboardPaymentsExportQuery.safeParse(req.query);
    if (!parsed.success) return sendFailure(res, invalidRequest(parsed.error, '(query)'));
    const filter = { ...dashboardFilterOf(parsed.data, options.cipher), appId: signedInOf(res).app.id };
    res.type('text/csv; charset=utf-8').attachment(`payments-${new Date().toISOString().slice(0, 10)}.csv`);
    // Bytes, not objects: the stream's buffer then holds about one page before it waits for the connection.
    const csv = Readable.from(paymentsCsv((after, limit) => listSessions(store, { ...filter, after, limit })), { objectMode: false });
    try {
      await pipeline(csv, res);
    } catch (error) {
      // A reader that went away ends the export; past the first chunk the status is sent, so a store that fails part
      // way breaks the connection (pipeline destroys it) rather than leave a file that looks complete.
      if (!res.headersSent) throw error;
      if (!req.destroyed) options.logger.error({ error: error instanceof Error ? error.message : String(error) }, 'the payments export failed part way');
    }
  });

  /** The Overview page: a period's money, success rate and counts (?from=YYYY-MM-DD&to=YYYY-MM-DD&time_zone=IANA). */
  router.get('/dashboard/api/overview', signedIn, async (req, res) => {
    const overview = await dashboardOverview(store, signedInOf(res).app, req.query);
    if (overview.ok) res.json(overview.value);
    else sendFailure(res, overview.error);
  });

  /** The signed-in app's session named in the path, expired if its time is up; else the 404 is sent. */
  async function paymentOf(req: Request, res: Response) {
    const session = await findSession(store, String(req.params.paymentId));
    if (!session || session.app_id !== signedInOf(res).app.id) {
      sendFailure(res, noSuchPayment);
      return undefined;
    }
    return expiredIfPastDue(options, session);
  }

  router.get('/dashboard/api/payments/:paymentId', signedIn, async (req, res) => {
    const session = await paymentOf(req, res);
    if (!session) return;
    const view = await sessionView(store, options.cipher, session);
    res.json({ payment: paymentView(view), timeline: await timelineOf(store, view) });
  });

  /** Capture or release, as POST /api/sessions/{id}/capture|release runs it; the page's Idempotency-Key makes a double submit one action. */
  const holdRoute = (operation: HoldOperation) => async (req: Request, res: Response) => {
    const session = await paymentOf(req, res);
    if (!session) return;
    const { app } = signedInOf(res);
    await respondIdempotently(keys, `${app.id}:${req.path}`, req, res, () => holdReply(options, app, session, operation, req.body, async (moved) => paymentView(await sessionView(store, options.cipher, moved))));
  };
  router.post('/dashboard/api/payments/:paymentId/capture', signedIn, holdRoute('capture'));
  router.post('/dashboard/api/payments/:paymentId/release', signedIn, holdRoute('release'));

  /** The body is the API's (amount, reason), refused here before anything is looked up or kept under the Idempotency-Key. */
  router.post('/dashboard/api/payments/:paymentId/refunds', signedIn, async (req, res) => {
    const parsed = CreateRefundBody.safeParse(req.body ?? {});
    if (!parsed.success) return sendFailure(res, invalidRequest(parsed.error));
    const session = await paymentOf(req, res);
    if (!session) return;
    const { app } = signedInOf(res);
    await respondIdempotently(keys, `${app.id}:${req.path}`, req, res, async () => {
      const refunded = await createRefund(options, app, session, parsed.data, req.get('idempotency-key'));
      return replyOf(refunded, 201, (failure) => failure.code !== 'invalid_request');
    });
  });

  /** The Saved cards page: the app's kept cards, by customer and status, paged as the payments are. */
  router.get('/dashboard/api/payment_methods', signedIn, async (req, res) => {
    const listed = await listDashboardPaymentMethods(store, signedInOf(res).app, req.query);
    if (listed.ok) res.json(listed.value);
    else sendFailure(res, listed.error);
  });

  /** A kept card (the payment page's saved card, docs/saved-cards.md), as GET /api/payment_methods/{id} reads it. */
  router.get('/dashboard/api/payment_methods/:paymentMethodId', signedIn, async (req, res) => {
    const found = await getAppPaymentMethod(store, signedInOf(res).app, String(req.params.paymentMethodId));
    if (found.ok) res.json(found.value);
    else sendFailure(res, found.error);
  });

  /** Detach, for good, as POST /api/payment_methods/{id}/detach runs it (CSRF-checked by signedIn, like every action). */
  router.post('/dashboard/api/payment_methods/:paymentMethodId/detach', signedIn, async (req, res) => {
    const { app } = signedInOf(res);
    await respondIdempotently(keys, `${app.id}:${req.path}`, req, res, async () => {
      const empty = EmptyBody.safeParse(req.body ?? {});
      if (!empty.success) return refusal(invalidRequest(empty.error));
      return replyOf(await detachAppPaymentMethod(options, app, String(req.params.paymentMethodId)), 200);
    });
  });

  /** The Disputes page (docs/disputes.md), paged as the payments are, and a dispute's page. */
  router.get('/dashboard/api/disputes', signedIn, async (req, res) => {
    const unstorable = unstorableTextPath(req.query);
    if (unstorable) return sendError(res, unstorableText(unstorable));
    const listed = await listDashboardDisputes(store, signedInOf(res).app, req.query);
    if (listed.ok) res.json(listed.value);
    else sendFailure(res, listed.error);
  });

  router.get('/dashboard/api/disputes/:disputeId', signedIn, async (req, res) => {
    const found = await dashboardDisputePage(store, signedInOf(res).app, String(req.params.disputeId));
    if (found.ok) res.json(found.value);
    else sendFailure(res, found.error);
  });

  /** The evidence form, as POST /api/disputes/{id}/evidence runs it; the page's Idempotency-Key makes a double submit one submission. */
  router.post('/dashboard/api/disputes/:disputeId/evidence', signedIn, async (req, res) => {
    const { app } = signedInOf(res);
    await respondIdempotently(keys, `${app.id}:${req.path}`, req, res, async () =>
      replyOf(await submitDashboardEvidence(options, app, String(req.params.disputeId), req.body), 200, (failure) => failure.code !== 'invalid_request' && failure.code !== 'service_unavailable'),
    );
  });

  router.get('/dashboard/api/webhook_endpoints', signedIn, async (_req, res) => {
    const rows = await liveEndpoints(store, signedInOf(res).app.id);
    res.json({ object: 'list', data: await Promise.all(rows.map((row) => endpointWithDeliveries(store, row))), has_more: false });
  });

  router.post('/dashboard/api/webhook_endpoints', signedIn, async (req, res) => {
    const created = await createEndpoint(endpoints, signedInOf(res).app, req.body);
    const reply = replyOf(created, 201);
    res.status(reply.status).json(reply.body);
  });

  router.delete('/dashboard/api/webhook_endpoints/:endpointId', signedIn, async (req, res) => {
    const id = String(req.params.endpointId);
    if (!(await deleteEndpoint(store, signedInOf(res).app.id, id, Date.now()))) return sendFailure(res, noSuchEndpoint);
    res.json({ id, object: 'webhook_endpoint', deleted: true });
  });

  router.post('/dashboard/api/webhook_endpoints/:endpointId/roll_secret', signedIn, async (req, res) => {
    const parsed = RollSecretKeyBody.safeParse(req.body ?? {});
    if (!parsed.success) return sendFailure(res, invalidRequest(parsed.error));
    const endpoint = await findLiveEndpoint(store, signedInOf(res).app.id, String(req.params.endpointId));
    if (!endpoint) return sendFailure(res, noSuchEndpoint);
    res.status(201).json(await rollEndpointSecret(endpoints, endpoint, parsed.data.expire_current_in_seconds));
  });

  router.post('/dashboard/api/events/:eventId/redeliver', signedIn, async (req, res) => {
    const empty = EmptyBody.safeParse(req.body ?? {});
    if (!empty.success) return sendFailure(res, invalidRequest(empty.error));
    const started = await redeliver(store, signedInOf(res).app, String(req.params.eventId), options.webhooks.retryWindowMs);
    if (started.ok) res.status(202).json(started.value);
    else sendFailure(res, started.error);
  });

  /**
   * Every live key of the app (there is no "key that asks" here) keeps working for the overlap, and every
   * other dashboard session of the app with them; the session that rolled moves to the new key, which is
   * shown once. The body carries a live key of the app again (re-authentication), checked before the
   * Idempotency-Key is: a stolen cookie alone rolls nothing, and after a roll with 0 the old key cannot
   * fetch a lost reply, as on the API.
   */
  router.post('/dashboard/api/keys/roll', signedIn, async (req, res) => {
    const parsed = DashboardKeyRoll.safeParse(req.body ?? {});
    if (!parsed.success) return sendFailure(res, invalidRequest(parsed.error));
    const { app, tokenHash } = signedInOf(res);
    const proof = await findAppBySecretKey(store, parsed.data.secret_key);
    if (proof?.id !== app.id) return sendFailure(res, { code: 'reauthentication_failed', message: 'This is not a live secret key of this application: give the current key to roll it' });
    await respondIdempotently(keys, `${app.id}:${req.path}`, req, res, async () =>
      replyOf(ok(await rollSecretKey(store, app, { expireCurrentInSeconds: parsed.data.expire_current_in_seconds, dashboardSession: tokenHash })), 201),
    );
  });

  /** Each allowed origin's verification (platform mode): the file to publish, its token, the checks' results. */
  router.get('/dashboard/api/origins', signedIn, async (_req, res) => {
    res.json(await originVerifications(options.originVerification, signedInOf(res).app));
  });

  /** "Verify now", as POST /api/origin_verifications/verify runs it. */
  router.post('/dashboard/api/origins/verify', signedIn, async (req, res) => {
    const parsed = VerifyOriginBody.safeParse(req.body);
    if (!parsed.success) return sendFailure(res, invalidRequest(parsed.error));
    const checked = await verifyOrigin(options.originVerification, signedInOf(res).app, parsed.data.origin);
    if (checked.ok) res.json(checked.value);
    else sendFailure(res, checked.error);
  });

  router.get('/dashboard/api/settings', signedIn, (_req, res) => {
    res.json(settingsOf(signedInOf(res).app));
  });

  router.put('/dashboard/api/settings', signedIn, async (req, res) => {
    const parsed = CheckoutSettings.safeParse(req.body);
    if (!parsed.success) return sendFailure(res, invalidRequest(parsed.error));
    const { app } = signedInOf(res);
    await changeCheckoutSettings(store, app.id, parsed.data);
    const changed = await getApp(store, app.id);
    if (!changed) return sendFailure(res, { code: 'not_found', message: 'No such application' });
    res.json(settingsOf(changed));
  });

  return router;
}

function settingsOf(app: App): DashboardSettings {
  return {
    name: app.name,
    environment: app.environment,
    decryption_mode: app.decryptionMode,
    google_pay_mode: app.googlePayMode,
    card_networks: app.cardNetworks,
    auth_methods: app.authMethods,
    allowed_origins: app.allowedOrigins,
    three_ds: app.threeDs,
  };
}

/**
 * The page's policy: our origin only. The dashboard takes no payment, so Google's pay.js and its
 * frames, which the pages that pay allow (server/app.ts), have no place here; its one script is ours.
 */
const DASHBOARD_CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  frameSrc: ["'none'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'self'"],
  // As the other pages: served over http on a developer's machine.
  upgradeInsecureRequests: null,
};

/** The page: a mount element and the script; the script picks the language from the browser and the colours from prefers-color-scheme. */
const dashboardPage = (script: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><meta name="robots" content="noindex, nofollow"><title>Dashboard · Wallet Checkout</title></head>
<body><div id="dashboard"></div><script src="${escapeHtml(script)}"></script></body></html>
`;
