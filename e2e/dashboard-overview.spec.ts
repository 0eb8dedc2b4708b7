/**
 * The dashboard's Overview in a real browser (Chromium), in a merchant's time zone that is not the
 * server's: the page a merchant lands on after sign-in, figures that match the payments made just before
 * (paid, refunded in part, declined, left open), a shorter period, and a figure followed to the payments
 * list filtered as it says. axe-clean.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { startTestServer, type TestServer } from '../testing/harness';

let server: TestServer;

test.use({ viewport: { width: 1280, height: 900 }, locale: 'en-US', timezoneId: 'America/New_York' });

test.beforeAll(async () => {
  server = await startTestServer();
});
test.afterAll(async () => {
  await server?.close();
});

test('lands on the overview, whose figures match the payments made, each a link to the list they are summed from', async ({ page }) => {
  const { secretKey } = await server.merchant({ name: 'Overview Outfitters', merchant_id: `m_${Math.random().toString(36).slice(2, 10)}` });
  const pay = async (amount: number, card: string) => {
    const session = await server.createSession(secretKey, { amount, currency: 'USD' });
    await server.pay(session, { payment_data: await server.walletPaymentData(session, card) });
    return session;
  };
  await pay(2500, 'visa-success-pan');
  const refunded = await pay(1500, 'visa-success-pan');
  expect((await server.merchantPost(secretKey, `/api/sessions/${refunded.id}/refunds`, { amount: 500 })).status).toBe(201);
  await pay(1000, 'visa-insufficient-funds-pan');
  await server.createSession(secretKey, { amount: 700, currency: 'USD' });

  await page.goto(`${server.url}/dashboard`);
  await page.getByLabel('Secret key').fill(secretKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText('days in your time zone (America/New_York)')).toBeVisible();

  const usd = page.locator('article[data-currency=USD]');
  await expect(usd.locator('[data-figure=gross_volume] a')).toHaveText('$40.00');
  await expect(usd.locator('[data-figure=refunded] > a')).toHaveText('$5.00');
  await expect(usd.locator('[data-figure=net] a')).toHaveText('$35.00');
  await expect(usd.locator('[data-figure=success_rate] a')).toHaveText('66.7%');
  await expect(usd.locator('[data-figure=success_rate]')).toContainText('2 of 3 payments with an outcome');
  await expect(usd.getByRole('img', { name: 'Gross volume and refunds by day, USD' })).toBeVisible();
  // The chart's table: today's row (the last of the 30 days) carries the money.
  await usd.getByText('The days as a table').click();
  await expect(usd.locator('details tbody tr')).toHaveCount(30);
  await expect(usd.locator('details tbody tr').last()).toContainText('$40.00$5.00$35.00');
  await expect(page.locator('tr[data-status=succeeded] a')).toHaveText('2');
  await expect(page.locator('tr[data-status=declined] a')).toHaveText('1');
  await expect(page.locator('tr[data-status=open] a')).toHaveText('1');
  await expect(page.locator('tr[data-decline-code=insufficient_funds] a')).toHaveText('1');

  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // Today alone, in the merchant's zone: the same payments.
  await page.getByLabel('Period').selectOption({ label: 'Today' });
  await expect(usd.locator('details tbody tr')).toHaveCount(1);
  await expect(usd.locator('[data-figure=gross_volume] a')).toHaveText('$40.00');

  // The declines' count opens the list of the period's declined payments.
  const today = await page.evaluate(() => new Date().toLocaleDateString('en-CA'));
  await page.locator('tr[data-decline-code=insufficient_funds] a').click();
  await expect(page).toHaveURL(new RegExp(`#/payments\\?status=declined&from=${today}&to=${today}&decline_code=insufficient_funds$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Payments' })).toBeVisible();
  await expect(page.getByLabel('Status')).toHaveValue('declined');
  await expect(page.getByLabel('From')).toHaveValue(today);
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await expect(page.locator('tbody tr')).toContainText('$10.00');
  await expect(page.locator('tbody tr')).toContainText('Declined');

  // Back, and the success rate opens the succeeded ones.
  await page.goBack();
  await page.locator('article[data-currency=USD] [data-figure=success_rate] a').click();
  await expect(page).toHaveURL(/#\/payments\?status=succeeded&from=\d{4}-\d\d-\d\d&to=\d{4}-\d\d-\d\d$/);
  await expect(page.locator('tbody tr')).toHaveCount(2);
});

test('answers a period with no payment in words, and a custom range is read as the merchant wrote it', async ({ page }) => {
  const { secretKey } = await server.merchant({ name: 'Quiet Shop', merchant_id: `m_${Math.random().toString(36).slice(2, 10)}` });
  await page.goto(`${server.url}/dashboard`);
  await page.getByLabel('Secret key').fill(secretKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('No payment in this period.')).toBeVisible();
  await page.getByLabel('Period').selectOption({ label: 'Custom range' });
  await page.getByLabel('From', { exact: true }).fill('2026-01-01');
  await page.getByLabel('To', { exact: true }).fill('2026-01-31');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('From 2026-01-01 to 2026-01-31')).toBeVisible();
  await expect(page.getByText('No payment in this period.')).toBeVisible();
});
