/**
 * Holds and 3-D Secure in the browser, with the sandbox wallet's PAN_ONLY and
 * CRYPTOGRAM_3DS test cards (docs/test-cards.md): the demo store reserves and
 * its back office captures (the widget, still open, shows it captured, or
 * released); a PAN_ONLY card that needs 3-D Secure is
 * challenged in the widget's dialog, then paid, failed or cancelled (left to
 * expire: three-ds-expiry.spec.ts); a frictionless one is paid without a
 * dialog; a device token goes straight through.
 */
import { en } from '../web/checkout/locales/en';
import { expect, test } from './support/fixtures';

const CHALLENGE_CARD = 'visa-3ds-required-pan';

test('the demo store places a hold, and its back office captures it', async ({ shop, ledger }) => {
  const checkout = await shop.openDemo('/?intent=hold');
  await checkout.payWith('visa-success-3ds');
  await checkout.expectState('paid');
  await expect(checkout.testId('status')).toContainText(/authorized/i);
  const status = checkout.page.locator('#order-status');
  await expect(status).toHaveAttribute('data-order-status', 'authorized');

  await checkout.page.getByRole('button', { name: 'Capture payment' }).click();
  await expect(status).toHaveAttribute('data-order-status', 'captured');
  // The demo's default order, 24.00 USD, read as money by the store's staff.
  await expect(status).toHaveText('Payment captured by the store: $24.00 of $24.00.');
  const session = await checkout.merchantView();
  expect(session).toMatchObject({ status: 'captured', intent: 'hold', amount_captured: session.amount });
  expect((await ledger.newEntries()).map((entry) => [entry.operation, entry.charge.status, entry.charge.amount_captured])).toEqual([
    ['charge', 'held', 0],
    ['capture', 'succeeded', session.amount],
  ]);
  expect(await checkout.events('checkout:success')).toEqual([{ sessionId: session.id, chargeId: session.outcome?.charge_id, status: 'authorized' }]);
});

test('a hold captured by the store while the shopper is still on the page shows as captured in the widget', async ({ shop, page }) => {
  // Fake timers that run at the normal pace, so the test can skip the wait before the widget's next check.
  await page.clock.install();
  const checkout = await shop.openDemo('/?intent=hold');
  await checkout.payWith('visa-success-3ds');
  await checkout.expectState('paid');
  await page.getByRole('button', { name: 'Capture payment' }).click();
  await expect(page.locator('#order-status')).toHaveAttribute('data-order-status', 'captured');

  // Whatever check is next due, at most a minute away.
  await page.clock.fastForward('01:00');
  await checkout.expectState('captured');
  await expect(checkout.testId('status')).toHaveText(`${en.captured}Visa •••• 1111`);
  expect(await checkout.events('checkout:success')).toHaveLength(1);
});

test('a hold released by the merchant server shows as released when the tab is seen again, and after a reload', async ({ shop, page, server }) => {
  await page.clock.install();
  const { checkout, session, app } = await shop.open({ session: { intent: 'hold' } });
  await checkout.payWith('visa-success-3ds');
  await checkout.expectState('paid');
  await expect(checkout.testId('status')).toHaveText(`${en.authorized}Visa •••• 1111`);
  // From here on no timer fires: only the tab coming back into view can make the widget look.
  await page.clock.pauseAt(Date.now() + 1000);
  const released = await server.merchantPost(app.secretKey, `/api/sessions/${session.id}/release`, {});
  expect(released.status).toBe(200);
  await checkout.expectState('paid');

  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await checkout.expectState('released');
  await expect(checkout.testId('status')).toHaveText(`${en.released}Visa •••• 1111`);
  await expect(checkout.page.locator('[data-testid=sandbox-gpay-button]')).toHaveCount(0);

  await page.reload();
  await checkout.expectState('released');
  expect(await checkout.events('checkout:success')).toEqual([]);
});

test('a hold captured in part shows the amount taken, not the amount held', async ({ shop, page, server }) => {
  await page.clock.install();
  const { checkout, session, app } = await shop.open({ session: { intent: 'hold', amount: 2400, currency: 'USD' } });
  await checkout.payWith('visa-success-3ds');
  await checkout.expectState('paid');
  await expect(checkout.testId('amount')).toHaveText('$24.00');
  await page.clock.pauseAt(Date.now() + 1000);
  expect((await server.merchantPost(app.secretKey, `/api/sessions/${session.id}/capture`, { amount: 1000 })).status).toBe(200);

  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await checkout.expectState('captured');
  await expect(checkout.testId('amount')).toHaveText('$10.00');
});

