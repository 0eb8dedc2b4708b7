/**
 * The sandbox as a service of its own, in the browser: a backend with
 * SANDBOX_URL embeds no sandbox, and the demo store's widget loads the
 * sandbox wallet from the sandbox's origin, pays a PAN_ONLY card and one that
 * needs a 3-D Secure challenge (framed from the sandbox's origin).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { startTestServer, type TestServer } from '../testing/harness';
import { type StandaloneSandbox, startStandaloneSandbox } from '../testing/sandbox';
import { CheckoutPage, checkoutEvents, recordCheckoutEvents } from './support/checkout-page';

let sandbox: StandaloneSandbox;
let backend: TestServer;

test.beforeAll(async () => {
  sandbox = await startStandaloneSandbox();
  backend = await startTestServer({ DEMO: 'on', SANDBOX_URL: sandbox.url, SANDBOX_SERVICE_KEY: sandbox.serviceSecretKey });
});
test.afterAll(async () => {
  await backend?.close();
  await sandbox?.close();
});

async function openDemo(page: Page): Promise<CheckoutPage> {
  await recordCheckoutEvents(page);
  const walletScripts: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/sandbox/wallet.js')) walletScripts.push(request.url());
  });
  await page.goto(`${backend.url}/`);
  await expect.poll(async () => (await checkoutEvents(page, 'checkout:ready')).length).toBe(1);
  const [ready] = await checkoutEvents(page, 'checkout:ready');
  const { secret_key } = JSON.parse(readFileSync(join(backend.dataDir, 'demo-merchant.json'), 'utf8')) as { secret_key: string };
  const checkout = new CheckoutPage(page, backend, { sessionId: ready?.sessionId ?? '', secretKey: secret_key });
  await checkout.expectState('ready');
  expect(walletScripts).toEqual([`${sandbox.url}/sandbox/wallet.js`]);
  return checkout;
}

const chargesOf = async (sessionId: string) => (await sandbox.ledger()).filter((entry) => entry.idempotency_key?.startsWith(`${sessionId}:`)).map((entry) => entry.charge.status);

test('a PAN_ONLY card pays through the standalone sandbox', async ({ page }) => {
  const checkout = await openDemo(page);
  await checkout.payWith('visa-success-pan');
  await checkout.expectState('paid');
  const session = await checkout.merchantView();
  expect(session.status).toBe('succeeded');
  expect(await chargesOf(session.id)).toEqual(['succeeded']);
});

test("a 3-D Secure challenge is framed from the sandbox's origin, then the payment goes through", async ({ page }) => {
  const checkout = await openDemo(page);
  await checkout.payWith('visa-3ds-required-pan');
  await checkout.expectState('authenticating');
  const challenge = checkout.challenge();
  await expect(challenge.frame.getByText(/Sandbox 3-D Secure/)).toBeVisible();
  await challenge.frame.getByRole('button', { name: 'Complete authentication' }).press('Enter');
  await checkout.expectState('paid');
  const session = await checkout.merchantView();
  expect(await chargesOf(session.id)).toEqual(['failed', 'succeeded']);
});
