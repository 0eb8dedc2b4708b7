/**
 * The Express app, composed in one place: every route the backend serves and
 * the order they are tried in.
 */
import express, { type ErrorRequestHandler, type Router } from 'express';
import { type AppLookupOptions, appLookupRoutes } from './apps-api';
import type { App } from './apps';
import type { WalletEnvironment } from '../contracts';
import type { AbandonedAttempts } from './checkout/pay';
import { checkoutBodies, checkoutRoutes, merchantLimiter, type RateLimitCounting } from './checkout/routes';
import type { OriginVerificationDependencies } from './checkout/origin-verification';
import { testClockBodies, testClockRoutes } from './checkout/test-clock-routes';
import type { TestClockSettings } from './checkout/test-clocks';
import type { PlatformSigner } from './checkout/platform';
import type { DirectDecryption } from './checkout/charge-source';
import type { RateLimits, WebhookAddressPolicy } from './config';
import type { DataCipher } from './lib/data-cipher';
import type { Failure, Result } from '../common/result';
import { frameHeaders, replyHeaders } from './http/reply-headers';
import { siteFileRoutes } from './http/site-files';
import { dashboardBodies, dashboardRoutes } from './dashboard/routes';
import { demoBodies, demoRoutes, type DemoMerchant, galleryBodies, galleryRoutes } from '../demo/server';
import { bodyEdge } from '../common/http/body';
import { clientErrors, sendFailure } from '../common/http/errors';
import { type Logger, loggedError, requestLog, requestLogger } from '../common/logging';
import { repeatLimiter } from '../common/logging/repeats';
import type { Metrics } from './metrics';
import { openApiRoutes } from './openapi';
import { healthRoutes, type ReadinessOptions } from './lifecycle';
import type { ServiceClient } from './service-client';
import { type Store, storeFailureOf } from './store';
import { archivedReleaseRoutes } from '../common/http/releases';
import { packageRoutes } from '../common/http/packages';
import { staticRoutes } from '../common/http/static';
import { webhookBodies, webhookRoutes } from './webhooks/routes';
import { paymentMethodBodies, paymentMethodRoutes } from './payment-methods/routes';
import { disputeBodies, disputeRoutes } from './disputes/routes';

export interface AppDependencies {
  store: Store;
  service: ServiceClient;
  cipher: DataCipher;
  /** Attempts given up on a store failure after the service was called: reconciliation settles them at its next pass. */
  abandoned: AbandonedAttempts;
  /** This instance's heartbeat id, written on the attempts its requests make. */
  instanceId: string;
  logger: Logger;
  ownOrigin: () => string;
  gatewayName: string;
  walletEnvironment: WalletEnvironment;
  direct: DirectDecryption;
  directPublicKeyFor(app: App): Promise<Result<string | undefined, Failure>>;
  platformSigner: PlatformSigner | undefined;
  /** Platform mode's proof of the origins it signs for (docs/platform.md). */
  originVerification: OriginVerificationDependencies;
  /** The sandbox this process embeds (npm start's default): mounted at /sandbox. */
  embeddedSandbox: Router | undefined;
  /** Where browsers load the sandbox wallet and its 3-D Secure pages from: our origin (embedded), a standalone sandbox's, none with a real service. */
  sandboxOrigin: (() => string) | undefined;
  demo: DemoMerchant | undefined;
  rateLimits: RateLimits;
  /** Where every instance counts the rate limits (Redis, else PostgreSQL); absent (SQLite, one instance): each counts in memory. */
  rateLimitStores: RateLimitCounting['storeFor'];
  /** Express's `trust proxy` (TRUST_PROXY): whose X-Forwarded-For `req.ip` believes. */
  trustProxy: number | string[] | false;
  longestRequestMs: number;
  appLookup: Omit<AppLookupOptions, 'store' | 'gatewayName'>;
  metrics: Metrics;
  readiness: Omit<ReadinessOptions, 'store'>;
  webhooks: { addressPolicy: WebhookAddressPolicy; retryWindowMs: number };
  /** QUOTE_ENDPOINT_TIMEOUT_MS: how long a merchant's quote endpoint has to answer (sent under the webhooks' address rule). */
  quoteEndpointTimeoutMs: number;
  /** Where the widget's earlier releases are kept and served from (DATA_DIR/releases); absent: only the running build's. */
  releaseArchiveDir?: string;
  /** Test clocks' settings (docs/test-clocks.md), with a sandbox payment service only; undefined with a real one: refused. */
  testClocks: TestClockSettings | undefined;
}

