/**
 * The demo store's monthly subscription (demo/README.md, docs/saved-cards.md) as a shopper and the store's
 * staff see it: the first month paid in the sheet on the agreement the widget shows, the next month charged
 * by the back office once for a double click, both payments in the merchant's dashboard, then the
 * subscription cancelled (the card detached) and a charge refused, nothing charged.
 */
import { expect, test } from './support/fixtures';

test('subscribe, charge next month from the back office, see both payments in the dashboard, cancel, and the next charge is refused', async ({ shop, page, context, server, ledger, sandboxWallet }) => {
  const checkout = await shop.openDemo('/subscription');
  await expect(checkout.testId('agreement')).toContainText('to charge this card $9.99 every month for the Coffee club');
  expect((await checkout.payWith(sandboxWallet.card('visa-success-3ds').id)).payStatus).toBe(200);
  const status = page.locator('#order-status');
  await expect(status).toHaveAttribute('data-order-status', 'succeeded');
  await expect(status).toHaveText('Subscribed: the first month, $9.99, is paid.');
  const customer = await page.getByTestId('customer').textContent();
  // The store learnt the kept card from its webhook.
  const keptCard = page.locator('#kept-card');
  await expect(keptCard).toHaveAttribute('data-status', 'active');
  await expect(keptCard).toHaveText(`Card kept for ${customer}: Visa •••• 1111, active.`);

  // A double click: both requests name the same month, so the store charges it once.
  await page.getByRole('button', { name: /^Charge next month \(/ }).dblclick();
  const log = page.locator('#subscription-log li');
  await expect(log).toHaveCount(2);
  await expect(log.nth(0)).toHaveAttribute('data-outcome', 'succeeded');
  const [first, second] = await log.allTextContents();
  const chargeId = /\(payment (cs_[^)]+)\)/.exec(first ?? '')?.[1];
  expect(chargeId).toBeDefined();
  expect(second).toBe(first);
  expect(first).toMatch(/^\w+ \d{4}: \$9\.99 charged/);
  const charges = async () => (await ledger.newEntries()).filter((entry) => entry.operation === 'charge').map((entry) => [entry.charge.status, entry.charge.amount]);
  expect(await charges()).toEqual([
    ['succeeded', 999],
    ['succeeded', 999],
  ]);

  // The merchant's dashboard lists both payments; the second is the subscription's charge of the kept card.
  const dashboard = await context.newPage();
  await dashboard.goto(`${server.url}/dashboard`);
  await dashboard.getByLabel('Secret key').fill(checkout.merchant.secretKey);
  await dashboard.getByRole('button', { name: 'Sign in' }).click();
  // Signed in, the merchant lands on the overview; the list is the next link.
  await dashboard.getByRole('link', { name: 'Payments', exact: true }).click();
  for (const id of [checkout.merchant.sessionId, chargeId!]) await expect(dashboard.locator(`tr[data-payment="${id}"]`)).toContainText('$9.99');
  await dashboard.goto(`${server.url}/dashboard#/payments/${chargeId}`);
  await expect(dashboard.getByTestId('charge-reason')).toHaveText('Subscription');
  await expect(dashboard.getByTestId('payment-method-status')).toHaveText('Active');
  await dashboard.close();

  // Cancelled: the card is detached, and the API refuses the next month's charge before the service.
  await page.getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(keptCard).toHaveAttribute('data-status', 'detached');
  await expect(log.nth(2)).toHaveText('Subscription cancelled: the card is detached, and the store can no longer charge it.');
  await page.getByRole('button', { name: /^Charge next month \(/ }).click();
  await expect(log.nth(3)).toHaveAttribute('data-outcome', 'payment_method_detached');
  await expect(log.nth(3)).toContainText('was refused: This payment method was detached');
  expect(await charges()).toHaveLength(2);
});
