/**
 * Starts the backend: the store, the embedded sandbox service unless a real
 * one is configured, the demo merchant, and the HTTP server. Used by `npm
 * start` and by every test that needs a real server.
 */
import { createPublicKey } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { archiveRelease } from '../common/http/releases';
import { readManifest } from '../common/http/static';
import { createApp } from './app';
import type { Config } from './config';
import { DEMO_WEBHOOK_PATH, type DemoMerchant } from '../demo/server';
import { provisionDemoMerchant } from './apps/demo-merchant';
import { createDirectKeys, createDirectMode, type DirectKeys } from './direct-mode';
import { createLogger, type Logger } from '../common/logging';
import { createMetrics } from './metrics';
import { DatabaseRateLimitStore } from './http/rate-limit-store';
import { connectRateLimitRedis } from './http/rate-limit-redis';
import { RedisOrLocalRateLimitStore } from './http/redis-rate-limit-store';
import { startHeartbeat, startWorkWakes, trackRequests } from './lifecycle';
import type { AbandonedAttempts } from './checkout/pay';
import { type OriginSweepReport, type OriginVerificationDependencies, type OriginVerifier, startOriginVerifier, sweepOriginVerifications } from './checkout/origin-verification';
import { createPlatformSigner } from './checkout/platform';
import { type ReconcileReport, startReconciler } from './checkout/reconcile';
import { createDataCipher, type DataCipher, loadDataKey } from './lib/data-cipher';
import { ok } from '../common/result';
import { createSandboxService, type SandboxService } from '../sandbox';
import { createServiceClient, defaultRetryPolicy } from './service-client';
import { appsLackingGoogleMerchantId } from './apps';
import { openStore, openStoreWhenAvailable, type Store } from './store';
import { startDeliveryWorker } from './webhooks/delivery';

export interface RunningServer {
  url: string;
  store: Store;
  /** The data cipher (DATA_ENCRYPTION_KEY): what the server seals at rest, and opens. */
  cipher: DataCipher;
  sandbox: SandboxService | undefined;
  /** Direct-mode apps' recipient keys, as `npm run direct-keys` manages them. */
  directKeys: DirectKeys;
  logger: Logger;
  /** One reconciliation pass now (it also runs at start, and on the clock of the instance that runs the sweeps). */
  reconcile(): Promise<ReconcileReport>;
  /** One pass of the webhook delivery worker now (it also runs when woken, and when the next delivery falls due). */
  deliverWebhooks(): Promise<void>;
  /**
   * One pass of the origin verification sweep now, at `now` if given (tests move the clock): it also runs
   * at start and every minute, with the platform settings (docs/platform.md).
   */
  verifyOrigins(now?: number): Promise<OriginSweepReport>;
  /** The first step of a shutdown: /readyz answers 503 and every response closes its connection, while it goes on serving. */
  startDraining(): void;
  /**
   * Graceful: stops taking connections, lets requests in flight finish (up to
   * SHUTDOWN_GRACE_MS), then stops reconciliation and webhook delivery (waiting for
   * deliveries in flight) and closes the sandbox and the store.
   */
  close(): Promise<void>;
}

const googleRootKeysUrl = {
  TEST: 'https://payments.developers.google.com/paymentmethodtoken/test/keys.json',
  PRODUCTION: 'https://payments.developers.google.com/paymentmethodtoken/keys.json',
} as const;

/** How long a start waits for Redis (REDIS_URL) before serving with rate limits counted per instance until it connects. */
const REDIS_START_WAIT_MS = 1_000;

/** The store holds what the configuration cannot serve: the message names each problem and its fix. */
export class StartupRefused extends Error {
  override name = 'StartupRefused';
}

