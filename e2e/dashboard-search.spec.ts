/**
 * "Find any payment" in a real browser: a payment paid and then partly
 * refunded from its page is found by its card's last four in the one search
 * box, shows "Partially refunded" in the list and in its page's heading, the
 * filters stay in the address (a reload keeps them), and the list's CSV
 * export downloads the same payment. A new app's empty list says how to make
 * a first test payment.
 */
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import type { CreatedSession } from '../contracts';
import { startTestServer, type TestServer } from '../testing/harness';
import { signInToDashboard } from './support/dashboard';

let server: TestServer;

test.use({ viewport: { width: 1280, height: 900 }, locale: 'en-US', timezoneId: 'UTC' });

test.beforeAll(async () => {
  server = await startTestServer();
});
test.afterAll(async () => {
  await server?.close();
});

/** A new app of its own, and its key. */
const merchant = async (): Promise<string> => (await server.merchant({ name: 'Tea House', merchant_id: `m_${Math.random().toString(36).slice(2, 10)}` })).secretKey;

async function paid(secretKey: string, body: Record<string, unknown>, card: string): Promise<CreatedSession> {
  const session = await server.createSession(secretKey, body);
  expect((await server.pay(session, { payment_data: await server.walletPaymentData(session, card) })).status).toBe(200);
  return session;
}

async function signIn(page: Page, secretKey: string): Promise<void> {
  await signInToDashboard(page, server.url, secretKey);
  // The merchant lands on the overview; the list is the next link.
  await page.getByRole('navigation').getByRole('link', { name: 'Payments' }).click();
}

test("a new app's empty list says there is no payment yet and how to make a first test payment", async ({ page }) => {
  await signIn(page, await merchant());
  await expect(page.getByTestId('no-payments')).toContainText('No payment yet.');
  await expect(page.getByTestId('no-payments')).toContainText('sandbox test card');
  await page.getByLabel('Search').fill('anything');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('No payment matches.')).toBeVisible();
});

test('pays, refunds part from the dashboard, finds the payment by its last four, and exports it as CSV', async ({ page }) => {
  const secretKey = await merchant();
  const tea = await paid(secretKey, { amount: 4850, reference: 'order-7001', description: 'Green tea, 1 kg' }, 'mastercard-success-pan');
  await paid(secretKey, { amount: 1200, reference: 'order-7002' }, 'visa-success-pan');
  await server.createSession(secretKey, { reference: 'order-7003-abandoned' });
  await signIn(page, secretKey);
  // The abandoned checkout is left out until asked for.
  await expect(page.locator('tbody tr')).toHaveCount(2);

  // Refund part of it from its page.
  await page.locator(`tr[data-payment="${tea.id}"] a`).click();
  await page.getByLabel('Amount to refund').fill('10.00');
  await page.getByRole('button', { name: 'Refund' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('refunded')).toHaveText('$10.00');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Partially refunded');

  // Find it by its card's last four, in one search.
  await page.getByRole('navigation').getByRole('link', { name: 'Payments' }).click();
  await page.getByLabel('Search').fill('4444');
  await page.getByRole('button', { name: 'Apply' }).click();
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('order-7001');
  await expect(rows.first()).toContainText('Mastercard •••• 4444');
  await expect(rows.first()).toContainText('Partially refunded');
  await expect(page).toHaveURL(/#\/payments\?q=4444$/);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  // The filters are in the address: a reload shows the same list.
  await page.reload();
  await expect(page.getByLabel('Search')).toHaveValue('4444');
  await expect(page.locator('tbody tr')).toHaveCount(1);

  // Export the list as it is filtered, and read the file.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^payments-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = readFileSync((await download.path())!, 'utf8').split('\r\n');
  expect(lines[0]).toBe('id,created,reference,description,amount,currency,amount_refunded,payment_status,status,card_network,card_last4,decline_code,intent');
  expect(lines.slice(1)).toEqual([expect.stringMatching(new RegExp(`^${tea.id},\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z,order-7001,"Green tea, 1 kg",48\\.50,USD,10\\.00,partially_refunded,succeeded,MASTERCARD,4444,,charge$`)), '']);
});

test('opens the list filtered from a link, as another page links to it', async ({ page }) => {
  const secretKey = await merchant();
  await paid(secretKey, { amount: 900, reference: 'order-8001' }, 'visa-success-pan');
  await server.createSession(secretKey, { reference: 'order-8002-abandoned' });
  await signIn(page, secretKey);
  await page.goto(`${server.url}/dashboard#/payments?status=open&abandoned=1`);
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await expect(page.locator('tbody tr').first()).toContainText('order-8002-abandoned');
  await expect(page.getByLabel('Status')).toHaveValue('open');
  await expect(page.getByLabel('Show abandoned checkouts (no payment tried)')).toBeChecked();
});
