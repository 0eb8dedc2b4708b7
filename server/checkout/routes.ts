/**
 * The checkout API. Merchant servers use the secret key; the widget, from a
 * shopper's browser on the merchant's site, uses the session's client secret.
 */
import cors from 'cors';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { ipKeyGenerator, rateLimit, type Store as RateLimitStore } from 'express-rate-limit';
import { type App, findSessionAndApp, rollSecretKey, unauthenticatedMerchant, walletEnvironmentOf } from '../apps';
import { isStorableText, type PayReply, type PublicSession, type Refund, RollSecretKeyBody, SessionId, sessionExpired, SessionStatus, unstorableTextPath, VerifyOriginBody, type WalletEnvironment } from '../../contracts';
import { exponentOf } from '../../contracts/currency';
import { formatAmount, shownAmount } from '../../contracts/money';
import { EMBEDDER_ORIGIN_HEADER } from '../../contracts/embedder';
import { isWebOrigin } from '../../contracts/urls';
import { bearerCredential } from '../../common/http/auth';
import { askForSecretKey, authenticatedMerchant, authenticatedMerchantSession, KeyOwners, merchantCaller, secretKeyIsLive } from '../http/merchant-auth';
import { hashSecret } from '../../common/secrets';
import { invalidRequest, sendError, sendFailure, unstorableText } from '../../common/http/errors';
import { IDEMPOTENT, JSON_BODY, MERCHANT_CALL, NO_BODY, PATH_ID, type RouteAnswers } from '../../contracts/error-codes';
import { type BodyRules, KB } from '../../common/http/body';
import { refusal, replyOf, respondIdempotently } from '../http/idempotency';
import { type Failure, type Result, err, ok } from '../../common/result';
import type { Logger } from '../../common/logging';
import { repeatLimiter } from '../../common/logging/repeats';
import type { RateLimits } from '../config';
import type { Store } from '../store';
import { holdReply, type HoldOperation } from './holds';
import { expiredIfPastDue } from './expiry';
import { authenticate, type Paid, type PayDependencies, pay } from './pay';
import { originMaySign, type OriginVerificationDependencies, originVerifications, verificationFileUrl, verifyOrigin } from './origin-verification';
import { googlePayAmountRefusal } from './payment-request';
import { buildPaymentDataRequest, type PaymentRequestContext, type PlatformAuthorization } from '../../contracts/payment-data-request';
import type { PlatformSigner } from './platform';
import { createRefund } from './refunds';
import { clientSecretOpens, createSession, listAppSessions, merchantView, outcomeOf, requestedAmountOf, sessionView, viewKeyOpens } from './sessions';
import { quoteEndpointOf, removeQuoteEndpoint, setQuoteEndpoint } from './quote-endpoints';
import { quoteSession } from './quotes';
import { shopperOutcome } from './shopper-outcome';
import { findSession, type SessionRow } from '../store/sessions';
import { savingShownOf } from '../payment-methods/agreement';
import { keepCardAfterPayment } from '../payment-methods/keep';

export interface CheckoutRoutesOptions extends PayDependencies {
  store: Store;
  /** Our own origin: the demo store and same-origin pages are always allowed. */
  ownOrigin: () => string;
  gatewayName: string;
  walletEnvironment: WalletEnvironment;
  /** Where the sandbox wallet's script is served: this backend (embedded) or a standalone sandbox; none with a real service. */
  sandboxOrigin: (() => string) | undefined;
  /** The app's DIRECT tokenization key; undefined for a gateway-mode app. */
  directPublicKeyFor(app: App): Promise<Result<string | undefined, Failure>>;
  /** Signs platform-mode apps' authJwt; absent when no platform is configured. */
  platformSigner: PlatformSigner | undefined;
  /** Which origins a platform-mode app proved it controls: only those get an authJwt (docs/platform.md). */
  originVerification: OriginVerificationDependencies;
  /** Requests per minute per client address (as `trust proxy` derives it: `req.ip`). */
  rateLimits: RateLimits;
  rateLimitCounting: RateLimitCounting;
  /** The one budget of every secret-key route, these and the webhook routes' (merchantLimiter). */
  merchantCalls: RequestHandler;
  /** No request runs longer: an Idempotency-Key claimed longer ago than this was left by a process that died. */
  longestRequestMs: number;
  logger: Logger;
}

