/**
 * Starts the backend: the store, the embedded sandbox service unless a real
 * one is configured, the demo merchant, and the HTTP server. Used by `npm
 * start` and by every test that needs a real server.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createApp } from './app';
import type { Config } from './config';
import { ensureDemoMerchant } from './demo';
import { createDirectMode } from './direct';
import { createLogger, type Logger } from './logging';
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
  close(): Promise<void>;
}

const googleRootKeysUrl = {
  TEST: 'https://payments.developers.google.com/paymentmethodtoken/test/keys.json',
  PRODUCTION: 'https://payments.developers.google.com/paymentmethodtoken/keys.json',
} as const;

export async function startServer(config: Config, logger: Logger = createLogger(config.logLevel)): Promise<RunningServer> {
  const store = await openStore(config.dataDir);
  const sandbox = config.paymentService ? undefined : await createSandboxService({ dataDir: config.dataDir, gatewayName: config.gatewayName });

  const http = createServer();
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(config.port, config.host, resolve);
  });
  const { port } = http.address() as AddressInfo;
  const listening = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  const origin = config.publicUrl ?? listening;

  const service = createServiceClient({
    baseUrl: config.paymentService?.url ?? `${listening}/sandbox/service`,
    secretKey: config.paymentService?.secretKey ?? (sandbox as SandboxService).serviceSecretKey,
    timeoutMs: config.serviceTimeoutMs,
  });
  const direct = createDirectMode({
    dataDir: config.dataDir,
    rootKeys: config.googleRootKeys ?? (config.walletEnvironment === 'SANDBOX' ? (sandbox?.rootKeys ?? []) : googleRootKeysUrl[config.walletEnvironment]),
  });
  const cipher = createDataCipher(loadDataKey(config.dataEncryptionKey, join(config.dataDir, 'secrets', 'data.key')));
  const demo = config.demo ? await ensureDemoMerchant(store, config.dataDir, origin, config.decryptionMode) : undefined;

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
    sandbox,
    demo,
    rateLimits: config.rateLimits,
    appLookup: { ...config.appLookup, dataDir: config.dataDir },
  });
  http.on('request', app);
  // A request still in flight is given the time its retries can take before it is replayed.
  const reconciler = startReconciler(
    { store, service, cipher, logger },
    { intervalMs: config.reconcileIntervalMs, inFlightGraceMs: config.serviceTimeoutMs * defaultRetryPolicy.maxTries + 5000 },
  );

  return {
    url: listening,
    store,
    sandbox,
    logger,
    reconcile: () => reconciler.run(),
    async close() {
      await reconciler.stop();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await sandbox?.close();
      await store.destroy();
    },
  };
}