test('a PAN_ONLY card that needs 3-D Secure is challenged in a dialog on the demo store, completed from the keyboard, and paid', async ({ shop, ledger }) => {
  const checkout = await shop.openDemo();
  await checkout.payWith(CHALLENGE_CARD);
  await checkout.expectState('authenticating');

  const challenge = checkout.challenge();
  await expect(challenge.dialog).toBeVisible();
  await expect(checkout.page.getByRole('dialog', { name: 'Confirm your payment' })).toBeVisible();
  await expect(challenge.frame.getByText(/Sandbox 3-D Secure/)).toBeVisible();
  await challenge.frame.getByRole('button', { name: 'Complete authentication' }).press('Enter');

  await checkout.expectState('paid');
  await expect(challenge.dialog).toBeHidden();
  await expect(checkout.page.locator('#order-status')).toHaveText(/confirmed/i);
  const session = await checkout.merchantView();
  expect(session).toMatchObject({ status: 'succeeded', attempts: 2 });
  const charges = (await ledger.newEntries()).map((entry) => entry.charge);
  expect(charges.map((charge) => [charge.source_type, charge.status, charge.failure_code])).toEqual([
    ['walletpay', 'failed', 'authentication_required'],
    ['payment_method', 'succeeded', null],
  ]);
  expect(session.outcome?.charge_id).toBe(charges[1]?.id);
  expect(await checkout.events('checkout:success')).toHaveLength(1);
});

test('a failed challenge declines the payment, and Try again pays with another card', async ({ shop, ledger }) => {
  const { checkout } = await shop.open();
  await checkout.payWith(CHALLENGE_CARD);
  await checkout.challenge().frame.getByRole('button', { name: 'Fail authentication' }).click();

  await checkout.expectState('declined');
  await expect(checkout.challenge().dialog).toBeHidden();
  expect((await checkout.events('checkout:decline')).map((event) => event.code)).toEqual(['authentication_failed']);
  await expect(checkout.testId('retry')).toBeFocused();

  await checkout.testId('retry').click();
  await checkout.payWith('visa-success-3ds');
  await checkout.expectState('paid');
  expect((await ledger.newEntries()).map((entry) => entry.charge.status)).toEqual(['failed', 'succeeded']);
});

test('cancelling the challenge (button or Escape) declines it as abandoned, and nothing is charged', async ({ shop, ledger }) => {
  const { checkout } = await shop.open();
  await checkout.payWith(CHALLENGE_CARD);
  await checkout.challenge().cancel.click();
  await checkout.expectState('declined');
  await expect(checkout.challenge().dialog).toBeHidden();

  await checkout.testId('retry').click();
  await checkout.payWith(CHALLENGE_CARD);
  await checkout.expectState('authenticating');
  await expect(checkout.challenge().dialog).toBeVisible();
  await checkout.page.keyboard.press('Escape');
  await checkout.expectState('declined');

  expect((await checkout.events('checkout:decline')).map((event) => event.code)).toEqual(['authentication_abandoned', 'authentication_abandoned']);
  expect((await checkout.merchantView()).status).toBe('declined');
  expect((await ledger.newEntries()).map((entry) => [entry.charge.status, entry.charge.failure_code])).toEqual([
    ['failed', 'authentication_required'],
    ['failed', 'authentication_required'],
  ]);
});

test('the same card as a CRYPTOGRAM_3DS device token goes straight through, without a challenge', async ({ shop, ledger }) => {
  const { checkout } = await shop.open();
  await checkout.payWith('visa-3ds-required-3ds');
  await checkout.expectState('paid');
  await expect(checkout.challenge().dialog).toHaveCount(0);
  const entries = await ledger.newEntries();
  expect(entries).toHaveLength(1);
  expect(entries[0]?.charge).toMatchObject({ status: 'succeeded', card: { auth_method: 'CRYPTOGRAM_3DS', last4: '3184' } });
});

test('a PAN_ONLY card the issuer authenticates frictionlessly is paid without a dialog', async ({ shop, ledger }) => {
  const { checkout } = await shop.open();
  await checkout.payWith('visa-3ds-frictionless-pan');
  await checkout.expectState('paid');
  await expect(checkout.challenge().dialog).toHaveCount(0);
  expect((await ledger.newEntries()).map((entry) => [entry.charge.source_type, entry.charge.status, entry.charge.failure_code])).toEqual([
    ['walletpay', 'failed', 'authentication_required'],
    ['payment_method', 'succeeded', null],
  ]);
  expect(await checkout.merchantView()).toMatchObject({ status: 'succeeded' });
});

test('an app that requires 3-D Secure for every PAN_ONLY payment challenges an ordinary card, then pays it', async ({ shop, ledger }) => {
  const { checkout } = await shop.open({ app: { three_ds: 'always_for_pan_only' } });
  await checkout.payWith('visa-success-pan');
  await checkout.expectState('authenticating');
  await checkout.challenge().frame.getByRole('button', { name: 'Complete authentication' }).click();
  await checkout.expectState('paid');
  // The charge asked for authentication (gateway mode cannot tell PAN_ONLY before the service decrypts), so the service refused it until 3-D Secure.
  expect((await ledger.newEntries()).map((entry) => [entry.charge.source_type, entry.charge.status, entry.charge.failure_code])).toEqual([
    ['walletpay', 'failed', 'authentication_required'],
    ['payment_method', 'succeeded', null],
  ]);
});