/**
 * Where the limiters count: where every instance counts, so that a client has
 * one budget whichever instance the load balancer sends it to (Redis when
 * REDIS_URL is set, else the database when instances share it: PostgreSQL);
 * undefined: in this process (SQLite, one instance). server.ts chooses.
 */
export interface RateLimitCounting {
  /** A store for the limiter of this name (a store serves one limiter). */
  storeFor: ((limiter: string) => RateLimitStore) | undefined;
  logger: Logger;
}

/**
 * Per client address: enough to blunt guessing of secrets and a runaway page.
 * The address is `req.ip`, the client Express derives through the proxies
 * TRUST_PROXY trusts (docs/operations.md); an IPv6 client counts by its /56,
 * since one host can use any address of its prefix. Every request counts,
 * refused ones too: a guesser of secrets is refused by its own bucket, never
 * by another client's. A limiter whose database store cannot be reached lets
 * the request through (fail open, docs/operations.md): the database is down
 * for the request's own work too, which then answers 503 store_unavailable.
 * The Redis store never fails: it counts in memory while Redis is down.
 */
export const limiter = (
  name: string,
  perMinute: number,
  counting: RateLimitCounting,
  answer: (req: Request, res: Response, send: () => void) => void = (_req, _res, send) => send(),
) => {
  // A shared store that is down fails every request's count: the same error once per interval, with a count (logging/repeats.ts).
  const repeats = repeatLimiter(counting.logger);
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? ''),
    handler: (req, res) => answer(req, res, () => sendFailure(res, { code: 'rate_limited', message: 'Too many requests; try again in a minute' })),
    ...(counting.storeFor && { store: counting.storeFor(name) }),
    passOnStoreError: true,
    logger: {
      error: (error, message) => repeats.error({ err: error, limiter: name }, message ?? 'rate limiter error'),
      warn: (error, message) => repeats.warn({ err: error, limiter: name }, message ?? 'rate limiter warning'),
    },
  });
};

/** One limiter for every secret-key route of the API (RATE_LIMIT_MERCHANT_PER_MINUTE), whichever router serves it. */
export const merchantLimiter = (limits: RateLimits, counting: RateLimitCounting): RequestHandler => limiter('merchant', limits.merchantPerMinute, counting);

/** What every widget route may answer: its session (path, client secret, origin, expiry), its limiter, and the view it replies with. */
const WIDGET_CALL = [
  ...PATH_ID,
  'rate_limited',
  'unauthenticated',
  'origin_not_allowed',
  'session_expired',
  'store_unavailable',
  'direct_key_not_registered',
  'direct_mode_unavailable',
  'root_keys_unavailable',
  'platform_not_configured',
  // A session created before Google Pay's price format was enforced, in an amount Google cannot show.
  'amount_exceeds_google_pay_precision',
  'origin_not_verified',
] as const satisfies RouteAnswers;

/**
 * What each route answers besides its success, by operationId: each code's
 * status is in common/http/errors.ts, and the OpenAPI document's error
 * responses are built from these (server/openapi).
 */
