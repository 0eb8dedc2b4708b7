/**
 * The demo store's page as a shopper sees it: the product card carries the
 * session's price and the store's order reference, and the footer is a row of
 * the page's grid, under both columns, not a stray line against the window's edge.
 * The order is confirmed by the store's server from the backend's signed webhook, on the
 * store page and on the product page, whose express sheet prices the delivery option; the QA kit pays
 * that page as its README shows. A reload shows the cart's open session again instead of creating another.
 */
import { mergeTests } from '@playwright/test';
import { WalletCheckout } from '../packages/node/src';
import { test as kitTest } from '../packages/qa-kit/src';
import { expect, test } from './support/fixtures';

test('the product card shows the price and the order reference, and the footer sits under both columns', async ({ shop, page }, testInfo) => {
  await shop.openDemo('/?currency=EUR&amount=1250');
  await expect(page.getByTestId('price')).toHaveText('€12.50');
  await expect(page.getByTestId('order-reference')).toHaveText(/^[0-9A-F]{8}$/);

  const main = await page.locator('main').boundingBox();
  const product = await page.locator('.product').boundingBox();
  const footer = await page.locator('footer').boundingBox();
  expect(main && product && footer).toBeTruthy();
  // Inside the grid: aligned with the product card, as wide as the grid, below the columns.
  expect(footer!.x).toBeCloseTo(product!.x, 0);
  expect(footer!.x + footer!.width).toBeLessThanOrEqual(main!.x + main!.width + 1);
  expect(footer!.width).toBeGreaterThan(product!.width * 1.5);
  expect(footer!.y).toBeGreaterThanOrEqual(product!.y + product!.height);
  await page.screenshot({ path: testInfo.outputPath('demo-store.png'), fullPage: true });
});

test('a reload shows the same open session: reloading the store twice leaves one unpaid session in the list, not three', async ({ shop, server, page }) => {
  const started = Date.now();
  const checkout = await shop.openDemo('/');
  const embedded = () => page.locator('script[data-client-secret]').getAttribute('data-client-secret');
  const first = await embedded();
  for (let reload = 0; reload < 2; reload++) {
    await page.reload();
    await checkout.expectState('ready');
    expect(await embedded()).toBe(first);
  }
  const api = new WalletCheckout(checkout.merchant.secretKey, { baseUrl: server.url });
  const created = await api.sessions.list({ created_gte: started });
  expect(created.data.map((session) => [session.id, session.status])).toEqual([[checkout.merchant.sessionId, 'open']]);
});

test('the order shows as confirmed once the webhook reaches the store, a hold as reserved', async ({ shop, sandboxWallet }) => {
  for (const [path, status, text] of [
    ['/', 'succeeded', 'Order confirmed by the store. Thank you!'],
    ['/?intent=hold', 'authorized', 'Order reserved: the store holds the payment.'],
  ] as const) {
    const checkout = await shop.openDemo(path);
    await checkout.payWith(sandboxWallet.card('visa-success-3ds').id);
    const order = checkout.page.locator('#order-status');
    // Set only by what the store's server learnt from its webhook (demo), never by the widget's event.
    await expect(order).toHaveAttribute('data-order-status', status);
    await expect(order).toHaveText(text);
  }
});

test("the product page sells with the express button: the store's quote endpoint prices each zone, the tax and the code, and the order is confirmed by webhook", async ({ shop, ledger }) => {
  const checkout = await shop.openDemo('/product');
  const sheet = await checkout.openWallet();
  const total = sheet.getByTestId('sandbox-total');
  const shipTo = (address: string) => sheet.locator(`input[name=sandbox-shipping-address][value=${address}]`).check();
  // San Francisco: the coffee, Standard delivery and California's 7.25% sales tax, as the demo's quote endpoint prices them.
  await expect(total).toHaveText(/\$30\.74$/);
  // London: Europe's zone, its own options, no sales tax.
  await shipTo('gb-office');
  await expect(sheet.locator('input[name=sandbox-shipping-option][value=tracked]')).toBeVisible();
  await expect(total).toHaveText(/\$38\.00$/);
  // Alice Springs: a zone the store does not serve, refused against the address.
  await shipTo('au-remote');
  await expect(sheet.getByTestId('sandbox-shipping-addresses-error')).toHaveText('Demo Coffee Roasters does not deliver to Australia or New Zealand yet');
  // Back home, Express and the welcome code: 10% off the coffee, then the tax on what is left.
  await shipTo('us-home');
  await sheet.locator('input[name=sandbox-shipping-option][value=express]').check();
  await expect(total).toHaveText(/\$40\.74$/);
  await sheet.getByTestId('sandbox-offer-code').fill('SPRING50');
  await sheet.getByTestId('sandbox-offer-apply').click();
  await expect(sheet.getByTestId('sandbox-offer-error')).toContainText('SPRING50');
  await sheet.getByTestId('sandbox-offer-code').fill('WELCOME10');
  await sheet.getByTestId('sandbox-offer-apply').click();
  await expect(sheet.getByTestId('sandbox-offer')).toHaveText('WELCOME10 Welcome: 10% off');
  await expect(total).toHaveText(/\$38\.17$/);
  expect((await checkout.payInOpenSheet('visa-success-3ds')).payStatus).toBe(200);
  await checkout.expectState('paid');
  const order = checkout.page.locator('#order-status');
  await expect(order).toHaveAttribute('data-order-status', 'succeeded');
  const [charge] = await ledger.newEntries();
  expect(charge?.charge).toMatchObject({ amount: 3817 });
});

