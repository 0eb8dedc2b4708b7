/**
 * Delivery options priced by the server, in the browser: the sandbox wallet's sheet asks the widget at
 * every change, the widget relays it to the backend, and the backend's quote is what the sheet shows
 * and what is charged. A page that swaps the quote it pays with gets a refusal, never another charge
 * (a page that rewrites the relay itself: express-quote-endpoint.spec.ts).
 */
import type { Page } from '@playwright/test';
import { en } from '../web/checkout/locales/en';
import { expect, test } from './support/fixtures';

const SESSION = {
  amount: 2400,
  shipping: {
    countries: ['US', 'GB', 'AU'],
    options: [
      { id: 'standard', label: 'Standard', detail: '3 to 5 days', amount: 500, countries: ['US', 'GB'] },
      { id: 'express', label: 'Express', detail: 'Next day', amount: 1500, countries: ['US'] },
    ],
  },
};

/** Each body the widget sent to the backend's relay, in order. */
function relayedChanges(page: Page): { callbackTrigger: string; shippingOptionData?: { id: string } }[] {
  const changes: { callbackTrigger: string; shippingOptionData?: { id: string } }[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/quote')) changes.push((request.postDataJSON() as { intermediate_payment_data: (typeof changes)[number] }).intermediate_payment_data);
  });
  return changes;
}

test("the sheet's total follows the server's quote at each change, and the charge is the last quote", async ({ page, shop, ledger }) => {
  const changes = relayedChanges(page);
  const { checkout } = await shop.open({ session: SESSION });
  const sheet = await checkout.openWallet();
  // INITIALIZE, answered by the backend: the goods and the default option, no longer an estimate.
  await expect(sheet.getByTestId('sandbox-total')).toHaveText(/^Total\s*\$29\.00$/);
  await expect(sheet.locator('input[name=sandbox-shipping-option]')).toHaveCount(2);

  await sheet.locator('input[name=sandbox-shipping-option][value=express]').check();
  await expect(sheet.getByTestId('sandbox-total')).toHaveText(/^Total\s*\$39\.00$/);
  expect(changes.map((change) => change.callbackTrigger)).toEqual(['INITIALIZE', 'SHIPPING_OPTION']);

  const payment = await checkout.payInOpenSheet('visa-success-3ds');
  expect(payment.payStatus).toBe(200);
  await checkout.expectState('paid');
  const [charge] = await ledger.newEntries();
  expect(charge?.charge).toMatchObject({ amount: 3900 });
  expect(await checkout.merchantView()).toMatchObject({ amount: 2400, amount_charged: 3900, shipping_option: { id: 'express', amount: 1500 } });
});

test('an address no option serves is refused in the sheet, and Pay stays disabled until another is chosen', async ({ shop }) => {
  const { checkout } = await shop.open({ session: SESSION });
  const sheet = await checkout.openWallet();
  await expect(sheet.getByTestId('sandbox-total')).toHaveText(/\$29\.00$/);
  await sheet.locator('input[name=sandbox-shipping-address][value=au-remote]').check();
  await expect(sheet.getByTestId('sandbox-shipping-addresses-error')).toContainText('AU');
  await expect(sheet.getByTestId('sandbox-pay')).toBeDisabled();

  await sheet.locator('input[name=sandbox-shipping-address][value=gb-office]').check();
  await expect(sheet.getByTestId('sandbox-shipping-addresses-error')).toHaveText('');
  // Express does not go to GB: only Standard is offered there.
  await expect(sheet.locator('input[name=sandbox-shipping-option]')).toHaveCount(1);
  await expect(sheet.getByTestId('sandbox-pay')).toBeEnabled();
});

test('a page that pays with an earlier quote than the last is refused, and nothing is charged', async ({ page, shop, ledger }) => {
  const quoteIds: string[] = [];
  page.on('response', async (response) => {
    if (response.request().method() === 'POST' && response.url().endsWith('/quote')) quoteIds.push(((await response.json()) as { quote_id: string }).quote_id);
  });
  // The page rewrites the payment's body to name the first quote (the cheaper Standard) after Express was chosen.
  await page.route('**/api/sessions/*/pay', async (route) => {
    const body = route.request().postDataJSON() as { quote_id?: string };
    await route.continue({ postData: JSON.stringify({ ...body, quote_id: quoteIds[0] }) });
  });
  const { checkout } = await shop.open({ session: SESSION });
  const sheet = await checkout.openWallet();
  await expect(sheet.getByTestId('sandbox-total')).toHaveText(/\$29\.00$/);
  await sheet.locator('input[name=sandbox-shipping-option][value=express]').check();
  await expect(sheet.getByTestId('sandbox-total')).toHaveText(/\$39\.00$/);
  expect(quoteIds).toHaveLength(2);

  const payment = await checkout.payInOpenSheet('visa-success-3ds');
  expect(payment.payStatus).toBe(409);
  // Told in the sheet, which stays open over a widget ready to pay again (with the latest quote, were the page not rewriting it).
  await expect(sheet.locator('p.error[role=alert]:not([data-testid])')).toHaveText(en.reviewOrder);
  await checkout.expectState('ready');
  expect(await ledger.newEntries()).toEqual([]);
  expect(await checkout.merchantView()).toMatchObject({ amount_charged: null, shipping_option: null });
});
