/**
 * A shopper paying through the widget with the sandbox wallet, and what the
 * merchant and the payment service see afterwards. Gateway mode (the default):
 * the backend forwards the wallet's token as a `walletpay` charge.
 */
import type { BillingDetails, WalletAddress } from '../contracts';
import { expect, test } from './support/fixtures';

/** Sandbox wallet cards (docs/test-cards.md): their outcome is the card table's, not ours. */
const SUCCESS_CARD = 'visa-success-3ds';
const DECLINE_CARD = 'visa-decline-3ds';

/** The charge API's rule 2: the wallet's billing address fills the charge's billing fields, field by field. */
const billingDetailsOf = (address: WalletAddress): BillingDetails => ({
  name: address.name,
  address: {
    line1: address.address1,
    line2: address.address2,
    city: address.locality,
    state: address.administrativeArea,
    postal_code: address.postalCode,
    country: address.countryCode ?? '',
  },
});

test('a shopper pays on the demo store and the merchant confirms the order', async ({ shop, ledger, sandboxWallet }) => {
  const checkout = await shop.openDemo();
  const card = sandboxWallet.card(SUCCESS_CARD);

  const { payStatus } = await checkout.payWith(card.id);
  expect(payStatus).toBe(200);

  await checkout.expectState('paid');
  await expect(checkout.testId('card')).toHaveText(new RegExp(`${card.network}.*${card.last4}`, 'i'));
  // The demo page's own server confirmed it from the backend's signed webhook before saying so.
  await expect(checkout.page.locator('#order-status')).toHaveText(/confirmed/i);

  const session = await checkout.merchantView();
  expect(session.status).toBe('succeeded');
  const entries = await ledger.newEntries();
  expect(entries).toHaveLength(1);
  const charge = entries[0]?.charge;
  expect(charge).toMatchObject({
    status: 'succeeded',
    source_type: 'walletpay',
    amount: session.amount,
    currency: session.currency.toLowerCase(),
    card: { network: card.network, last4: card.last4, auth_method: card.auth_method },
  });
  expect(charge?.currency).toMatch(/^[a-z]{3}$/);
  expect(charge?.billing_details).toEqual(billingDetailsOf(sandboxWallet.billingAddress));
  expect(session.outcome?.charge_id).toBe(charge?.id);
  // What Google Pay verified of the card reaches the merchant: a device token's holder was authenticated.
  expect(session.outcome?.assurance_details).toEqual({ account_verified: true, card_holder_authenticated: true });
  expect(await checkout.events('checkout:success')).toEqual([{ sessionId: session.id, chargeId: charge?.id, status: 'succeeded' }]);
});

test('a declined card is told in the wallet\'s sheet, which stays open, and another card in it pays', async ({ shop, ledger }) => {
  const { checkout } = await shop.open();

  const { request } = await checkout.payWith(DECLINE_CARD);
  // The sheet says what happens: Pay (not Continue), for this session.
  expect(request.transactionInfo).toMatchObject({ checkoutOption: 'COMPLETE_IMMEDIATE_PURCHASE', transactionId: checkout.merchant.sessionId });
  const [declined] = await ledger.newEntries();
  expect(declined?.charge.status).toBe('failed');
  // The shopper reads the service's reason in the sheet, not a generic error, and the sheet stays open.
  const { sheet, message, pay } = checkout.sheet();
  await expect(message).toHaveText(declined?.charge.failure_message ?? 'a failure message');
  await expect(sheet).toBeVisible();
  await expect(pay).toHaveText('Pay');
  await checkout.expectState('declined');
  await expect(checkout.testId('status')).toHaveText(declined?.charge.failure_message ?? 'a failure message');
  expect(await checkout.events('checkout:decline')).toEqual([
    { sessionId: checkout.merchant.sessionId, chargeId: declined?.charge.id, code: declined?.charge.failure_code, message: declined?.charge.failure_message },
  ]);

  await checkout.payInOpenSheet(SUCCESS_CARD);
  await expect(sheet).toBeHidden();
  await checkout.expectState('paid');

  const entries = await ledger.newEntries();
  expect(entries.map((entry) => entry.charge.status)).toEqual(['failed', 'succeeded']);
  const keys = entries.map((entry) => entry.idempotency_key);
  expect(keys.every((key) => typeof key === 'string' && key.length > 0), 'every attempt carries an idempotency key').toBe(true);
  expect(new Set(keys).size, 'a new attempt is a new idempotency key').toBe(2);
  const session = await checkout.merchantView();
  expect(session).toMatchObject({ status: 'succeeded', attempts: 2, outcome: { charge_id: entries[1]?.charge.id } });
});