export function createApp(deps: AppDependencies): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // Express's weak ETag hashes every reply, yet the API's are no-store, which no cache keeps to revalidate; the bundles, which are kept, name their bytes with ETags of their own (common/http/static.ts).
  app.set('etag', false);
  app.set('trust proxy', deps.trustProxy);
  app.use(deps.metrics.requests);
  app.use(requestLogger(deps.logger));
  app.use(replyHeaders(deps.sandboxOrigin));

  // The apps API checks its own requests (no body) and answers in Google's shape; the sandbox's routers read their own bodies.
  app.use(appLookupRoutes({ store: deps.store, gatewayName: deps.gatewayName, ...deps.appLookup }));
  if (deps.embeddedSandbox) app.use('/sandbox', deps.embeddedSandbox);
  // Every other body is read here, before any route (common/http/body.ts): a route without a rule takes none.
  app.use(bodyEdge({ ...checkoutBodies, ...testClockBodies, ...paymentMethodBodies, ...disputeBodies, ...webhookBodies, ...dashboardBodies, ...(deps.demo ? demoBodies : {}), ...(deps.demo && deps.sandboxOrigin ? galleryBodies : {}) }));

  app.use(healthRoutes({ store: deps.store, ...deps.readiness }));
  app.use(siteFileRoutes());
  app.get('/metrics', deps.metrics.scrape);
  app.use(openApiRoutes(deps.ownOrigin));
  const rateLimitCounting = { storeFor: deps.rateLimitStores, logger: deps.logger };
  const merchantCalls = merchantLimiter(deps.rateLimits, rateLimitCounting);
  const merchantQuotes = { addressPolicy: deps.webhooks.addressPolicy, timeoutMs: deps.quoteEndpointTimeoutMs, logger: deps.logger };
  app.use(checkoutRoutes({ ...deps, rateLimitCounting, merchantCalls, merchantQuotes }));
  app.use(testClockRoutes({ ...deps, merchantCalls }));
  app.use(paymentMethodRoutes({ ...deps, merchantCalls }));
  app.use(disputeRoutes({ ...deps, merchantCalls }));
  app.use(webhookRoutes({ ...deps, ...deps.webhooks, merchantCalls }));
  app.use(dashboardRoutes({ ...deps, merchantCalls }));
  app.use(staticRoutes({ sandboxWallet: deps.embeddedSandbox !== undefined, frameHeaders: frameHeaders(deps.sandboxOrigin) }));
  if (deps.releaseArchiveDir) app.use(archivedReleaseRoutes(deps.releaseArchiveDir));
  // This version's packages, for QA teams to install the kit and the Node library that match it.
  app.use(packageRoutes());
  if (deps.demo) app.use(demoRoutes(deps.demo));
  // The gallery's widgets pay with the sandbox wallet, so it exists only beside a sandbox.
  if (deps.demo && deps.sandboxOrigin) app.use(galleryRoutes({ checkoutOrigin: deps.ownOrigin, sandboxOrigin: deps.sandboxOrigin, gatewayName: deps.gatewayName }));

  app.use((_req, res) => sendFailure(res, { code: 'not_found', message: 'No such route' }));
  app.use(clientErrors);
  app.use(errorHandler(deps.logger));
  return app;
}

/**
 * A store that is down (store/failures.ts) is answered as such, 503 with
 * Retry-After, whichever route met it. Whatever else reaches here is our bug:
 * logged with the request's id (the Request-Id the caller was answered) and
 * the error's class and frames, never its message or fields, which can hold
 * what the caller sent (loggedError); answered without details.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  // Every request meets a store that is down: the first is logged, then a count per interval (logging/repeats.ts); each request's own line has its 503.
  const storeOutage = repeatLimiter(logger);
  return (error, req, res, _next) => {
    const storeFailure = storeFailureOf(error);
    if (storeFailure) storeOutage.warn({ reqId: req.id, code: storeFailure.code }, 'request failed: the store is unavailable');
    else requestLog(req, logger).error({ error: loggedError(error) }, 'unhandled error');
    if (!res.headersSent) sendFailure(res, storeFailure ?? { code: 'internal_error', message: 'Something went wrong on our side' });
  };
}
