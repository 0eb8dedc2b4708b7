/**
 * The sandbox's outcome cards in the browser (docs/test-cards.md): a payment whose outcome the
 * service leaves unknown is shown "confirming" until reconciliation settles it, then paid; a decline
 * for suspected fraud is told to the shopper as the generic decline, while the merchant reads the
 * issuer's code.
 */
import { en } from '../web/checkout/locales/en';
import { expect, test } from './support/fixtures';

test("the late issuer's card: confirming while the service has not answered, then paid once reconciliation settles it", async ({ server, shop, ledger }) => {
  const { checkout } = await shop.open();

  const { payStatus } = await checkout.payWith('visa-pending-3ds');

  expect(payStatus).toBe(200);
  await checkout.expectState('confirming');
  await expect(checkout.testId('status')).toHaveText(en.confirming);
  expect(await checkout.merchantView()).toMatchObject({ status: 'pending', outcome: { status: 'pending', charge_id: null } });
  expect(await ledger.newEntries(), 'nothing charged yet').toEqual([]);

  // The worker's reconciler may run a pass of its own meanwhile: ask until one settled it.
  await expect.poll(async () => (await server.reconcile(), (await checkout.merchantView()).status)).toBe('succeeded');

  await checkout.expectState('paid');
  const entries = await ledger.newEntries();
  expect(entries.map((entry) => entry.charge.status)).toEqual(['succeeded']);
  expect(await checkout.events('checkout:success')).toEqual([{ sessionId: checkout.merchant.sessionId, chargeId: entries[0]?.charge.id, status: 'succeeded' }]);
});

test('a decline for suspected fraud is told to the shopper as the generic decline, and to the merchant as fraudulent', async ({ shop, ledger }) => {
  const { checkout } = await shop.open();

  await checkout.payWith('visa-fraudulent-3ds');

  const [declined] = await ledger.newEntries();
  expect(declined?.charge).toMatchObject({ status: 'failed', failure_code: 'fraudulent' });
  const { sheet, message } = checkout.sheet();
  await expect(message).toHaveText(en.declined);
  await expect(sheet).toBeVisible();
  await checkout.expectState('declined');
  await expect(checkout.testId('status')).toHaveText(en.declined);
  expect(await checkout.events('checkout:decline')).toEqual([{ sessionId: checkout.merchant.sessionId, chargeId: declined?.charge.id, code: 'card_declined', message: en.declined }]);
  // The sandbox sheet's own card labels name each card's outcome; the widget and the sheet's message do not.
  await expect(checkout.widget).not.toContainText(/fraud/i);
  await expect(message).not.toContainText(/fraud/i);

  expect(await checkout.merchantView()).toMatchObject({ status: 'declined', outcome: { failure_code: 'fraudulent', failure_message: declined?.charge.failure_message } });
});