mergeTests(test, kitTest)("the QA kit pays the product page with an address, a delivery option and a promotion code, as its README shows", async ({ page, shop, ledger, walletCheckout }) => {
  const checkout = await shop.openDemo('/product');
  await walletCheckout.pay(page, { card: 'visa-success-3ds', shippingAddress: 'gb-office', shippingOption: 'tracked', promotionCode: 'WELCOME10' });
  await walletCheckout.expectOutcome(page, 'paid');
  // London's Tracked (26.00), the coffee less WELCOME10's 10% (21.60), no tax: the last quote, charged.
  expect(await checkout.merchantView()).toMatchObject({ status: 'succeeded', amount_charged: 4760, quote: { total: 4760, shipping_option: { id: 'tracked' }, promotion_codes: [{ code: 'WELCOME10' }] } });
  expect((await ledger.newEntries()).map((entry) => entry.charge.amount)).toEqual([4760]);
});

mergeTests(test, kitTest)('a card declined in the sheet, then another that pays there: the store page follows the order past the decline to confirmed', async ({ page, shop, walletCheckout }) => {
  await shop.openDemo('/');
  await walletCheckout.pay(page, { card: 'visa-insufficient-funds-3ds' });
  await walletCheckout.expectOutcome(page, 'declined');
  // The store's webhook for the decline arrives while the shopper picks another card: a declined order can still be paid.
  await walletCheckout.payAgain(page, { card: 'mastercard-success-pan' });
  await walletCheckout.expectOutcome(page, 'paid');
  const order = page.locator('#order-status');
  await expect(order).toHaveAttribute('data-order-status', 'succeeded');
  await expect(order).toHaveText('Order confirmed by the store. Thank you!');
});

mergeTests(test, kitTest)('a card declined in the sheet, the shopper closes the sheet and presses Try again: the kit does both, and another card pays', async ({ page, shop, walletCheckout }) => {
  await shop.openDemo('/');
  await walletCheckout.pay(page, { card: 'visa-decline-3ds' });
  await walletCheckout.expectOutcome(page, 'declined');
  await expect(page.getByTestId('sandbox-wallet')).toBeVisible(); // the decline is told in the sheet, which covers the widget
  await walletCheckout.tryAgain(page);
  await expect(page.getByTestId('sandbox-wallet')).toBeHidden();
  await walletCheckout.pay(page, { card: 'visa-success-3ds' });
  await walletCheckout.expectOutcome(page, 'paid');
});

mergeTests(test, kitTest)('cancel closes the sheet a decline left open, and opens and closes it when the widget is ready', async ({ page, shop, walletCheckout }) => {
  await shop.openDemo('/');
  await walletCheckout.pay(page, { card: 'visa-decline-3ds' });
  await walletCheckout.expectOutcome(page, 'declined');
  await walletCheckout.cancel(page);
  await expect(page.getByTestId('sandbox-wallet')).toBeHidden();
  await walletCheckout.tryAgain(page);
  await walletCheckout.cancel(page);
  await expect(page.getByTestId('sandbox-wallet')).toBeHidden();
  await walletCheckout.expectOutcome(page, 'ready');
});

mergeTests(test, kitTest)("a hold paid with the kit is authorized, and the store's server captures part of it or releases it with the Node library (the QA kit README's Holds)", async ({ page, server, shop, walletCheckout }) => {
  for (const settle of ['capture', 'release'] as const) {
    const checkout = await shop.openDemo('/?intent=hold');
    await walletCheckout.pay(page, { card: 'visa-success-3ds' });
    await expect(page.locator('#order-status')).toHaveAttribute('data-order-status', 'authorized');
    const api = new WalletCheckout(checkout.merchant.secretKey, { baseUrl: server.url });
    const { id, status, amount } = await api.sessions.retrieve(checkout.merchant.sessionId);
    expect(status).toBe('authorized');
    if (settle === 'capture') {
      expect(await api.sessions.capture(id, { amount: amount - 100 })).toMatchObject({ status: 'captured', amount_captured: amount - 100 });
    } else {
      expect(await api.sessions.release(id)).toMatchObject({ status: 'released' });
    }
    expect((await api.sessions.retrieve(id)).status).toBe(settle === 'capture' ? 'captured' : 'released');
  }
});

mergeTests(test, kitTest)("the widget's live region is named, so the store page's own status region and the widget's are each found by role", async ({ page, shop, walletCheckout }) => {
  await shop.openDemo('/');
  await walletCheckout.pay(page, { card: 'visa-success-3ds' });
  await walletCheckout.expectOutcome(page, 'paid');
  await expect(page.locator('#order-status')).toHaveAttribute('data-order-status', 'succeeded');
  // Both speak now: the store page's own role=status (#order-status, unnamed) and the widget's, whose open shadow root is reachable.
  await expect(page.getByRole('status')).toHaveCount(2);
  const widgetStatus = page.getByRole('status', { name: 'Payment status', exact: true });
  await expect(widgetStatus).toContainText('Payment complete. Thank you!');
  // The page's own, by its empty name: never the widget's.
  await expect(page.getByRole('status', { name: '', exact: true })).toHaveText('Order confirmed by the store. Thank you!');
});
