/**
 * The widget and Google Pay's own script: in TEST and PRODUCTION the button
 * element loads pay.js, which tests replace with the sandbox wallet (Google is
 * never reached); and a wallet that says it cannot pay hides the button.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from './support/fixtures';

const PAY_JS = 'https://pay.google.com/gp/p/js/pay.js';
const sandboxWallet = readFileSync(new URL('../dist/web/sandbox-wallet.js', import.meta.url), 'utf8');

test('in the TEST environment the button loads pay.js, served here by the sandbox wallet', async ({ page, server, shop, ledger }) => {
  const googleRequests: string[] = [];
  // Registered first, so it runs last: anything else bound for Google is recorded and refused.
  await page.route(/^https:\/\/[^/]*google\.com\//, (route) => {
    googleRequests.push(route.request().url());
    return route.abort();
  });
  await page.route(PAY_JS, (route) => route.fulfill({ contentType: 'text/javascript', body: sandboxWallet }));
  // The sandbox wallet talks to the origin it was loaded from: here, pay.js's. Send that to our sandbox.
  await page.route('https://pay.google.com/sandbox/wallet/**', async (route) => {
    const path = new URL(route.request().url()).pathname;
    route.fulfill({ response: await route.fetch({ url: `${server.url}${path}` }) });
  });

  const { checkout, session } = await shop.open({ app: { environment: 'TEST' } });
  await checkout.payWith('visa-success-3ds');
  await checkout.expectState('paid');
  expect((await ledger.newEntries()).map((entry) => entry.charge.amount)).toEqual([session.amount]);
  expect(googleRequests).toEqual([]);
});

test("in PRODUCTION checkout:ready carries Google's answer on whether the shopper has a card in the wallet", async ({ page, shop }) => {
  await page.route(/^https:\/\/[^/]*google\.com\//, (route) => route.abort());
  // Google's pay.js as PRODUCTION answers: the browser can pay, and this shopper has no card in the wallet yet.
  await page.route(PAY_JS, (route) =>
    route.fulfill({
      contentType: 'text/javascript',
      body: `window.google = { payments: { api: { PaymentsClient: class {
        isReadyToPay(request) { return Promise.resolve(request.existingPaymentMethodRequired ? { result: true, paymentMethodPresent: false } : { result: true }); }
        createButton() { return document.createElement('button'); }
        prefetchPaymentData() {}
        loadPaymentData() { return new Promise(() => {}); }
      } } } };`,
    }),
  );
  const { checkout, session } = await shop.open({ app: { environment: 'PRODUCTION', google_merchant_id: 'BCR2DN4TWXYZ1234' } });
  // Asked of the wallet once pay.js is here, not before (when the answer could only be "not known").
  await expect.poll(() => checkout.events('checkout:ready')).toEqual([{ sessionId: session.id, paymentMethodPresent: false }]);
});

test('a wallet that cannot pay here shows "unavailable" and no button', async ({ page, shop }) => {
  await page.addInitScript(() => {
    class UnavailablePaymentsClient {
      isReadyToPay() {
        return Promise.resolve({ result: false });
      }
      loadPaymentData() {
        return Promise.reject({ statusCode: 'DEVELOPER_ERROR', statusMessage: 'unavailable' });
      }
      createButton() {
        return document.createElement('button');
      }
      prefetchPaymentData() {}
    }
    (window as unknown as { google: unknown }).google = { payments: { api: { PaymentsClient: UnavailablePaymentsClient } } };
  });
  const { checkout } = await shop.open({ state: 'unavailable' });
  await expect(checkout.testId('status')).toContainText(/Google Pay isn.t available/);
  // The button is drawn in its box, which the widget keeps hidden: the shopper sees none.
  await expect(page.locator('[data-wallet-button] button')).toBeHidden();
});

test("the sandbox wallet checks merchantInfo.merchantId as Google's wallet does", async ({ page, server }) => {
  await page.goto(`${server.url}/healthz`);
  await page.addScriptTag({ url: `${server.url}/sandbox/wallet.js` });
  const attempt = (environment: string, merchantInfo: Record<string, string>) =>
    page.evaluate(
      async ({ environment, merchantInfo }) => {
        type Client = { loadPaymentData(request: unknown): Promise<unknown> };
        const { PaymentsClient } = (window as unknown as { google: { payments: { api: { PaymentsClient: new (o: object) => Client } } } }).google.payments.api;
        const request = {
          apiVersion: 2,
          apiVersionMinor: 0,
          merchantInfo: { merchantName: 'Shop', ...merchantInfo },
          allowedPaymentMethods: [{ type: 'CARD', parameters: { allowedAuthMethods: ['PAN_ONLY'], allowedCardNetworks: ['VISA'] }, tokenizationSpecification: { type: 'PAYMENT_GATEWAY', parameters: { gateway: 'g', gatewayMerchantId: 'mrchnt_1' } } }],
          transactionInfo: { totalPriceStatus: 'FINAL', totalPrice: '1.00', currencyCode: 'USD', countryCode: 'US' },
        };
        // A request that passes opens the sheet and waits for the shopper: a short race tells the two apart.
        const outcome = await Promise.race([new PaymentsClient({ environment }).loadPaymentData(request).catch((error: { statusCode: string; statusMessage: string }) => error), new Promise((resolve) => setTimeout(() => resolve('sheet open'), 500))]);
        return outcome;
      },
      { environment, merchantInfo },
    );

  expect(await attempt('PRODUCTION', {})).toEqual({ statusCode: 'DEVELOPER_ERROR', statusMessage: expect.stringMatching(/merchantId: is required in PRODUCTION \[GP3\]/) });
  expect(await attempt('PRODUCTION', { merchantId: 'mrchnt_4242' })).toEqual({ statusCode: 'DEVELOPER_ERROR', statusMessage: expect.stringMatching(/not a merchant id issued by Google/) });
  expect(await attempt('PRODUCTION', { merchantId: 'BCR2DN4TWXYZ1234' })).toBe('sheet open');
  await page.locator('[data-testid=sandbox-cancel]').click();
  expect(await attempt('TEST', {})).toBe('sheet open');
});

test("the sandbox wallet holds onPaymentAuthorized's reply to Google's PaymentAuthorizationResult, and closes the sheet on a bad one as Google's client does", async ({ page, server }) => {
  await page.goto(`${server.url}/healthz`);
  await page.addScriptTag({ url: `${server.url}/sandbox/wallet.js` });
  const answered = (reply: unknown) =>
    page.evaluate(async (reply) => {
      type Client = { loadPaymentData(request: unknown): Promise<unknown> };
      const { PaymentsClient } = (window as unknown as { google: { payments: { api: { PaymentsClient: new (o: object) => Client } } } }).google.payments.api;
      const client = new PaymentsClient({ environment: 'TEST', paymentDataCallbacks: { onPaymentAuthorized: () => reply } });
      return client
        .loadPaymentData({
          apiVersion: 2,
          apiVersionMinor: 0,
          merchantInfo: { merchantName: 'Shop' },
          allowedPaymentMethods: [{ type: 'CARD', parameters: { allowedAuthMethods: ['CRYPTOGRAM_3DS'], allowedCardNetworks: ['VISA'] }, tokenizationSpecification: { type: 'PAYMENT_GATEWAY', parameters: { gateway: 'walletcheckout', gatewayMerchantId: 'mrchnt_1' } } }],
          transactionInfo: { totalPriceStatus: 'FINAL', totalPrice: '1.00', currencyCode: 'USD', countryCode: 'US' },
          callbackIntents: ['PAYMENT_AUTHORIZATION'],
        })
        .then(() => 'paid', (error: unknown) => error);
    }, reply);

  for (const [reply, rule] of [
    [{ transactionState: 'DECLINED' }, /transactionState: must be one of SUCCESS, ERROR \[GP25\]/],
    [{ transactionState: 'ERROR', error: { reason: 'OTHER_ERROR', intent: 'SHIPPING_OPTION', message: 'No' } }, /error\.intent: SHIPPING_OPTION is not one of the request's callbackIntents \[GP25\]/],
  ] as const) {
    const outcome = answered(reply);
    await page.locator('[data-testid=sandbox-pay]').click();
    expect(await outcome).toEqual({ statusCode: 'DEVELOPER_ERROR', statusMessage: expect.stringMatching(rule) });
    await expect(page.locator('[data-testid=sandbox-wallet]')).toHaveCount(0);
  }
  const paid = answered({ transactionState: 'SUCCESS' });
  await page.locator('[data-testid=sandbox-pay]').click();
  expect(await paid).toBe('paid');
});
