/**
 * The sandbox wallet's sheet as Google's is for express checkout, on a plain page with the built
 * wallet and a merchant written here: the page hands every onPaymentDataChanged call to this test
 * and answers it only when the test says, with what the merchant below makes of it, so the order of
 * calls and replies is the test's to choose.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';

interface Call { callbackTrigger: string; shippingAddress?: Record<string, string>; shippingOptionData?: { id: string }; offerData?: { redemptionCodes: string[] } }

const request = {
  apiVersion: 2,
  apiVersionMinor: 0,
  merchantInfo: { merchantName: 'Mug Shop' },
  allowedPaymentMethods: [{ type: 'CARD', parameters: { allowedAuthMethods: ['PAN_ONLY'], allowedCardNetworks: ['VISA'] }, tokenizationSpecification: { type: 'PAYMENT_GATEWAY', parameters: { gateway: 'walletcheckout', gatewayMerchantId: 'mrchnt_1' } } }],
  transactionInfo: { totalPriceStatus: 'ESTIMATED', totalPrice: '20.00', totalPriceLabel: 'Total', currencyCode: 'USD', countryCode: 'US', displayItems: [{ label: 'Mug', type: 'LINE_ITEM', price: '20.00' }] },
  callbackIntents: ['SHIPPING_ADDRESS', 'SHIPPING_OPTION', 'OFFER', 'PAYMENT_AUTHORIZATION'],
  shippingAddressRequired: true,
  shippingAddressParameters: { allowedCountryCodes: ['US', 'GB', 'CA', 'AU'], phoneNumberRequired: true },
  shippingOptionRequired: true,
  shippingOptionParameters: { shippingOptions: [{ id: 'pending', label: 'Choose an address first' }] },
  emailRequired: true,
};

const SHIPPING: Record<string, string> = { std: '5.00', fast: '12.00' };

/** The merchant: ships to the US and Canada only, standard or fast, and knows the code TEN. */
function merchant(call: Call): object {
  if (call.shippingAddress && !['US', 'CA'].includes(call.shippingAddress.countryCode ?? '')) {
    return { error: { reason: 'SHIPPING_ADDRESS_UNSERVICEABLE', intent: 'SHIPPING_ADDRESS', message: `We do not ship to ${call.shippingAddress.countryCode}` } };
  }
  const codes = call.offerData?.redemptionCodes ?? [];
  if (codes.some((code) => code !== 'TEN')) return { error: { reason: 'OFFER_INVALID', intent: 'OFFER', message: 'This code is not valid' } };
  const option = call.shippingOptionData?.id && call.shippingOptionData.id in SHIPPING ? call.shippingOptionData.id : 'std';
  const discount = codes.includes('TEN') ? 200 : 0;
  const total = 2000 + Number(SHIPPING[option]) * 100 - discount;
  return {
    newTransactionInfo: {
      currencyCode: 'USD',
      totalPriceStatus: 'FINAL',
      totalPrice: (total / 100).toFixed(2),
      displayItems: [{ label: 'Mug', type: 'LINE_ITEM', price: '20.00' }, { label: 'Shipping', type: 'SHIPPING_OPTION', price: SHIPPING[option] }, ...(discount ? [{ label: 'TEN', type: 'DISCOUNT', price: '2.00' }] : [])],
    },
    newShippingOptionParameters: { shippingOptions: [{ id: 'std', label: 'Standard', description: '5 days' }, { id: 'fast', label: 'Fast', description: 'Tomorrow' }], defaultSelectedOptionId: option },
    newOfferInfo: { offers: codes.map((code) => ({ redemptionCode: code, description: '$2 off' })) },
  };
}

async function openSheet(page: Page, serverUrl: string) {
  await page.goto(`${serverUrl}/healthz`);
  await page.addScriptTag({ url: `${serverUrl}/sandbox/wallet.js` });
  await page.evaluate((request) => {
    const w = window as unknown as { calls: unknown[]; answers: ((update: unknown) => void)[]; outcome: Promise<unknown>; google: { payments: { api: { PaymentsClient: new (o: object) => { loadPaymentData(r: unknown): Promise<unknown> } } } } };
    w.calls = [];
    w.answers = [];
    const client = new w.google.payments.api.PaymentsClient({
      environment: 'TEST',
      paymentDataCallbacks: {
        onPaymentDataChanged: (data: unknown) => new Promise((resolve) => (w.calls.push(data), w.answers.push(resolve))),
        onPaymentAuthorized: () => ({ transactionState: 'SUCCESS' }),
      },
    });
    w.outcome = client.loadPaymentData(request).catch((error: unknown) => ({ error }));
  }, request);
  const sheet = page.getByTestId('sandbox-wallet');
  const calls = () => page.evaluate(() => (window as unknown as { calls: Call[] }).calls);
  /** Answers call number `index` as the merchant would. */
  const answer = async (index: number) => {
    const call = (await calls())[index];
    if (!call) throw new Error(`no call ${index}`);
    await page.evaluate(({ index, update }) => (window as unknown as { answers: ((u: unknown) => void)[] }).answers[index]?.(update), { index, update: merchant(call) });
  };
  return { sheet, calls, answer, pay: sheet.getByTestId('sandbox-pay'), total: sheet.getByTestId('sandbox-total') };
}

