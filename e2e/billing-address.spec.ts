/**
 * The billing address check in the browser: the shopper picks a
 * billing address in the sandbox wallet's sheet other than the one the
 * merchant has on file; the payment goes through, and the merchant's view
 * shows the address the shopper chose and the mismatch. The page, which holds
 * only the client secret, never sees either.
 */
import { TYPICAL_ADDRESS_ON_FILE } from '../sandbox/billing-addresses';
import { expect, test } from './support/fixtures';

test('a shopper picks a billing address other than the one on file: paid, and the merchant sees the mismatch', async ({ page, shop }) => {
  // Every reply the browser got from the checkout API, all of it read with the client secret.
  const widgetReplies: Promise<string>[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/api/sessions/')) widgetReplies.push(response.text().catch(() => ''));
  });
  const { checkout } = await shop.open({ session: { billing_address_on_file: TYPICAL_ADDRESS_ON_FILE } });
  const sheet = await checkout.openWallet();
  await expect(sheet.locator('input[name=sandbox-billing-address]')).toHaveCount(3);
  await expect(sheet.getByRole('radio', { name: /Work \(another street and postal code\)/ })).toBeVisible();

  const payment = await checkout.payInOpenSheet('visa-success-3ds', 'mismatching');
  expect(payment.payStatus).toBe(200);
  expect(payment.paymentData.paymentMethodData.info.billingAddress).toMatchObject({ address1: '500 Elsewhere Avenue', postalCode: '97201' });
  await checkout.expectState('paid');

  const session = await checkout.merchantView();
  expect(session.status).toBe('succeeded');
  expect(session.billing_address_on_file).toEqual(TYPICAL_ADDRESS_ON_FILE);
  expect(session.billing_address).toEqual({ name: 'Sandbox Shopper', address: { line1: '500 Elsewhere Avenue', city: 'Portland', state: 'OR', postal_code: '97201', country: 'US' } });
  expect(session.billing_address_check).toEqual({ postal_code: 'mismatch', line1: 'mismatch', country: 'match', verdict: 'mismatch' });

  // The widget's reads (its view, the reply to /pay) carry neither address nor check.
  const read = await Promise.all(widgetReplies);
  expect(read.some((text) => text.includes('"outcome"')), 'the reply to /pay was seen').toBe(true);
  for (const text of read) for (const secret of ['billing_address', 'Elsewhere', 'SANDBOX WAY']) expect(text).not.toContain(secret);
});

test('the address the sheet selects first matches the typical address on file', async ({ shop }) => {
  const { checkout } = await shop.open({ session: { billing_address_on_file: TYPICAL_ADDRESS_ON_FILE } });
  expect((await checkout.payWith('visa-success-3ds')).payStatus).toBe(200);
  await checkout.expectState('paid');
  expect((await checkout.merchantView()).billing_address_check).toEqual({ postal_code: 'match', line1: 'match', country: 'match', verdict: 'match' });
});
