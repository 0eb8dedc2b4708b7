/**
 * The QA kit's calls for the outcomes a shopper meets besides paying and declines, against the demo
 * store: a session that expired while its page stayed open (the kit's `advanceClock`, then `pay`:
 * the widget shows `expired` and nothing is charged, whether it learns it at the click or before), and the checkout's outage (`simulateOutage`:
 * the widget's outage message, then "Try again" once it is over, and the order pays once).
 */
import { mergeTests } from '@playwright/test';
import { en } from '../web/checkout/locales/en';
import { advanceClock, test as kitTest } from '../packages/qa-kit/src';
import { expect, test } from './support/fixtures';

const kit = mergeTests(test, kitTest);
const CARD = 'visa-success-3ds';

kit('a session that expires while its page is open: paying then shows expired, and nothing is charged', async ({ page, server, shop, ledger, walletCheckout }) => {
  const checkout = await shop.openDemo('/');
  const { sessionId, secretKey } = checkout.merchant;
  // A day and an hour: past the demo's default lifetime of a day.
  await advanceClock({ checkoutOrigin: server.url, secretKey, session: sessionId, seconds: 25 * 3600 });
  await walletCheckout.pay(page, { card: CARD });
  await walletCheckout.expectOutcome(page, 'expired');
  await expect(page.getByRole('status', { name: 'Payment status' })).toHaveText(en.errors.session_expired);
  expect(await ledger.newEntries(), 'nothing charged').toEqual([]);
  expect((await checkout.merchantView()).status).toBe('expired');
});

kit('a session whose expiry the widget told before the click: pay ends there, and nothing is charged', async ({ page, server, shop, ledger, walletCheckout }) => {
  // The widget's check of the view the page carried is held until the clock has moved, so it finds the session expired before any click.
  let release = () => {};
  const clockMoved = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/sessions/*/public*', async (route) => {
    await clockMoved;
    await route.continue();
  });
  const checkout = await shop.openDemo('/');
  const { sessionId, secretKey } = checkout.merchant;
  await advanceClock({ checkoutOrigin: server.url, secretKey, session: sessionId, seconds: 25 * 3600 });
  release();
  await walletCheckout.expectOutcome(page, 'expired');
  await walletCheckout.pay(page, { card: CARD });
  await walletCheckout.expectOutcome(page, 'expired');
  await expect(page.getByTestId('sandbox-wallet')).toBeHidden();
  expect(await ledger.newEntries(), 'nothing charged').toEqual([]);
  expect((await checkout.merchantView()).status).toBe('expired');
});

kit('an outage while the shopper pays: the outage message, then Try again once it is over pays once', async ({ page, server, shop, ledger, walletCheckout }) => {
  const checkout = await shop.openDemo('/');
  const outage = await walletCheckout.simulateOutage(page, { checkoutOrigin: server.url });
  await walletCheckout.pay(page, { card: CARD });
  await walletCheckout.expectOutcome(page, 'error');
  await expect(page.getByRole('status', { name: 'Payment status' })).toHaveText(en.errors.store_unavailable);
  expect(await ledger.newEntries(), 'nothing charged').toEqual([]);

  await outage.end();
  await walletCheckout.tryAgain(page);
  await walletCheckout.pay(page, { card: CARD });
  await walletCheckout.expectOutcome(page, 'paid');
  expect((await ledger.newEntries()).map((entry) => entry.charge.status)).toEqual(['succeeded']);
  expect(await checkout.merchantView()).toMatchObject({ status: 'succeeded', attempts: 1 });
});