test("the sheet calls the merchant as Google's does, redraws from its replies, and gives the full address only once paid", async ({ page, server }) => {
  const { sheet, calls, answer, pay, total } = await openSheet(page, server.url);

  // INITIALIZE as the sheet opens, with the address redacted; Pay waits for the reply.
  await expect.poll(calls).toEqual([expect.objectContaining({ callbackTrigger: 'INITIALIZE', shippingAddress: { countryCode: 'US', administrativeArea: 'CA', locality: 'San Francisco', postalCode: '94105' } })]);
  await expect(pay).toBeDisabled();
  await expect(sheet.locator('input[name=sandbox-shipping-address][value=jp-tokyo]'), 'allowedCountryCodes hides JP').toHaveCount(0);
  await answer(0);
  await expect(total).toContainText('$25.00');
  await expect(sheet.getByTestId('sandbox-item')).toHaveText([/Mug\s*\$20\.00/, /Shipping\s*\$5\.00/]);
  await expect(pay).toBeEnabled();

  // An address the merchant does not serve: its error against the addresses, Pay disabled while it stands.
  await sheet.locator('input[name=sandbox-shipping-address][value=au-remote]').check();
  await expect.poll(async () => (await calls())[1]).toMatchObject({ callbackTrigger: 'SHIPPING_ADDRESS', shippingAddress: { countryCode: 'AU', postalCode: '0870' } });
  await answer(1);
  await expect(sheet.getByTestId('sandbox-shipping-addresses-error')).toHaveText('We do not ship to AU');
  await expect(pay).toBeDisabled();

  // Two changes before either is answered: the older reply, arriving last, is dropped.
  await sheet.locator('input[name=sandbox-shipping-address][value=gb-office]').check();
  await sheet.locator('input[name=sandbox-shipping-address][value=ca-home]').check();
  await expect.poll(async () => (await calls()).map((call) => call.shippingAddress?.postalCode)).toEqual(['94105', '0870', 'SW1', 'M5V']);
  await answer(3);
  await expect(sheet.getByTestId('sandbox-shipping-addresses-error')).toBeEmpty();
  await answer(2);
  await expect(sheet.getByTestId('sandbox-shipping-addresses-error'), "GB's stale refusal is not shown").toBeEmpty();
  await expect(pay).toBeEnabled();

  // A delivery option, then a code: one call each, totals redrawn.
  await sheet.locator('input[name=sandbox-shipping-option][value=fast]').check();
  await expect.poll(async () => (await calls())[4]).toMatchObject({ callbackTrigger: 'SHIPPING_OPTION', shippingOptionData: { id: 'fast' } });
  await expect(pay).toBeDisabled();
  // A code typed while that reply is on its way: the sheet redrawn from the reply keeps what was typed.
  await sheet.getByTestId('sandbox-offer-code').fill('NOPE');
  await answer(4);
  await expect(total).toContainText('$32.00');
  await expect(sheet.getByTestId('sandbox-offer-code')).toHaveValue('NOPE');
  await sheet.getByTestId('sandbox-offer-apply').click();
  await expect(sheet.getByTestId('sandbox-offer-code'), 'an applied code leaves the box').toHaveValue('');
  await expect.poll(async () => (await calls())[5]).toMatchObject({ callbackTrigger: 'OFFER', offerData: { redemptionCodes: ['NOPE'] } });
  await answer(5);
  await expect(sheet.getByTestId('sandbox-offer-error')).toHaveText('This code is not valid');
  await sheet.getByTestId('sandbox-offer-code').fill('TEN');
  await sheet.getByTestId('sandbox-offer-apply').click();
  await expect.poll(async () => (await calls()).length).toBe(7);
  await answer(6);
  await expect(sheet.getByTestId('sandbox-offer')).toHaveText([/TEN/]);
  await expect(total).toContainText('$30.00');
  expect((await calls()).map((call) => call.callbackTrigger)).toEqual(['INITIALIZE', 'SHIPPING_ADDRESS', 'SHIPPING_ADDRESS', 'SHIPPING_ADDRESS', 'SHIPPING_OPTION', 'OFFER', 'OFFER']);
  for (const call of await calls()) expect(JSON.stringify(call.shippingAddress)).not.toMatch(/Sample Road|Sandbox Shopper|416/);

  await pay.click();
  await expect(sheet).toHaveCount(0);
  const paid = await page.evaluate(() => (window as unknown as { outcome: Promise<unknown> }).outcome);
  expect(paid).toMatchObject({
    shippingAddress: { name: 'Sandbox Shopper', address1: '200 Sample Road', locality: 'Toronto', administrativeArea: 'ON', postalCode: 'M5V 2T6', countryCode: 'CA', phoneNumber: expect.any(String) },
    shippingOptionData: { id: 'fast' },
    offerData: { redemptionCodes: ['TEN'] },
    email: expect.stringContaining('@'),
  });
});

test("a reply that breaks Google's rules closes the sheet with a developer error", async ({ page, server }) => {
  const { sheet, calls } = await openSheet(page, server.url);
  await expect.poll(async () => (await calls()).length).toBe(1);
  await page.evaluate(() => (window as unknown as { answers: ((u: unknown) => void)[] }).answers[0]?.({ newShippingOptionParameters: { shippingOptions: [{ id: 'a', label: 'A' }], defaultSelectedOptionId: 'b' } }));
  await expect(sheet).toHaveCount(0);
  const outcome = await page.evaluate(() => (window as unknown as { outcome: Promise<unknown> }).outcome);
  expect(outcome).toEqual({ error: { statusCode: 'DEVELOPER_ERROR', statusMessage: expect.stringContaining('[GP28]') } });
});
