/**
 * The dashboard's Saved cards page in a real browser (docs/dashboard.md): sign in, open Saved cards, find a
 * customer's cards by their reference, detach one after the confirmation, and see it listed as detached, the
 * other customer's card untouched; axe-clean.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { startTestServer, type TestServer } from '../testing/harness';

let server: TestServer;

test.use({ viewport: { width: 1280, height: 900 }, colorScheme: 'light', reducedMotion: 'reduce', locale: 'en-US', timezoneId: 'UTC' });

test.beforeAll(async () => {
  server = await startTestServer();
});
test.afterAll(async () => {
  await server?.close();
});

/** A card kept for `customer` by a paid saving session. */
async function saved(secretKey: string, customer: string, saving: Record<string, unknown>, card: string): Promise<string> {
  const session = await server.createSession(secretKey, { save_payment_method: { customer, ...saving } });
  const agreement = session.public_view!.save_payment_method!.agreement;
  expect((await server.pay(session, { payment_data: await server.walletPaymentData(session, card), agreement: { id: agreement.id } })).status).toBe(200);
  return session.id;
}

test("lists the kept cards, filters by a customer, and detaches one after the confirmation: it shows detached", async ({ page }) => {
  const { secretKey } = await server.merchant({ name: 'Coffee Club', merchant_id: `m_${Math.random().toString(36).slice(2, 10)}` });
  const firstPayment = await saved(secretKey, 'cust_ada', { usage: 'recurring', recurring: { interval: 'month', interval_count: 1, amount: 2500 } }, 'visa-success-3ds');
  await saved(secretKey, 'cust_ada', { usage: 'reload', reload: { threshold: 500, amount: 2000 } }, 'mastercard-success-3ds');
  await saved(secretKey, 'cust_grace', { usage: 'unscheduled' }, 'visa-success-pan');

  await page.goto(`${server.url}/dashboard`);
  await page.getByLabel('Secret key').fill(secretKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('link', { name: 'Saved cards' }).click();
  await expect(page.getByRole('heading', { name: 'Saved cards' })).toBeVisible();
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toContainText('cust_grace');

  await page.getByLabel('Customer reference').fill('cust_ada');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(rows).toHaveCount(2);
  const reload = rows.filter({ hasText: 'Mastercard' });
  const monthly = rows.filter({ hasText: 'Visa' });
  await expect(reload).toContainText('Automatic reload: $20.00 when the balance is below $5.00');
  await expect(monthly).toContainText('Recurring: $25.00 a month');
  await expect(monthly.getByRole('link', { name: firstPayment })).toHaveAttribute('href', `#/payments/${firstPayment}`);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  await monthly.getByRole('button', { name: /^Detach Visa •••• \d{4} of cust_ada$/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Detach this card?');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(monthly.getByTestId('payment-method-status')).toHaveText('Detached');
  await expect(monthly.getByRole('button', { name: /^Detach/ })).toHaveCount(0);
  await expect(reload.getByTestId('payment-method-status')).toHaveText('Active');

  // As the store has it: listed again under Detached, and the payment that saved it shows it so.
  await page.getByLabel('Status').selectOption('detached');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByTestId('payment-method-status')).toHaveText('Detached');
  await rows.first().getByRole('link', { name: firstPayment }).click();
  await expect(page.getByTestId('saved-card').getByTestId('payment-method-status')).toHaveText('Detached');
});
