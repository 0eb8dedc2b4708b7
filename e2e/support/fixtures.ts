/**
 * The suite's Playwright fixtures. One real backend per worker (starting it
 * costs more than most tests), and per test: a merchant shop page, a view of
 * the sandbox ledger limited to that test's charges, and the sandbox wallet's
 * card list. Specs import `test` and `expect` from here.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Response, test as base } from '@playwright/test';
import type { NewApp } from '../../server/apps';
import type { CreatedSession, WalletAddress, WalletCard, WalletCardsReply } from '../../contracts';
import type { LedgerEntry } from '../../sandbox';
import { contractViolations } from '../../testing/api-contract';
import type { RecordedReply } from '../../testing/contract-recorder';
import { type TestServer, startTestServer } from '../../testing/harness';
import type { CheckoutState } from '../../web/checkout/types';
import { CheckoutPage, checkoutEvents, recordCheckoutEvents } from './checkout-page';
import { escapeHtml } from '../../common/html';

export { expect };

export type SuiteServer = TestServer & {
  /** Where the server's logs go, when the spec asked for them (`captureServerLogs`). */
  logFile: string | undefined;
};

export interface SandboxWallet {
  cards: WalletCard[];
  /** The billing address the sheet selects first (GET /sandbox/wallet/cards lists the others). */
  billingAddress: WalletAddress;
  card(id: string): WalletCard;
}

export interface ShopCheckout {
  checkout: CheckoutPage;
  session: CreatedSession;
  app: { appId: string; merchantId: string; secretKey: string };
}

export interface Shop {
  /**
   * A new merchant application (its own merchant id, this server's origin
   * allowed), a checkout session, and a minimal merchant page that embeds the
   * widget with the one script tag of the README; resolves once the widget
   * shows `state` (default: ready).
   */
  open(options?: { app?: Partial<NewApp>; session?: Record<string, unknown>; state?: CheckoutState }): Promise<ShopCheckout>;
  /** A new checkout session of an application an earlier `open` made, on the same kind of merchant page. */
  openAgain(app: ShopCheckout['app'], options?: { session?: Record<string, unknown>; state?: CheckoutState }): Promise<ShopCheckout>;
  /** The demo store at `/` (or another of its pages, e.g. `/?intent=hold`), as a shopper finds it. */
  openDemo(path?: string): Promise<CheckoutPage>;
}

export interface Ledger {
  /**
   * The sandbox service's charges created since this test started. Tests in a
   * worker run one at a time, so these are exactly this test's charges.
   */
  newEntries(): Promise<LedgerEntry[]>;
}

interface WorkerFixtures {
  /**
   * Option: write the server's info-level logs to a file. A spec that turns it
   * on gets a worker, hence a server, of its own, so its log holds only its own runs.
   */
  captureServerLogs: boolean;
  /** Option: environment variables for the worker's server (a spec that sets them gets a server of its own). */
  serverEnv: Record<string, string>;
  server: SuiteServer;
  sandboxWallet: SandboxWallet;
}

interface TestFixtures {
  shop: Shop;
  ledger: Ledger;
}

/** The routes the OpenAPI document describes that a page calls: the checkout API and the sandbox wallet's. */
const CONTRACT_PATHS = ['/api/sessions', '/sandbox/wallet/'];

/** A reply as the contract check reads it; undefined when its body cannot be had (the page went away first). */
async function recordedReplyOf(response: Response): Promise<RecordedReply | undefined> {
  const contentType = response.headers()['content-type'] ?? null;
  try {
    const body = contentType?.includes('json') ? await response.text() : undefined;
    return { method: response.request().method(), url: response.url(), status: response.status(), contentType, body };
  } catch {
    return undefined;
  }
}

/** The demo store's secret key, which it keeps in a file of its own (demo/server/index.ts), to read its sessions as its server does. */
export const demoSecretKey = (server: TestServer): string => (JSON.parse(readFileSync(join(server.dataDir, 'demo-merchant.json'), 'utf8')) as { secret_key: string }).secret_key;

