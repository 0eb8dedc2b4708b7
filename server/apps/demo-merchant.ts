/**
 * The demo store's application, provisioned by the backend at start as an
 * operator provisions any merchant's (`npm run app:create`): created on the
 * first start, then kept in step with this start's origin and DECRYPTION_MODE.
 * The demo store (demo/server) is then a merchant's site like any other: it
 * is handed its credentials and reaches the API over HTTP only.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { DecryptionMode, WalletEnvironment } from '../../contracts';
import type { Logger } from '../../common/logging';
import type { WebhookAddressPolicy } from '../config';
import type { DirectKeys } from '../direct-mode';
import type { DataCipher } from '../lib/data-cipher';
import type { Store } from '../store';
import { deleteEndpoint, liveEndpoints } from '../store/webhooks';
import { createEndpoint } from '../webhooks/endpoints';
import { createApp, getApp, reconfigureApp, walletEnvironmentOf } from './registry';

/** What the demo store's server keeps, as any merchant's does: its secret key and its webhook endpoint's signing secret. */
export interface DemoCredentials {
  secretKey: string;
  webhookSecret: string;
}

export interface DemoProvisioning {
  store: Store;
  dataDir: string;
  /** The demo store's origin, the one application origin it has. */
  origin: string;
  /** Where the demo store receives its webhooks. */
  webhookUrl: string;
  decryptionMode: DecryptionMode;
  /** What a webhook endpoint is made with. */
  webhooks: { cipher: DataCipher; addressPolicy: WebhookAddressPolicy };
  /** What the demo needs to give its application a key in direct mode. */
  direct: { keys: DirectKeys; walletEnvironment: WalletEnvironment };
  logger: Logger;
}

/** The demo's Google merchant id: the sandbox wallet's stand-in, in the 20-digit form of the ids in Google's TEST examples. */
const DEMO_GOOGLE_MERCHANT_ID = '12345678901234567890';

const StoredCredentials = z.object({
  app_id: z.string(),
  secret_key: z.string(),
  /** The demo's endpoint and its signing secret, shown once at creation and kept here like the secret key. */
  webhook: z.object({ endpoint_id: z.string(), url: z.string(), secret: z.string() }).optional(),
});
type StoredCredentials = z.infer<typeof StoredCredentials>;

/**
 * The demo application, created on first start. Its secret key is the demo
 * merchant's own to keep, so it lives in a file of its own, not in our store.
 */
export async function provisionDemoMerchant(p: DemoProvisioning): Promise<DemoCredentials> {
  const file = join(p.dataDir, 'demo-merchant.json');
  let credentials = (() => {
    try {
      return StoredCredentials.parse(JSON.parse(readFileSync(file, 'utf8')));
    } catch {
      return undefined;
    }
  })();
  if (!credentials || !(await getApp(p.store, credentials.app_id))) {
    const created = await createApp(p.store, { name: 'Demo Coffee Roasters', merchant_id: 'demo', google_merchant_id: DEMO_GOOGLE_MERCHANT_ID, allowed_origins: [p.origin] });
    if (!created.ok) throw new Error(created.error.message);
    credentials = { app_id: created.value.app.id, secret_key: created.value.secretKey };
    writeFileSync(file, JSON.stringify(credentials, null, 2), { mode: 0o600 });
  }
  // The origin follows the port the server listens on this time, the mode follows DECRYPTION_MODE.
  await reconfigureApp(p.store, credentials.app_id, { allowedOrigins: [p.origin], decryptionMode: p.decryptionMode, googleMerchantId: DEMO_GOOGLE_MERCHANT_ID });
  if (p.decryptionMode === 'direct') await ensureDemoDirectKey(p, credentials.app_id);
  credentials.webhook = await ensureDemoWebhook(p, credentials);
  writeFileSync(file, JSON.stringify(credentials, null, 2), { mode: 0o600 });
  return { secretKey: credentials.secret_key, webhookSecret: credentials.webhook.secret };
}

/**
 * The demo's webhook endpoint on its own route, registered once: kept while
 * it is live at this origin (the port can change between starts), else made
 * anew. A merchant's own endpoints on the demo application are left alone.
 */
async function ensureDemoWebhook(p: DemoProvisioning, credentials: StoredCredentials): Promise<NonNullable<StoredCredentials['webhook']>> {
  const live = await liveEndpoints(p.store, credentials.app_id);
  const kept = credentials.webhook;
  if (kept && kept.url === p.webhookUrl && live.some((endpoint) => endpoint.id === kept.endpoint_id)) return kept;
  const app = await getApp(p.store, credentials.app_id);
  if (!app) throw new Error('the demo application is gone');
  // A demo endpoint left from a start on another port would only meet a refused connection: it goes.
  const demoPath = new URL(p.webhookUrl).pathname;
  for (const stale of live.filter((endpoint) => new URL(endpoint.url).pathname === demoPath)) await deleteEndpoint(p.store, app.id, stale.id, Date.now());
  const created = await createEndpoint({ store: p.store, ...p.webhooks }, app, { url: p.webhookUrl });
  if (!created.ok) throw new Error(`the demo's webhook endpoint: ${created.error.message}`);
  return { endpoint_id: created.value.id, url: p.webhookUrl, secret: created.value.secret };
}

/**
 * Direct mode needs a registered recipient key, which the server never makes
 * on its own. For the demo paying through the sandbox wallet (no Google
 * console to register with) the demo set-up provisions and registers one,
 * and says so; with Google's wallet the operator does it (docs/direct-mode.md).
 */
async function ensureDemoDirectKey(p: DemoProvisioning, appId: string): Promise<void> {
  const { keys, walletEnvironment } = p.direct;
  const app = await getApp(p.store, appId);
  if (!app || (await keys.publicKeyFor(app)).ok) return;
  if (walletEnvironmentOf(app, walletEnvironment) !== 'SANDBOX') {
    p.logger.warn({ app_id: appId }, `demo: the demo application has no registered direct-mode key; run npm run direct-keys -- create --app ${appId}, register its public key with Google, then npm run direct-keys -- register --app ${appId} --key KEY_ID`);
    return;
  }
  const key = await keys.create(appId);
  await keys.register(appId, key.id);
  p.logger.info({ app_id: appId, key_id: key.id }, 'demo: provisioned and registered a direct-mode key for the sandbox wallet (a real application registers its key with Google: npm run direct-keys)');
}
