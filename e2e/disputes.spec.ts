/**
 * Disputes in a real browser (docs/disputes.md): a shopper pays in the widget with the dispute test card, and its
 * cardholder's bank disputes the payment; reconciliation brings the dispute in; the merchant finds it on the Disputes page, submits its evidence on its
 * page (the payment's address checks attached), and sees it won; the three signed webhooks reach the merchant's
 * receiver. Another dispute, opened on demand, is lost. Both pages axe-clean.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { CreatedSession } from '../contracts';
import type { TestServer } from '../testing/harness';
import { FAST_WEBHOOKS, startWebhookReceiver, type WebhookReceiver } from '../testing/webhook-receiver';
import { expect, test } from './support/fixtures';
import { signInToDashboard } from './support/dashboard';

let receiver: WebhookReceiver;

// Reconciliation, which brings the service's disputes in, is driven by the test.
test.use({ serverEnv: { ...FAST_WEBHOOKS, RECONCILE_INTERVAL_MS: '3600000' }, viewport: { width: 1280, height: 900 }, colorScheme: 'light', locale: 'en-US', timezoneId: 'UTC' });

test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
test.afterAll(async () => {
  await receiver?.close();
});

/** Registers the merchant's receiver for the disputes' events. */
async function listenToDisputes(server: TestServer, secretKey: string): Promise<void> {
  const endpoint = await server.merchantPost(secretKey, '/api/webhook_endpoints', { url: receiver.url, events: ['dispute.created', 'dispute.updated', 'dispute.closed'] });
  receiver.secrets = [...receiver.secrets, ((await endpoint.json()) as { secret: string }).secret];
}

async function paid(server: TestServer, secretKey: string, card: string): Promise<CreatedSession> {
  const session = await server.createSession(secretKey, { amount: 2400, reference: 'order-3001' });
  const reply = await server.pay(session, { payment_data: await server.walletPaymentData(session, card) });
  expect(reply.status).toBe(200);
  return session;
}

const axeClean = async (page: Page) => expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

test('a payment in the widget with the dispute card is disputed, answered with evidence in the dashboard, and won; its webhooks delivered signed', async ({ page, server, shop }) => {
  const { checkout, session, app } = await shop.open({ session: { amount: 2400, reference: 'order-3001' } });
  const { secretKey } = app;
  await listenToDisputes(server, secretKey);
  expect((await checkout.payWith('visa-dispute-fraudulent-3ds')).payStatus).toBe(200);
  await checkout.expectState('paid');
  await server.reconcile();

  await signInToDashboard(page, server.url, secretKey);
  await page.getByRole('link', { name: 'Disputes' }).click();
  await expect(page.getByRole('heading', { name: 'Disputes' })).toBeVisible();
  const row = page.locator('tr[data-dispute]');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('dispute-status')).toHaveText('Needs response');
  await expect(row).toContainText('$24.00');
  await expect(row).toContainText('Fraudulent');
  await expect(row.getByRole('link', { name: session.id })).toHaveAttribute('href', `#/payments/${session.id}`);
  await axeClean(page);

  await row.getByRole('link', { name: /^dp_/ }).click();
  await expect(page.getByRole('heading', { name: /Dispute of \$24\.00/ })).toBeVisible();
  await expect(page.getByTestId('dispute-reason')).toHaveText('Fraudulent');
  // The sandbox wallet's address is the one the card's issuer has on record: both fields match, and are attached.
  const attached = page.getByTestId('dispute-attached');
  await expect(attached).toContainText('Match');
  // A payment without a shipping address asks for no shipping proof.
  await expect(page.getByLabel('Tracking number')).toHaveCount(0);
  await axeClean(page);

  await page.getByLabel('Explanation').fill('The cardholder ordered and received the beans. winning_evidence');
  await page.getByRole('button', { name: 'Submit evidence' }).click();
  await expect(page.getByRole('dialog')).toContainText('only once');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('dispute-status')).toHaveText('Under review');
  await expect(page.getByTestId('dispute-evidence')).toContainText('The cardholder ordered and received the beans.');
  await expect(page.getByRole('button', { name: 'Submit evidence' })).toHaveCount(0);

  // The issuer decides; the next reconciliation pass brings the decision in.
  await server.reconcile();
  await page.reload();
  await expect(page.getByTestId('dispute-status')).toHaveText('Won');

  const events = await receiver.waitFor((got) => got.filter((event) => event.data.object.object === 'dispute' && event.data.object.session_id === session.id).length >= 3);
  const ofThis = events.filter((event) => event.data.object.object === 'dispute' && event.data.object.session_id === session.id);
  expect(ofThis.map((event) => event.type).sort()).toEqual(['dispute.closed', 'dispute.created', 'dispute.updated']);
  expect(ofThis.find((event) => event.type === 'dispute.closed')?.data.object).toMatchObject({ status: 'won' });
  expect(receiver.forged).toBe(0);
});

test('a dispute opened on demand and answered with losing evidence is lost', async ({ page, server }) => {
  const merchantId = `m_${Math.random().toString(36).slice(2, 10)}`;
  const { secretKey } = await server.merchant({ name: 'Coffee Roasters', merchant_id: merchantId });
  const session = await paid(server, secretKey, 'visa-success-pan');
  const attempt = await server.store.selectFrom('charge_attempts').select('charge_id').where('session_id', '=', session.id).executeTakeFirstOrThrow();
  const opened = await fetch(`${server.url}/sandbox/service/test_helpers/disputes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.sandbox!.serviceSecretKey}`, 'merchant-account': merchantId, 'content-type': 'application/json' },
    body: JSON.stringify({ charge: attempt.charge_id, reason: 'product_not_received', amount: 1000 }),
  });
  expect(opened.status).toBe(201);
  await server.reconcile();

  await signInToDashboard(page, server.url, secretKey);
  await page.goto(`${server.url}/dashboard#/disputes`);
  await page.locator('tr[data-dispute]').getByRole('link', { name: /^dp_/ }).click();
  await expect(page.getByRole('heading', { name: /Dispute of \$10\.00/ })).toBeVisible();
  await expect(page.getByTestId('dispute-reason')).toHaveText('Product not received');
  await page.getByLabel('Explanation').fill('We could not find the parcel. losing_evidence');
  await page.getByRole('button', { name: 'Submit evidence' }).click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('dispute-status')).toHaveText('Under review');
  await server.reconcile();
  await page.goto(`${server.url}/dashboard#/disputes`);
  await expect(page.locator('tr[data-dispute]').getByTestId('dispute-status')).toHaveText('Lost');
});
