/**
 * A real backend for tests: its own temporary data directory, a free port on
 * 127.0.0.1, the embedded sandbox service, and helpers that act as a
 * merchant's server and as the sandbox wallet would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { type NewApp, createApp } from '../server/apps';
import { loadConfig, type OriginVerificationConfig, type WebhookAddressPolicy } from '../server/config';
import { createLogger } from '../common/logging';
import type { CreatedSession, PaymentData, PublicSession } from '../contracts';
import { mintPaymentData, sandboxWalletUrl } from './sandbox';
import { type RunningServer, startServer } from '../server/server';
import { coverByContract } from './contract-recorder';
import { registeredDirectKey } from './direct-keys';

export interface TestServer extends RunningServer {
  dataDir: string;
  /** A merchant application and its secret key; a direct-mode one with a registered key (testing/direct-keys.ts). */
  merchant(overrides?: Partial<NewApp>): Promise<{ appId: string; secretKey: string }>;
  createSession(secretKey: string, body?: Record<string, unknown>): Promise<CreatedSession>;
  publicSession(session: CreatedSession): Promise<PublicSession>;
  /**
   * What the sandbox wallet returns for a test card (and one of its billing addresses, the first by default): a PaymentData with a real ECv2 token;
   * with the shipping address and the delivery option picked in the sheet when the session asks for them, and the promotion codes applied there.
   */
  walletPaymentData(session: CreatedSession, cardId: string, billingAddressId?: string, shippingAddressId?: string, shippingOptionId?: string, redemptionCodes?: string[]): Promise<PaymentData>;
  pay(session: CreatedSession, body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** POST /api/sessions/{id}/authenticate as the widget does once a 3-D Secure challenge is over. */
  authenticate(session: CreatedSession, body?: { cancel?: true }): Promise<Response>;
  /** A merchant's server calling the API with its secret key, e.g. `/api/sessions/{id}/capture`. */
  merchantPost(secretKey: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
}

export interface TestServerOptions {
  /**
   * Write the server's logs to this file (at LOG_LEVEL, default info), redacted
   * as in production, so a test can check what an operator would see. Written
   * synchronously: the file is complete as soon as a request is answered.
   */
  logFile?: string;
  /** `public` is what NODE_ENV=production sets (which a test server cannot otherwise start with): SSRF rules on. */
  webhookAddressPolicy?: WebhookAddressPolicy;
  /**
   * Platform mode's origin verification, changed: `loopbackWithoutFetch: false` fetches a loopback
   * origin's file as production fetches any origin's; `addressPolicy: 'public'` is production's rule.
   */
  originVerification?: Partial<OriginVerificationConfig>;
}

export async function startTestServer(env: Record<string, string> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  // A caller that passes DATA_DIR keeps it (to restart on the same data); otherwise it is ours to delete.
  const ownsDataDir = !env.DATA_DIR;
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'wallet-checkout-'));
    // Tests hammer one server from one address: rate limits are tested on their own, with low limits.
  const loaded = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DEMO: 'off',
    LOG_LEVEL: options.logFile ? 'info' : 'silent',
    RATE_LIMIT_PAY_PER_MINUTE: '1000000',
    RATE_LIMIT_READS_PER_MINUTE: '1000000',
    RATE_LIMIT_MERCHANT_PER_MINUTE: '1000000',
    ...env,
    DATA_DIR: dataDir,
  });
  if (!loaded.ok) throw new Error(loaded.problems.join('; '));
  const logger = options.logFile ? createLogger(loaded.config.logLevel, pino.destination({ dest: options.logFile, sync: true })) : undefined;
  if (options.webhookAddressPolicy) loaded.config.webhooks.addressPolicy = options.webhookAddressPolicy;
  Object.assign(loaded.config.originVerification, options.originVerification);
  const server = await startServer(loaded.config, logger);
  coverByContract(server.url);
  const json = async <T>(response: Response): Promise<T> => {
    if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  };

  const publicSession = async (session: CreatedSession) =>
    json<PublicSession>(await fetch(`${server.url}/api/sessions/${session.id}/public`, { headers: { authorization: `Bearer ${session.client_secret}` } }));

  return {
    ...server,
    publicSession,
    dataDir,
    async close() {
      await server.close();
      if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
    async merchant(overrides = {}) {
      const created = await createApp(server.store, { name: 'Test Shop', merchant_id: 'm_test', allowed_origins: ['https://shop.example'], ...overrides });
      if (!created.ok) throw new Error(created.error.message);
      if (created.value.app.decryptionMode === 'direct') await registeredDirectKey(server.directKeys, created.value.app.id);
      return { appId: created.value.app.id, secretKey: created.value.secretKey };
    },
    async createSession(secretKey, body = {}) {
      const response = await fetch(`${server.url}/api/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 2400, currency: 'USD', country_code: 'US', ...body }),
      });
      return json<CreatedSession>(response);
    },
    async walletPaymentData(session, cardId, billingAddressId, shippingAddressId, shippingOptionId, redemptionCodes) {
      const { payment_data_request, wallet } = await publicSession(session);
      return mintPaymentData(sandboxWalletUrl(wallet), cardId, payment_data_request, billingAddressId, shippingAddressId, shippingOptionId, redemptionCodes);
    },
    pay(session, body, headers = {}) {
      return fetch(`${server.url}/api/sessions/${session.id}/pay`, {
        method: 'POST',
        headers: { authorization: `Bearer ${session.client_secret}`, 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    },
    authenticate(session, body = {}) {
      return fetch(`${server.url}/api/sessions/${session.id}/authenticate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${session.client_secret}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    },
    merchantPost(secretKey, path, body = {}, headers = {}) {
      return fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    },
  };
}