test('an amount in a three-decimal currency is shown and charged in ISO 4217 minor units, and asked of the wallet in two decimals', async ({ shop, ledger }) => {
  // ISO 4217 gives IQD three decimals where ICU gives none: 123450 minor units are 123.450 dinars.
  const { checkout } = await shop.open({ session: { amount: 123450, currency: 'IQD', country_code: 'IQ' } });
  await expect(checkout.testId('amount')).toContainText('123.450');

  // Google Pay takes at most two decimals (docs/api.md "Money"): its sheet is asked for 123.45.
  const sheet = await checkout.openWallet();
  await expect(sheet.locator('.total strong')).toContainText('123.45');
  await sheet.locator('[data-testid=sandbox-cancel]').click();
  await checkout.expectState('ready');

  const { request } = await checkout.payWith(SUCCESS_CARD);
  expect(request.transactionInfo).toMatchObject({ totalPrice: '123.45', currencyCode: 'IQD' });
  await checkout.expectState('paid');
  expect((await ledger.newEntries()).map((entry) => [entry.charge.amount, entry.charge.currency])).toEqual([[123450, 'iqd']]);
});

test('closing the wallet sheet returns to the button and charges nothing', async ({ shop, ledger }) => {
  const { checkout } = await shop.open();

  await checkout.cancelWallet();

  await checkout.expectState('ready');
  await expect(checkout.page.locator('[data-testid=sandbox-gpay-button]')).toBeVisible();
  expect(await checkout.events('checkout:cancel')).toEqual([{ sessionId: checkout.merchant.sessionId }]);
  expect(await ledger.newEntries()).toEqual([]);
  expect((await checkout.merchantView()).status).toBe('open');
});

test("the wallet's button is drawn once: a decline and Try again bring back the same button, not a new one", async ({ shop }) => {
  const { checkout } = await shop.open();
  const button = checkout.page.locator('[data-wallet-button] button');
  await button.evaluate((b) => void (b.dataset.drawnBefore = 'yes'));

  await checkout.payWith('visa-insufficient-funds-3ds');
  await checkout.expectState('declined');
  // The sheet stays open on a decline (it says why): the shopper closes it, then tries again.
  await checkout.page.locator('[data-testid=sandbox-cancel]').click();
  await checkout.testId('retry').click();
  await checkout.expectState('ready');

  await expect(button).toBeVisible();
  expect(await button.evaluate((b) => b.dataset.drawnBefore)).toBe('yes');
});

test('a page that rewrites the payment request cannot change the amount charged', async ({ page, shop, ledger }) => {
  // A hostile or buggy page: every public view the widget reads claims one cent.
  // The view's URL carries its key (api.ts fetchPublicSession): matched by path.
  await page.route((url) => /^\/api\/sessions\/[^/]+\/public$/.test(url.pathname), async (route) => {
    const response = await route.fetch();
    const view = (await response.json()) as { amount: number; payment_data_request: { transactionInfo: { totalPrice: string } } };
    view.amount = 1;
    view.payment_data_request.transactionInfo.totalPrice = '0.01';
    await route.fulfill({ response, json: view });
  });
  const { checkout, session } = await shop.open();
  await expect(checkout.testId('amount')).toContainText('0.01');

  const { request } = await checkout.payWith(SUCCESS_CARD);
  expect(request.transactionInfo?.totalPrice, 'the wallet was asked for the tampered price').toBe('0.01');
  await checkout.expectState('paid');

  const entries = await ledger.newEntries();
  expect(entries.map((entry) => entry.charge.amount)).toEqual([session.amount]);
  expect((await checkout.merchantView()).status).toBe('succeeded');
});

test('the pay endpoint refuses an amount sent by the browser and charges nothing', async ({ page, server, shop, ledger }) => {
  const { checkout, session } = await shop.open();
  const paymentData = await server.walletPaymentData(session, SUCCESS_CARD);

  // What a page script could post in the widget's place, with the widget's credentials.
  const reply = await page.evaluate(
    async ({ url, clientSecret, body }) => {
      const response = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${clientSecret}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as { error?: { code?: string; message?: string } } };
    },
    { url: `${server.url}/api/sessions/${session.id}/pay`, clientSecret: session.client_secret, body: { payment_data: paymentData, amount: 1 } },
  );

  expect(reply.status).toBe(400);
  expect(reply.body.error?.message).toMatch(/amount/);
  expect(await ledger.newEntries()).toEqual([]);
  expect((await checkout.merchantView()).status).toBe('open');
  // Nothing changed: the shopper can still pay the session's amount.
  await checkout.payWith(SUCCESS_CARD);
  await checkout.expectState('paid');
  expect((await ledger.newEntries()).map((entry) => entry.charge.amount)).toEqual([session.amount]);
});

test('two payments of one session at once (a double click) charge once', async ({ server, ledger }) => {
  const { secretKey } = await server.merchant({ merchant_id: 'm_double_click', allowed_origins: [server.url] });
  const session = await server.createSession(secretKey);
  // Two wallet tokens, as two clicks on the wallet would produce.
  const [first, second] = await Promise.all([server.walletPaymentData(session, SUCCESS_CARD), server.walletPaymentData(session, SUCCESS_CARD)]);

  const replies = await Promise.all([server.pay(session, { payment_data: first }), server.pay(session, { payment_data: second })]);

  expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409]);
  const refused = replies.find((reply) => reply.status === 409);
  expect(((await refused?.json()) as { error?: { code?: string } }).error?.code).toBeTruthy();
  const entries = await ledger.newEntries();
  expect(entries).toHaveLength(1);
  expect(entries[0]?.charge).toMatchObject({ status: 'succeeded', amount: session.amount });
});
