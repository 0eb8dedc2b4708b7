/**
 * Express checkout's first slice in the browser: a session with line items, a shipping address and the
 * shopper's e-mail asked for. The sandbox wallet's sheet lists the lines and offers only the shipping
 * addresses in the session's countries; the shopper picks one and pays the session's fixed price; the
 * merchant's view has the address and the e-mail, which the page (client secret only) never sees.
 */
import { mergeTests } from '@playwright/test';
import type { LineItem } from '../contracts';
import { test as kitTest } from '../packages/qa-kit/src';
import { expect, test } from './support/fixtures';

const LINE_ITEMS: LineItem[] = [
  { label: 'Coffee beans', kind: 'item', amount: 1800 },
  { label: 'Sales tax', kind: 'tax', amount: 150 },
  { label: 'First order', kind: 'discount', amount: -300 },
  { label: 'Standard shipping', kind: 'shipping', amount: 750 },
];

test('a shopper picks a shipping address in the sheet and pays the fixed price: the merchant sees the address and the e-mail', async ({ page, shop, ledger }) => {
  const widgetReplies: Promise<string>[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/api/sessions/')) widgetReplies.push(response.text().catch(() => ''));
  });
  const { checkout } = await shop.open({ session: { amount: 2400, line_items: LINE_ITEMS, shipping: { countries: ['US', 'GB'], phone: true }, contact: { email: true } } });
  const sheet = await checkout.openWallet();
  await expect(sheet.getByTestId('sandbox-item')).toHaveText([/Coffee beans\s*\$18\.00/, /Sales tax\s*\$1\.50/, /First order\s*-\$3\.00/, /Standard shipping\s*\$7\.50/]);
  await expect(sheet.getByTestId('sandbox-total')).toContainText('$24.00');
  // Only the session's countries are offered: the Canadian, Australian and Japanese addresses are not.
  await expect(sheet.locator('input[name=sandbox-shipping-address]')).toHaveCount(2);
  await sheet.locator('input[name=sandbox-shipping-address][value=gb-office]').check();

  const payment = await checkout.payInOpenSheet('visa-success-3ds');
  expect(payment.payStatus).toBe(200);
  expect(payment.paymentData.shippingAddress).toMatchObject({ countryCode: 'GB', postalCode: 'SW1A 2AA' });
  await checkout.expectState('paid');

  const session = await checkout.merchantView();
  expect(session).toMatchObject({
    status: 'succeeded',
    amount: 2400,
    line_items: LINE_ITEMS,
    email: 'shopper@sandbox.example',
    shipping_address: { name: 'Sandbox Shopper', phone: '+44 20 7946 0018', address: { line1: '10 Example Street', city: 'London', postal_code: 'SW1A 2AA', country: 'GB' } },
  });
  // The charge is the session's amount, with the billing address only.
  const [charge] = await ledger.newEntries();
  expect(charge?.charge).toMatchObject({ amount: 2400 });
  expect(JSON.stringify(charge)).not.toContain('Example Street');

  const read = await Promise.all(widgetReplies);
  expect(read.some((text) => text.includes('"outcome"')), 'the reply to /pay was seen').toBe(true);
  for (const text of read) for (const secret of ['"shipping_address"', '"email"', 'Example Street', 'shopper@sandbox.example']) expect(text).not.toContain(secret);
});

mergeTests(test, kitTest)("the QA kit picks the shipping address in the sheet, as a merchant's QA suite would", async ({ page, shop, walletCheckout }) => {
  const { checkout } = await shop.open({ session: { amount: 2400, shipping: { countries: ['US', 'GB'] } } });
  await walletCheckout.pay(page, { card: 'visa-success-3ds', shippingAddress: 'gb-office' });
  await walletCheckout.expectOutcome(page, 'paid');
  expect(await checkout.merchantView()).toMatchObject({ status: 'succeeded', shipping_address: { address: { city: 'London', country: 'GB' } } });
});
