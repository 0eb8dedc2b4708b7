/**
 * Starts the backend: the store, the embedded sandbox service unless a real
 * one is configured, the demo merchant, and the HTTP server. Used by `npm
 * start` and by every test that needs a real server.
 */
import { createPublicKey } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createApp } from './app';
import type { Config } from './config';
import { ensureDemoMerchant } from './demo';
import { createDirectMode } from './direct';
import { createLogger, type Logger } from './logging';
import { createMetrics } from './metrics';
import { trackRequests } from './ops';
import { createPlatformSigner } from './checkout/platform';
import { type ReconcileReport, startReconciler } from './checkout/reconcile';
import { createDataCipher, loadDataKey } from './lib/data-cipher';
import { createSandboxService, type SandboxService } from './sandbox';
import { createServiceClient, defaultRetryPolicy } from './service-client';
import { openStore, type Store } from './store';

export interface RunningServer {
  url: string;
  store: Store;
  sandbox: SandboxService | undefined;
  logger: Logger;
  /** One reconciliation pass now (it also runs at start and every RECONCILE_INTERVAL_MS). */
  reconcile(): Promise<ReconcileReport>;
  /**
   * Graceful: stops taking connections, lets requests in flight finish (up to
   * SHUTDOWN_GRACE_MS), then stops reconciliation and closes the sandbox and the store.
   */
  close(): Promise<void>;
}

const googleRootKeysUrl = {
  TEST: 'https://payments.developers.google.com/paymentmethodtoken/test/keys.json',
  PRODUCTION: 'https://payments.developers.google.com/paymentmethodtoken/keys.json',
} as const;

export async function startServer(config: Config, logger: Logger = createLogger(config.logLevel)): Promise<RunningServer> {
  const store = await openStore(config.dataDir, config.databaseUrl);
  const sandbox = config.paymentService
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

  const metrics = createMetrics(store);
  const serviceUrl = config.paymentService?.url ?? `${listening}/sandbox/service`;
  const service = metrics.instrumentService(
    createServiceClient({
      baseUrl: serviceUrl,
      secretKey: config.paymentService?.secretKey ?? (sandbox as SandboxService).serviceSecretKey,
      timeoutMs: config.serviceTimeoutMs,
    }),
  );
  const direct = createDirectMode({
    dataDir: config.dataDir,
    rootKeys: config.googleRootKeys ?? (config.walletEnvironment === 'SANDBOX' ? (sandbox?.rootKeys ?? []) : googleRootKeysUrl[config.walletEnvironment]),
  });
  const cipher = createDataCipher(loadDataKey(config.dataEncryptionKey, join(config.dataDir, 'secrets', 'data.key')));
  const demo = config.demo ? await ensureDemoMerchant(store, config.dataDir, origin, config.decryptionMode) : undefined;

  // What a request's service calls can take with every retry: reconciliation and idempotency keys wait this long for it.
  const longestRequestMs = config.serviceTimeoutMs * defaultRetryPolicy.maxTries + 5000;
  const app = createApp({
    store,
    service,
    cipher,
    logger,
    ownOrigin: () => origin,
    gatewayName: config.gatewayName,
    walletEnvironment: config.walletEnvironment,
    direct,
    directPublicKeyFor: (a) => (a.decryptionMode === 'direct' ? direct.publicKeyFor(a) : undefined),
    platformSigner: config.platform && createPlatformSigner(config.platform),
    sandbox,
    demo,
    rateLimits: config.rateLimits,
    longestRequestMs,
    appLookup: { ...config.appLookup, dataDir: config.dataDir },
    metrics,
    readiness: { serviceUrl, timeoutMs: config.readinessTimeoutMs },
  });
  http.on('request', app);
  // A request still in flight is given the time its retries can take before it is replayed.
  const reconciler = startReconciler({ store, service, cipher, logger }, { intervalMs: config.reconcileIntervalMs, inFlightGraceMs: longestRequestMs });

  return {
    url: listening,
    store,
    sandbox,
    logger,
    reconcile: () => reconciler.run(),
    async close() {
      // Payments in flight still need the store, the service client and (embedded) the sandbox.
      const drained = await requests.drain(config.shutdownGraceMs);
      if (drained.unfinished > 0) logger.warn({ unfinished: drained.unfinished }, 'requests cut off at the end of the shutdown grace period; reconciliation settles their payments');
      await reconciler.stop();
      await sandbox?.close();
      await store.destroy();
    },
  };
}