/** The merchant's whole integration, as docs/embedding.md gives it. */
const merchantPage = (checkoutSrc: string, clientSecret: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test shop</title></head>
<body>
  <div id="pay"></div>
  <script src="${escapeHtml(checkoutSrc)}" data-client-secret="${escapeHtml(clientSecret)}" data-target="#pay" defer></script>
</body></html>`;

export const test = base.extend<TestFixtures, WorkerFixtures>({
  captureServerLogs: [false, { scope: 'worker', option: true }],
  serverEnv: [{}, { scope: 'worker', option: true }],

  server: [
    async ({ captureServerLogs, serverEnv }, use, workerInfo) => {
      let logFile: string | undefined;
      if (captureServerLogs) {
        // In the output dir, so a failing run leaves the log behind to read.
        mkdirSync(workerInfo.project.outputDir, { recursive: true });
        logFile = join(workerInfo.project.outputDir, `server-worker-${workerInfo.workerIndex}.log`);
      }
      const server = await startTestServer({ DEMO: 'on', ...serverEnv }, logFile ? { logFile } : {});
      try {
        await use({ ...server, logFile });
      } finally {
        await server.close();
      }
    },
    { scope: 'worker' },
  ],

  sandboxWallet: [
    async ({ server }, use) => {
      const response = await fetch(`${server.url}/sandbox/wallet/cards`);
      const { cards, billing_addresses } = (await response.json()) as WalletCardsReply;
      const [defaultAddress] = billing_addresses;
      if (!defaultAddress) throw new Error('GET /sandbox/wallet/cards lists no billing address');
      await use({
        cards,
        billingAddress: defaultAddress.address,
        card(id) {
          const card = cards.find((candidate) => candidate.id === id);
          if (!card) throw new Error(`GET /sandbox/wallet/cards lists no card "${id}"`);
          return card;
        },
      });
    },
    { scope: 'worker' },
  ],

  // Every reply the page gets from our API (the widget's calls, the sandbox wallet's) is held against the OpenAPI
  // document once the test is over, as the unit tests' are (testing/api-contract.ts): a status or body the
  // document does not describe fails the test.
  page: async ({ page }, use) => {
    await recordCheckoutEvents(page);
    const replies: Promise<RecordedReply | undefined>[] = [];
    page.on('response', (response) => {
      const { pathname } = new URL(response.url());
      if (!CONTRACT_PATHS.some((prefix) => pathname.startsWith(prefix)) || response.request().method() === 'OPTIONS') return;
      replies.push(recordedReplyOf(response));
    });
    await use(page);
    const recorded = (await Promise.all(replies)).filter((reply) => reply !== undefined);
    if (recorded.length === 0) return;
    const violations = await contractViolations(recorded);
    expect(violations, 'replies the OpenAPI document does not describe').toEqual([]);
  },

  shop: async ({ page, server }, use) => {
    const openAgain: Shop['openAgain'] = async (app, options = {}) => {
      const session = await server.createSession(app.secretKey, options.session);
      // Served from the backend's origin (by interception, nothing is added to the
      // server) so the page is a real http origin the app allows.
      const shopUrl = `${server.url}/test-shop/${session.id}`;
      await page.route(shopUrl, (route) => route.fulfill({ contentType: 'text/html', body: merchantPage(`${server.url}/checkout.js`, session.client_secret) }));
      await page.goto(shopUrl);
      const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey: app.secretKey });
      await checkout.expectState(options.state ?? 'ready');
      return { checkout, session, app };
    };
    await use({
      async open(options = {}) {
        // A merchant id of its own keeps this test's app and charges apart from every other test's.
        const merchantId = `m_${randomUUID().slice(0, 8)}`;
        const { appId, secretKey } = await server.merchant({ merchant_id: merchantId, allowed_origins: [server.url], ...options.app });
        return openAgain({ appId, merchantId, secretKey }, options);
      },

      openAgain,

      async openDemo(path = '/') {
        await page.goto(`${server.url}${path}`);
        // The demo's server created the session: the widget's ready event names it.
        await expect.poll(async () => (await checkoutEvents(page, 'checkout:ready')).length).toBe(1);
        const [ready] = await checkoutEvents(page, 'checkout:ready');
        const checkout = new CheckoutPage(page, server, { sessionId: ready?.sessionId ?? '', secretKey: demoSecretKey(server) });
        await checkout.expectState('ready');
        return checkout;
      },
    });
  },

  ledger: async ({ server }, use) => {
    const sandbox = server.sandbox;
    if (!sandbox) throw new Error('the test server runs without the embedded sandbox service');
    const before = (await sandbox.ledger()).length;
    await use({ newEntries: async () => (await sandbox.ledger()).slice(before) });
  },
});