export const checkoutAnswers = {
  createSession: [...MERCHANT_CALL, ...JSON_BODY, ...IDEMPOTENT, 'amount_exceeds_google_pay_precision', 'quote_endpoint_missing'],
  listSessions: [...MERCHANT_CALL, ...NO_BODY, 'invalid_request'],
  getSession: [...MERCHANT_CALL, ...NO_BODY, ...PATH_ID],
  getPublicSession: [...WIDGET_CALL, ...NO_BODY],
  paySession: [
    ...WIDGET_CALL,
    ...JSON_BODY,
    'invalid_payment_token',
    'shipping_country_not_allowed',
    'agreement_required',
    'quote_mismatch',
    'shipping_address_unserviceable',
    'quote_unavailable',
    'payment_in_progress',
    'session_completed',
    'invalid_state',
    'replayed_token',
  ],
  quoteSession: [...WIDGET_CALL, ...JSON_BODY, 'payment_in_progress', 'session_completed', 'invalid_state'],
  authenticateSession: [...WIDGET_CALL, ...JSON_BODY, 'authentication_pending', 'payment_in_progress', 'session_completed', 'invalid_state', 'service_unavailable'],
  captureSession: [...MERCHANT_CALL, ...PATH_ID, ...JSON_BODY, ...IDEMPOTENT, 'invalid_state', 'hold_expired', 'capture_declined', 'service_unavailable'],
  releaseSession: [...MERCHANT_CALL, ...PATH_ID, ...JSON_BODY, ...IDEMPOTENT, 'invalid_state', 'service_unavailable'],
  refundSession: [...MERCHANT_CALL, ...PATH_ID, ...JSON_BODY, ...IDEMPOTENT, 'invalid_state', 'amount_exceeds_refundable'],
  rollSecretKey: [...MERCHANT_CALL, ...JSON_BODY, ...IDEMPOTENT],
  listOriginVerifications: [...MERCHANT_CALL, ...NO_BODY],
  verifyOrigin: [...MERCHANT_CALL, ...JSON_BODY],
  setQuoteEndpoint: [...MERCHANT_CALL, ...JSON_BODY, 'url_not_allowed'],
  getQuoteEndpoint: [...MERCHANT_CALL, ...NO_BODY, 'not_found'],
  deleteQuoteEndpoint: [...MERCHANT_CALL, ...NO_BODY, 'not_found'],
} as const satisfies Record<string, RouteAnswers>;

/**
 * The bodies these routes take (common/http/body.ts reads them at the edge, before anything
 * else runs); every other route of this router takes none. Optional: no body is `{}`.
 */
export const checkoutBodies = {
  'POST /api/sessions': { body: 'required', limit: 32 * KB },
  'POST /api/sessions/:id/pay': { body: 'required', limit: 32 * KB },
  'POST /api/sessions/:id/quote': { body: 'required', limit: 8 * KB },
  'POST /api/sessions/:id/authenticate': { body: 'required', limit: 32 * KB },
  'POST /api/sessions/:id/capture': { body: 'optional', limit: 32 * KB },
  'POST /api/sessions/:id/release': { body: 'optional', limit: 32 * KB },
  'POST /api/sessions/:id/refunds': { body: 'optional', limit: 32 * KB },
  'POST /api/keys/roll': { body: 'optional', limit: 32 * KB },
  'POST /api/origin_verifications/verify': { body: 'required', limit: 32 * KB },
  'PUT /api/quote_endpoint': { body: 'required', limit: 32 * KB },
} as const satisfies BodyRules;

/** A widget call's session and app; for a platform app, the authorization signed for the page (widgetSession). */
interface WidgetCall {
  session: SessionRow;
  app: App;
  platform?: PlatformAuthorization;
}

/** The routes the widget calls from the merchant's page, the only ones that answer CORS. */
const WIDGET_ROUTES = ['/api/sessions/:id/public', '/api/sessions/:id/pay', '/api/sessions/:id/quote', '/api/sessions/:id/authenticate'];