export async function startServer(config: Config, logger: Logger = createLogger(config.logLevel)): Promise<RunningServer> {
  const metrics = createMetrics();
  const store = await openStoreWhenAvailable(
    () => openStore(config.dataDir, config.databaseUrl, { limits: config.storeLimits, onError: metrics.countStoreError }),
    (retryInMs) => logger.warn({ retryInMs }, 'the store is unavailable at start: waiting for it'),
  );
  const lacking = await appsLackingGoogleMerchantId(store);
  if (lacking.length > 0) {
    await store.destroy();
    const lines = lacking.map(({ app, need }) => `${app.id} (${app.name}): ${need}; set it with npm run app:update -- --app ${app.id} --google-merchant-id ID`);
    throw new StartupRefused(`applications without the Google merchant id they need:\n  ${lines.join('\n  ')}`);
  }
  metrics.watchStore(store);
  const sandbox = config.paymentService.kind !== 'embedded-sandbox'
    ? undefined
    : await createSandboxService({
        dataDir: config.dataDir,
        gatewayName: config.gatewayName,
        authenticationTtlMs: config.sandboxAuthenticationTtlMs,
        // The sandbox wallet plays Google: it holds the public half of our platform key, as Google would once registered.
        platform: config.platform && { googleMerchantId: config.platform.googleMerchantId, publicKey: createPublicKey(config.platform.signingKey) },
      });

  const http = createServer();
  const requests = trackRequests(http);
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(config.port, config.host, resolve);
  });
  const { port } = http.address() as AddressInfo;
  const listening = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  const origin = config.publicUrl ?? listening;

  // Embedded or standalone, the sandbox is reached over HTTP only, as a real service is: its charge API, its wallet's script and root keys.
  const sandboxOrigin = config.paymentService.kind === 'standalone-sandbox' ? config.paymentService.origin : listening;
  const serviceUrl = config.paymentService.kind === 'real' ? config.paymentService.url : `${sandboxOrigin}/sandbox/service`;
  const service = metrics.instrumentService(
    createServiceClient({
      baseUrl: serviceUrl,
      secretKey: config.paymentService.kind === 'embedded-sandbox' ? (sandbox as SandboxService).serviceSecretKey : config.paymentService.secretKey,
      timeoutMs: config.serviceTimeoutMs,
    }),
  );
  const cipher = createDataCipher(loadDataKey(config.dataEncryptionKey, join(config.dataDir, 'secrets', 'data.key')));
  const directKeys = createDirectKeys(store, cipher);
  const direct = createDirectMode({
    store,
    keys: directKeys,
    walletEnvironment: config.walletEnvironment,
    rootKeys: {
      SANDBOX: config.paymentService.kind === 'real' ? undefined : `${sandboxOrigin}/sandbox/wallet/root-keys.json`,
      TEST: config.googleRootKeys ?? googleRootKeysUrl.TEST,
      PRODUCTION: config.googleRootKeys ?? googleRootKeysUrl.PRODUCTION,
    },
    onRootKeysRefreshFailed: (failure) => logger.warn({ code: failure.code }, `${failure.message}; the cached keys serve until they expire`),
  });
  // The demo store is a merchant's site: provisioned here as an operator would, then handed its credentials.
  const demo: DemoMerchant | undefined = config.demo
    ? {
        apiBase: origin,
        ...(await provisionDemoMerchant({
          store,
          dataDir: config.dataDir,
          origin,
          webhookUrl: `${origin}${DEMO_WEBHOOK_PATH}`,
          decryptionMode: config.decryptionMode,
          webhooks: { cipher, addressPolicy: config.webhooks.addressPolicy },
          direct: { keys: directKeys, walletEnvironment: config.walletEnvironment },
          logger,
        })),
      }
    : undefined;

  // What a request's service calls can take with every retry: reconciliation and idempotency keys wait this long for it.
  const longestRequestMs = config.serviceTimeoutMs * defaultRetryPolicy.maxTries + 5000;
  const abandoned: AbandonedAttempts = new Set();
  // Beating before the first request: the attempts this instance makes name it, and other instances see it live.
  const heartbeat = await startHeartbeat(store, origin, logger);
  const { instanceId } = heartbeat;
  const sharedStore = config.databaseUrl !== undefined;
  const originVerification: OriginVerificationDependencies = { store, config: config.originVerification, logger };
  // Pages and packages pinned to an earlier release keep loading it after this deploy (common/http/releases.ts).
  const releaseArchiveDir = join(config.dataDir, 'releases');
  archiveRelease(readManifest(), releaseArchiveDir);
  // Rate limits count in Redis when it is configured, else in the database the instances share (docs/decisions.md).
  const rateLimitRedis = config.redisUrl === undefined ? undefined : connectRateLimitRedis(config.redisUrl, logger, metrics.countLocalRateLimit);
  // Counted in memory until connected: a short wait lets the first requests be shared, and Redis down delays no start for long.
  await rateLimitRedis?.ready(REDIS_START_WAIT_MS);
  const rateLimitStores = rateLimitRedis
    ? (limiter: string) => new RedisOrLocalRateLimitStore(rateLimitRedis, limiter)
    : sharedStore
      ? (limiter: string) => new DatabaseRateLimitStore(store, limiter)
      : undefined;
  const app = createApp({
    store,
    service,
    cipher,
    abandoned,
    instanceId,
    logger,
    ownOrigin: () => origin,
    gatewayName: config.gatewayName,
    walletEnvironment: config.walletEnvironment,
    direct,
    directPublicKeyFor: async (a) => (a.decryptionMode === 'direct' ? direct.publicKeyFor(a) : ok(undefined)),
    platformSigner: config.platform && createPlatformSigner(config.platform),
    originVerification,
    embeddedSandbox: sandbox?.router,
    sandboxOrigin: config.paymentService.kind === 'real' ? undefined : config.paymentService.kind === 'standalone-sandbox' ? () => sandboxOrigin : () => origin,
    demo,
    rateLimits: config.rateLimits,
    rateLimitStores,
    trustProxy: config.trustProxy,
    longestRequestMs,
    appLookup: { ...config.appLookup, dataDir: config.dataDir },
    metrics,
    readiness: { serviceUrl, timeoutMs: config.readinessTimeoutMs, draining: () => requests.draining },
    webhooks: { addressPolicy: config.webhooks.addressPolicy, retryWindowMs: config.webhooks.retry.windowMs },
    quoteEndpointTimeoutMs: config.quoteEndpointTimeoutMs,
    releaseArchiveDir,
    // Time is moved only where no money is real; the delivery worker is started below, before any request is served.
    testClocks: config.paymentService.kind === 'real' ? undefined : { personalDataRetentionMs: config.personalDataRetentionMs, deliverWebhooks: () => webhooks.run() },
  });
  http.on('request', app);
  const webhooks = startDeliveryWorker({ store, cipher, logger }, config.webhooks);
  // A request still in flight is given the time its retries can take before it is replayed; a replay as long.
  const reconciler = startReconciler(
    { store, service, cipher, logger, abandoned, instanceId, sharedStore, leaseMs: longestRequestMs, personalDataRetentionMs: config.personalDataRetentionMs },
    {
      intervalMs: config.reconcileIntervalMs,
      idleIntervalMs: config.reconcileIdleIntervalMs,
      inFlightGraceMs: longestRequestMs,
      // A delivery leased by an instance that died is due again when its lease lapses: nobody is notified of that.
      onClockPass: () => webhooks.wake(),
    },
  );
  // Neither polls the store: notifications (PostgreSQL) or the store's own writes (SQLite) wake them.
  const wakes = startWorkWakes(store, config.databaseListenUrl, { webhooks, reconciler }, logger);
  // Without the platform settings no authJwt is signed, so there is nothing to keep checked ("verify now" still checks).
  const originVerifier: OriginVerifier | undefined = config.platform && startOriginVerifier(originVerification);

  return {
    url: listening,
    store,
    cipher,
    sandbox,
    directKeys,
    logger,
    reconcile: () => reconciler.run(),
    deliverWebhooks: () => webhooks.run(),
    verifyOrigins: (now) => (originVerifier ? originVerifier.run(now) : sweepOriginVerifications(originVerification, now)),
    startDraining: () => requests.startDraining(),
    async close() {
      // Payments in flight still need the store, the service client and (embedded) the sandbox.
      const drained = await requests.close(config.shutdownGraceMs);
      if (drained.unfinished > 0) logger.warn({ unfinished: drained.unfinished }, 'requests cut off at the end of the shutdown grace period; reconciliation settles their payments');
      await rateLimitRedis?.close();
      await wakes.close();
      await reconciler.stop();
      // A delivery in flight finishes and is recorded; one cut off would only be sent again once its lease lapses.
      await webhooks.stop();
      await originVerifier?.stop();
      await direct.settled();
      await heartbeat.stop();
      await sandbox?.close();
      await store.destroy();
    },
  };
}
