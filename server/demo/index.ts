/**
 * The demo store: a small merchant site served at `/`. Its "server side" does
 * what any merchant's server does, over HTTP with its secret key: create a
 * checkout session, embed the widget with a script tag, and confirm the
 * outcome itself instead of trusting the browser.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { z } from 'zod';
import { createApp, type DecryptionMode, getApp, reconfigureApp, walletEnvironmentOf } from '../apps';
import type { DirectKeys } from '../direct';
import type { Logger } from '../logging';
import { CreatedSession, Session, type WalletEnvironment } from '../contracts';
import { sendFailure } from '../http/errors';
import type { Store } from '../store';
import { escapeHtml } from '../lib/html';

export interface DemoMerchant {
  apiBase: string;
  secretKey: string;
}

const template = readFileSync(fileURLToPath(new URL('../../web/demo/store.html', import.meta.url)), 'utf8');

/** What the demo needs to give its application a key in direct mode. */
export interface DemoDirectMode {
  keys: DirectKeys;
  walletEnvironment: WalletEnvironment;
  logger: Logger;
}

const DemoCredentials = z.object({ app_id: z.string(), secret_key: z.string() });

/**
 * The demo application, created on first start. Its secret key is the demo
 * merchant's own to keep, so it lives in a file of its own, not in our store.
 */
export async function ensureDemoMerchant(
  store: Store,
  dataDir: string,
  origin: string,
  decryptionMode: DecryptionMode,
  direct: DemoDirectMode,
): Promise<DemoMerchant> {
  const file = join(dataDir, 'demo-merchant.json');
  let credentials = (() => {
    try {
      return DemoCredentials.parse(JSON.parse(readFileSync(file, 'utf8')));
    } catch {
      return undefined;
    }
  })();
  if (!credentials || !(await getApp(store, credentials.app_id))) {
    const created = await createApp(store, { name: 'Demo Coffee Roasters', merchant_id: 'demo', allowed_origins: [origin] });
    if (!created.ok) throw new Error(created.error.message);
    credentials = { app_id: created.value.app.id, secret_key: created.value.secretKey };
    writeFileSync(file, JSON.stringify(credentials, null, 2), { mode: 0o600 });
  }
  // The origin follows the port the server listens on this time, the mode follows DECRYPTION_MODE.
  await reconfigureApp(store, credentials.app_id, { allowedOrigins: [origin], decryptionMode });
  if (decryptionMode === 'direct') await ensureDemoDirectKey(store, credentials.app_id, direct);
  return { apiBase: origin, secretKey: credentials.secret_key };
}

/**
 * Direct mode needs a registered recipient key, which the server never makes
 * on its own. For the demo paying through the sandbox wallet (no Google
 * console to register with) the demo set-up provisions and registers one,
 * and says so; with Google's wallet the operator does it (docs/direct-mode.md).
 */
async function ensureDemoDirectKey(store: Store, appId: string, direct: DemoDirectMode): Promise<void> {
  const app = await getApp(store, appId);
  if (!app || (await direct.keys.publicKeyFor(app)).ok) return;
  if (walletEnvironmentOf(app, direct.walletEnvironment) !== 'SANDBOX') {
    direct.logger.warn({ app_id: appId }, `demo: the demo application has no registered direct-mode key; run npm run direct-keys -- create --app ${appId}, register its public key with Google, then npm run direct-keys -- register --app ${appId} --key KEY_ID`);
    return;
  }
  const key = await direct.keys.create(appId);
  await direct.keys.register(appId, key.id);
  direct.logger.info({ app_id: appId, key_id: key.id }, 'demo: provisioned and registered a direct-mode key for the sandbox wallet (a real application registers its key with Google: npm run direct-keys)');
}

const DemoOrder = z.object({
  currency: z.enum(['USD', 'EUR', 'JPY', 'KWD']).default('USD'),
  amount: z.coerce.number().int().positive().max(1_000_000).default(2400),
  /** `hold`: "Reserve (hold)", captured later from the page's back-office panel. */
  intent: z.enum(['charge', 'hold']).default('charge'),
});

/** What the store's page is told about an order: enough to show it, nothing of the card but its summary. */
const orderOf = (session: Session) => ({
  id: session.id,
  status: session.status,
  amount: session.amount,
  currency: session.currency,
  amount_captured: session.amount_captured,
  card: session.outcome?.card ?? null,
});

export function demoRoutes(merchant: DemoMerchant): express.Router {
  const router = express.Router();
  const call = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    fetch(`${merchant.apiBase}${path}`, { ...init, headers: { authorization: `Bearer ${merchant.secretKey}`, 'content-type': 'application/json', ...init.headers } });

  router.get('/', async (req, res) => {
    const order = DemoOrder.safeParse(req.query);
    if (!order.success) return sendFailure(res, { code: 'invalid_request', message: 'amount and currency: see the demo store' });
    const reply = await call('/api/sessions', {
      method: 'POST',
      body: JSON.stringify({ amount: order.data.amount, currency: order.data.currency, country_code: 'US', description: 'Pour-over coffee kit', reference: `demo-${Date.now()}`, intent: order.data.intent }),
    });
    const session = CreatedSession.parse(await reply.json());
    res.type('html').send(
      template.replaceAll('{{CLIENT_SECRET}}', escapeHtml(session.client_secret)).replaceAll('{{SESSION_ID}}', escapeHtml(session.id)).replaceAll('{{CHECKOUT_SRC}}', `${merchant.apiBase}/checkout.js`).replaceAll('{{NONCE}}', String(res.locals.cspNonce)).replaceAll('{{INTENT}}', order.data.intent),
    );
  });

  /** The merchant's server confirming an order: the browser is never trusted for the outcome. */
  router.get('/demo/orders/:id', async (req, res) => {
    const reply = await call(`/api/sessions/${encodeURIComponent(req.params.id)}`);
    if (!reply.ok) return sendFailure(res, { code: 'not_found', message: 'No such order' });
    res.json(orderOf(Session.parse(await reply.json())));
  });

  /**
   * The store's back office capturing a hold, over HTTP with its secret key as
   * any merchant's server would. One Idempotency-Key per order, so a
   * double-click or a retry captures once.
   */
  router.post('/demo/orders/:id/capture', async (req, res) => {
    const id = encodeURIComponent(req.params.id);
    const reply = await call(`/api/sessions/${id}/capture`, { method: 'POST', body: '{}', headers: { 'idempotency-key': `demo-capture-${id}` } });
    if (!reply.ok) return res.status(reply.status).json(await reply.json());
    res.json(orderOf(Session.parse(await reply.json())));
  });

  return router;
}