export function checkoutRoutes(options: CheckoutRoutesOptions): express.Router {
  const { store } = options;
  const router = express.Router();
  // The widget's limits are counted before its CORS check, which reads the store: a page on a
  // refused origin spends its own budget too. Their 429 is readable by the page (it tells nothing).
  const readableByPage = (req: Request, res: Response, send: () => void) => {
    const origin = req.get('origin');
    return origin && isWebOrigin(origin) ? corsFor(origin)(req, res, send) : send();
  };
  const reads = limiter('reads', options.rateLimits.readsPerMinute, options.rateLimitCounting, readableByPage);
  const payments = limiter('pay', options.rateLimits.payPerMinute, options.rateLimitCounting, readableByPage);
  const { merchantCalls } = options;
  const keys = { db: store, cipher: options.cipher, abandonedAfterMs: options.longestRequestMs };

  /**
   * A path id is checked before anything reads the store: text the store
   * cannot hold is a 400, any other id that is not a session id's shape names
   * no session (404), as a stranger's id does.
   */
  router.param('id', (_req, res, next, id: string) => {
    if (!isStorableText(id)) return sendError(res, unstorableText(['id']));
    if (!SessionId.safeParse(id).success) return sendFailure(res, { code: 'not_found', message: 'No such checkout session' });
    next();
  });

  const merchantApp = (req: Request, res: Response) => authenticatedMerchant(store, req, res);
  const checkedCaller = async (req: Request, res: Response) => {
    const app = await merchantApp(req, res);
    return app && { caller: { appId: app.id, keyHash: hashSecret(bearerCredential(req) ?? '') }, remembered: false };
  };

  /**
   * The insert checks the caller's key live and reads its app (createSession), so a key this instance
   * remembers costs no read before it. Not under an Idempotency-Key: its replay would answer before
   * any statement checked the key, so the key is read first, as on every other route.
   */
  const keyOwners = new KeyOwners();
  router.post('/api/sessions', merchantCalls, async (req, res) => {
    const found = req.get('idempotency-key') === undefined ? await merchantCaller(store, keyOwners, req, res) : await checkedCaller(req, res);
    if (!found) return;
    const { caller, remembered } = found;
    await respondIdempotently(keys, caller.appId, req, res, async () => {
      const created = await createSession(store, options.cipher, caller, req.body);
      if (!created.ok) {
        // A key that died since it was remembered hears 401, as it would have before anything else.
        const live = created.error.code !== 'unauthenticated' && (!remembered || (await secretKeyIsLive(store, req)));
        if (live) return replyOf(created, 201, () => false);
        keyOwners.forget(caller.keyHash);
        askForSecretKey(res);
        return refusal(unauthenticatedMerchant);
      }
      const { session, row, locale, app } = created.value;
      // Platform mode's view is signed for the page's origin, which only the widget's request tells.
      const view = app.googlePayMode === 'platform' ? undefined : await publicView(row, app, undefined, locale);
      return replyOf(ok({ ...session, public_view: view?.ok ? view.value : null }), 201);
    });
  });

  router.get('/api/sessions', merchantCalls, async (req, res) => {
    const app = await merchantApp(req, res);
    if (!app) return;
    // As a body is at the edge (common/http/body.ts): text the store cannot hold is refused before it reaches a query.
    const unstorable = unstorableTextPath(req.query);
    if (unstorable) return sendError(res, unstorableText(unstorable));
    const listed = await listAppSessions(store, options.cipher, app, req.query);
    if (listed.ok) res.json(listed.value);
    else sendFailure(res, listed.error);
  });

  /**
   * A new secret key; the key that asks keeps working for `expire_current_in_seconds`.
   * Under an Idempotency-Key a retry replays the same new key (kept sealed), as
   * long as the calling key still works: with 0, a lost reply cannot be replayed.
   */
  router.post('/api/keys/roll', merchantCalls, async (req, res) => {
    const app = await merchantApp(req, res);
    if (!app) return;
    await respondIdempotently(keys, `${app.id}:${req.path}`, req, res, async () => {
      const parsed = RollSecretKeyBody.safeParse(req.body ?? {});
      if (!parsed.success) return refusal(invalidRequest(parsed.error));
      const rolled = await rollSecretKey(store, app, { expireCurrentInSeconds: parsed.data.expire_current_in_seconds, rolledKey: bearerCredential(req) });
      return { status: 201, body: rolled, record: true };
    });
  });

  /** Platform mode's proof of each allowed origin: the file to publish, its token, the checks' results (docs/platform.md). */
  router.get('/api/origin_verifications', merchantCalls, async (req, res) => {
    const app = await merchantApp(req, res);
    if (!app) return;
    res.json(await originVerifications(options.originVerification, app));
  });

  /** "Verify now": fetches one origin's file at once and answers its verification, verified or not (`last_failure` says why). */
  router.post('/api/origin_verifications/verify', merchantCalls, async (req, res) => {
    const app = await merchantApp(req, res);
    if (!app) return;
    const parsed = VerifyOriginBody.safeParse(req.body);
    if (!parsed.success) return sendFailure(res, invalidRequest(parsed.error));
    const checked = await verifyOrigin(options.originVerification, app, parsed.data.origin);
    if (checked.ok) res.json(checked.value);
    else sendFailure(res, checked.error);
  });

  /** The app's quote endpoint (docs/express-checkout.md#the-merchants-quote-endpoint): setting it shows its new signing secret, once. */
  const quoteEndpoints = { store, cipher: options.cipher, addressPolicy: options.merchantQuotes.addressPolicy, resolve: options.merchantQuotes.resolve };
  router.put('/api/quote_endpoint', merchantCalls, async (req, res) => {
    const app = await merchantApp(req, res);
    if (!app) return;
    const set = await setQuoteEndpoint(quoteEndpoints, app, req.body);
    if (set.ok) res.json(set.value);
    else sendFailure(res, set.error);
  });

  router.get('/api/quote_endpoint', merchantCalls, async (req, res) => {
    const app = await merchantApp(req, res);
    if (!app) return;
    const found = await quoteEndpointOf(store, app);
    if (found.ok) res.json(found.value);
    else sendFailure(res, found.error);
  });

  router.delete('/api/quote_endpoint', merchantCalls, async (req, res) => {
    const app = await merchantApp(req, res);
    if (!app) return;
    const removed = await removeQuoteEndpoint(store, app);
    if (removed.ok) res.status(204).end();
    else sendFailure(res, removed.error);
  });

  /** The session a merchant's call names, with its app and its refunds, read in one statement. */
  async function merchantSession(req: Request, res: Response): Promise<{ session: SessionRow; app: App; refunds: Refund[] } | undefined> {
    const found = await authenticatedMerchantSession(store, req, res, String(req.params.id));
    if (!found) return undefined;
    if (!found.session) {
      sendFailure(res, { code: 'not_found', message: 'No such checkout session' });
      return undefined;
    }
    return { session: await expiredIfPastDue(options, found.session), app: found.app, refunds: found.refunds };
  }

  router.get('/api/sessions/:id', merchantCalls, async (req, res) => {
    const found = await merchantSession(req, res);
    if (found) res.json(merchantView(found.session, found.refunds, options.cipher));
  });

  /**
   * Capture or release a hold. Under the merchant's Idempotency-Key (scoped to
   * the app and this path) a retry replays the first reply; without one, a
   * second capture is refused as an invalid transition.
   */
  const holdRoute = (operation: HoldOperation) => async (req: Request, res: Response) => {
    const found = await merchantSession(req, res);
    if (!found) return;
    await respondIdempotently(keys, `${found.app.id}:${req.path}`, req, res, () => holdReply(options, found.app, found.session, operation, req.body, (moved) => sessionView(store, options.cipher, moved)));
  };
  router.post('/api/sessions/:id/capture', merchantCalls, holdRoute('capture'));
  router.post('/api/sessions/:id/release', merchantCalls, holdRoute('release'));

  /**
   * A refund, all that is left or part of it. Without an Idempotency-Key each
   * request is a new refund (the sum stays capped); with one, a retry replays
   * the first reply, pending included: the refund object's status is read on the session.
   * The key also names the refund, so a retry after a crash that lost the reply finds it.
   */
  router.post('/api/sessions/:id/refunds', merchantCalls, async (req, res) => {
    const found = await merchantSession(req, res);
    if (!found) return;
    await respondIdempotently(keys, `${found.app.id}:${req.path}`, req, res, async () => {
      const refunded = await createRefund(options, found.app, found.session, req.body, req.get('idempotency-key'));
      return replyOf(refunded, 201, (failure) => failure.code !== 'invalid_request');
    });
  });

  /**
   * The session the widget's request names, and its app: read once per
   * request, since both the CORS check and the handler need them.
   */
  async function namedSession(req: Request, res: Response): Promise<{ session?: SessionRow; app?: App }> {
    const locals = res.locals as { widgetSession?: { session?: SessionRow; app?: App } };
    if (!locals.widgetSession) {
      locals.widgetSession = (await findSessionAndApp(store, String(req.params.id))) ?? {};
    }
    return locals.widgetSession;
  }

  const corsFor = (origin: string) => cors({ origin, methods: ['GET', 'POST'], allowedHeaders: ['authorization', 'content-type'], maxAge: 600 });

  /**
   * The widget's routes serve only the app's allowed origins (and our own):
   * the session named in the path tells which app. A page on another origin
   * is refused with CORS headers for that origin, so the widget can read the
   * refusal and tell the merchant (docs/embedding.md) instead of seeing a
   * network error. Preflights carry no credential and change nothing: they
   * are answered for any web origin without reading the store, and the
   * request that follows is the one checked.
   */
  const widgetCors = async (req: Request, res: Response, next: express.NextFunction) => {
    const origin = req.get('origin');
    const refuse = () => sendFailure(res, { code: 'origin_not_allowed', message: 'This page\'s origin is not allowed to use this checkout' });
    const allows = async (page: string) => isWebOrigin(page) && !!(await namedSession(req, res)).app?.allowedOrigins.includes(page);
    if (!origin || origin === options.ownOrigin()) {
      const embedder = embedderOf(req);
      return !embedder || (await allows(embedder)) ? next() : refuse();
    }
    if (req.method === 'OPTIONS') return isWebOrigin(origin) ? corsFor(origin)(req, res, next) : refuse();
    if (await allows(origin)) return corsFor(origin)(req, res, next);
    if (isWebOrigin(origin)) return corsFor(origin)(req, res, refuse);
    refuse();
  };

  /**
   * Iframe mode: the page that embeds our checkout frame, which the frame
   * learnt from the browser (the init message's `event.origin`) and names in
   * EMBEDDER_ORIGIN_HEADER. Believed only from our own origin, where only our frame
   * code runs; a page on another origin cannot send it (CORS does not allow
   * the header) and is judged by its Origin. Our own origin is no embedder.
   */
  const embedderOf = (req: Request): string | undefined => {
    const origin = req.get('origin');
    const embedder = req.get(EMBEDDER_ORIGIN_HEADER);
    return (!origin || origin === options.ownOrigin()) && embedder !== undefined && embedder !== options.ownOrigin() ? embedder : undefined;
  };

  /**
   * The page the shopper is on (widgetCors checked it): the page embedding our
   * frame; else the request's origin; ours for a same-origin page, whose reads carry none.
   */
  const pageOrigin = (req: Request): string => embedderOf(req) ?? req.get('origin') ?? options.ownOrigin();

  /**
   * A platform app's authorization for the page: our merchant id and an authJwt for its site, signed
   * only for an origin the app proved it controls (or our own).
   */
  const platformAuthorization = async (app: App, page: string): Promise<Result<PlatformAuthorization, Failure>> => {
    if (!options.platformSigner) return err({ code: 'platform_not_configured', message: 'This checkout uses platform mode, which is not configured on this server' });
    if (page !== options.ownOrigin() && !(await originMaySign(options.originVerification, app, page))) {
      return err({ code: 'origin_not_verified', message: `This page's origin is not verified for this checkout: ${verificationFileUrl(page)} must serve the application's token (docs/platform.md)` });
    }
    return ok(await options.platformSigner(page));
  };

  /**
   * The session a widget call names, opened by its client secret and not expired; for a platform
   * app, with the page's authorization, refused (before anything else is done, a payment included)
   * where it cannot be had.
   */
  async function widgetSession(req: Request, res: Response, readsView = false): Promise<WidgetCall | undefined> {
    const secret = bearerCredential(req);
    // The view alone may be read with the secret's view key instead (viewKeyOpens): the widget's first request, which then needs no preflight.
    const viewKey = readsView && !secret && typeof req.query.view_key === 'string' ? req.query.view_key : undefined;
    const { session, app } = secret || viewKey ? await namedSession(req, res) : {};
    const opens = !!session && (secret ? clientSecretOpens(session, secret) : viewKey !== undefined && viewKeyOpens(session, viewKey));
    if (!session || !app || !opens) {
      sendFailure(res, { code: 'unauthenticated', message: 'A valid client secret for this session is required' });
      return undefined;
    }
    // Every widget call refuses an expired session: it shows the shopper its expired state, nothing to pay.
    const current = await expiredIfPastDue(options, session);
    if (current.status === 'expired') {
      sendFailure(res, sessionExpired);
      return undefined;
    }
    if (app.googlePayMode !== 'platform') return { session: current, app };
    const platform = await platformAuthorization(app, pageOrigin(req));
    if (!platform.ok) {
      sendFailure(res, platform.error);
      return undefined;
    }
    return { session: current, app, platform: platform.value };
  }

  /**
   * The session as the widget sees it; a platform app's request carries the authorization widgetSession
   * signed for the page's site. With the shopper's `locale`, the amount comes formatted for it, as the widget would.
   */
  const publicView = async (session: SessionRow, app: App, platform: PlatformAuthorization | undefined, locale?: string): Promise<Result<PublicSession, Failure>> => {
    const unpayable = googlePayAmountRefusal(session.amount, session.currency);
    if (unpayable) return err(unpayable);
    // A direct-mode app without a registered key cannot be paid: its shoppers are told so before the wallet opens.
    const directPublicKey = await options.directPublicKeyFor(app);
    if (!directPublicKey.ok) return directPublicKey;
    const context: PaymentRequestContext = { gatewayName: options.gatewayName, directPublicKey: directPublicKey.value, ...(platform && { platform }) };
    const environment = walletEnvironmentOf(app, options.walletEnvironment);
    const exponent = exponentOf(session.currency);
    const saving = savingShownOf(app, session);
    const outcome = outcomeOf(session);
    return ok({
      id: session.id,
      status: SessionStatus.parse(session.status),
      amount: session.amount,
      currency: session.currency,
      currency_exponent: exponent,
      amount_captured: session.amount_captured,
      amount_display: locale ? { locale, text: formatAmount(shownAmount(session), session.currency, exponent, locale) } : null,
      description: session.description,
      merchant_name: app.name,
      wallet: { environment, sandbox_script: environment === 'SANDBOX' && options.sandboxOrigin ? `${options.sandboxOrigin()}/sandbox/wallet.js` : null },
      payment_data_request: buildPaymentDataRequest(app, { ...requestedAmountOf(session), saving: saving?.sheet }, context),
      outcome: outcome && shopperOutcome(outcome),
      expires_at: session.expires_at,
      ...(saving && { save_payment_method: saving.widget }),
    });
  };

  router.options(WIDGET_ROUTES, widgetCors);

  router.get('/api/sessions/:id/public', reads, widgetCors, async (req, res) => {
    const found = await widgetSession(req, res, true);
    if (!found) return;
    const view = await publicView(found.session, found.app, found.platform);
    if (view.ok) res.json(view.value);
    else sendFailure(res, view.error);
  });

  router.post('/api/sessions/:id/pay', payments, widgetCors, async (req, res) => {
    const found = await widgetSession(req, res);
    if (!found) return;
    // The page the widget runs on (CORS let it in above; in iframe mode, our frame): a 3-D Secure challenge reports to it.
    const embedder = embedderOf(req);
    const framing = { return_origin: req.get('origin') ?? options.ownOrigin(), ...(embedder ? { ancestor_origins: [embedder] } : {}) };
    const paid = await pay(options, found.app, found.session, req.body, framing);
    if (paid.ok) await keepCardAfterPayment(options, found.app, found.session, paid.value.outcome);
    await sendPayReply(res, found, paid);
  });

  /**
   * The relay of Google's onPaymentDataChanged for a session with delivery options: the price of the sheet's
   * address and option, as the update the widget hands Google. Counted with the reads: a sheet asks at each change.
   */
  router.post('/api/sessions/:id/quote', reads, widgetCors, async (req, res) => {
    const found = await widgetSession(req, res);
    if (!found) return;
    const quoted = await quoteSession(options, found.session, req.body);
    if (quoted.ok) res.json(quoted.value);
    else sendFailure(res, quoted.error);
  });

  router.post('/api/sessions/:id/authenticate', payments, widgetCors, async (req, res) => {
    const found = await widgetSession(req, res);
    if (!found) return;
    const paid = await authenticate(options, found.app, found.session, req.body);
    if (paid.ok) await keepCardAfterPayment(options, found.app, found.session, paid.value.outcome);
    await sendPayReply(res, found, paid);
  });

  async function sendPayReply(res: Response, found: WidgetCall, paid: Result<Paid, Failure>): Promise<void> {
    if (!paid.ok) return sendFailure(res, paid.error);
    // The session as the payment's own move left it: read again only when another moved it since.
    const session = paid.value.session ?? (await findSession(store, found.session.id));
    if (!session) return sendFailure(res, { code: 'not_found', message: 'No such checkout session' });
    // Only if every key of a direct-mode app was retired during the payment: the outcome stands, the merchant's server confirms it.
    const view = await publicView(session, found.app, found.platform);
    if (!view.ok) return sendFailure(res, view.error);
    const reply: PayReply = { outcome: shopperOutcome(paid.value.outcome), session: view.value };
    res.json(reply);
  }

  return router;
}
