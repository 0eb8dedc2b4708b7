/**
 * What a merchant's QA suite looks like with the kit: only `./index` (the kit)
 * and the shop's URL are needed. Here the "shop" and the "checkout host" are
 * started by beforeAll, standing in for your staging environment; in your suite
 * they are URLs you already have.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type TestServer, startTestServer } from '../../server/testing/harness';
import { expect, test } from './index';

let checkout: TestServer;
let shop: ReturnType<typeof createServer>;
let shopUrl: string;
let secretKey = '';

test.beforeAll(async () => {
  checkout = await startTestServer();
  shop = createServer(async (_req, res) => {
    // Your shop's server: a session per page view, created with your secret key (docs/embedding.md, step 1).
    const session = await checkout.createSession(secretKey, { amount: 1250, currency: 'EUR', country_code: 'FR' });
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html lang="en"><title>Shop</title><div id="pay"></div>
      <script src="${checkout.url}/checkout.js" data-client-secret="${session.client_secret}" data-target="#pay" defer></script>`);
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
  // An app in Google's TEST environment: its button asks for pay.js, which the kit serves from the sandbox.
  ({ secretKey } = await checkout.merchant({ merchant_id: 'qa_kit_example', allowed_origins: [shopUrl], environment: 'TEST' }));
});

test.afterAll(async () => {
  shop.closeAllConnections();
  await new Promise((resolve) => shop.close(resolve));
  await checkout.close();
});

test.beforeEach(async ({ page, walletCheckout }) => {
  await walletCheckout.install(page, { checkoutOrigin: checkout.url });
});

test('a shopper pays with a test card', async ({ page, walletCheckout }) => {
  await page.goto(shopUrl);
  await walletCheckout.pay(page, { card: 'visa-success-3ds' });
  await walletCheckout.expectOutcome(page, 'paid');
  await expect(page.locator('[data-testid=card]')).toContainText('Visa');
});

test('a declined card is told in the wallet, where another card pays', async ({ page, walletCheckout }) => {
  await page.goto(shopUrl);
  await walletCheckout.pay(page, { card: 'visa-insufficient-funds-3ds' });
  await walletCheckout.expectOutcome(page, 'declined');
  await walletCheckout.payAgain(page, { card: 'mastercard-success-pan' });
  await walletCheckout.expectOutcome(page, 'paid');
});

test('closing the wallet leaves the button ready', async ({ page, walletCheckout }) => {
  await page.goto(shopUrl);
  await walletCheckout.cancel(page);
  await walletCheckout.expectOutcome(page, 'ready');
});
