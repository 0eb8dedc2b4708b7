/**
 * A session that keeps the card (docs/saved-cards.md): the widget shows the agreement the shopper gives by
 * paying before its button, in the shopper's language with the terms in their locale, a setup's
 * nothing-charged-today, and the payment names the agreement shown, which the backend records.
 */
import { expect, test } from './support/fixtures';
import { CheckoutPage } from './support/checkout-page';

const monthly = { customer: 'cust_e2e', usage: 'recurring', recurring: { interval: 'month', interval_count: 1, amount: 1299 } };

test('a subscription paid now: the agreement is shown as the server wrote it in English, the payment records it and keeps the card', async ({ shop }) => {
  const { checkout, session } = await shop.open({ session: { amount: 1299, currency: 'USD', save_payment_method: monthly } });
  const agreement = session.public_view!.save_payment_method!.agreement;
  await expect(checkout.testId('agreement')).toHaveText(agreement.text);
  await expect(checkout.testId('nothing-today')).toHaveCount(0);

  const { payStatus } = await checkout.payWith('visa-success-3ds');
  expect(payStatus).toBe(200);
  await checkout.expectState('paid');
  const paid = await checkout.merchantView();
  expect(paid.agreement).toMatchObject({ id: agreement.id, text: agreement.text });
  await expect.poll(async () => (await checkout.merchantView()).payment_method).toMatch(/^pm_/);
});

test('a setup charges nothing today and says so beside the agreement; the card is kept', async ({ shop }) => {
  // A setup takes no amount: the harness's default one is left out (JSON drops undefined).
  const { checkout, session } = await shop.open({ session: { intent: 'setup', amount: undefined, currency: 'USD', save_payment_method: monthly } });
  await expect(checkout.testId('nothing-today')).toHaveText('Nothing is charged today.');
  await expect(checkout.testId('agreement')).toHaveText(session.public_view!.save_payment_method!.agreement.text);
  const { payStatus } = await checkout.payWith('visa-success-3ds');
  expect(payStatus).toBe(200);
  await expect.poll(async () => (await checkout.merchantView()).payment_method).toMatch(/^pm_/);
});

test('in German, the agreement is German with the amount in German format, and paying records the agreement shown', async ({ page, server }) => {
  const { secretKey } = await server.merchant({ merchant_id: `m_de_${Date.now()}`, allowed_origins: [server.url] });
  const session = await server.createSession(secretKey, { amount: 1299, currency: 'EUR', country_code: 'DE', save_payment_method: { ...monthly, recurring: { ...monthly.recurring, interval_count: 3 } } });
  const url = `${server.url}/test-shop-de/${session.id}`;
  const html = `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Shop</title></head><body><div id="pay"></div><script src="${server.url}/checkout.js" data-client-secret="${session.client_secret}" data-target="#pay" defer></script></body></html>`;
  await page.route(url, (route) => route.fulfill({ contentType: 'text/html', body: html }));
  await page.goto(url);
  const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
  await checkout.expectState('ready');
  await expect(checkout.testId('agreement')).toContainText(/^Sie erlauben .+, diese Karte alle 3 Monate mit 12,99\s€ für Ihr Abonnement zu belasten/);
  const { payStatus } = await checkout.payWith('visa-success-3ds');
  expect(payStatus).toBe(200);
  expect((await checkout.merchantView()).agreement?.id).toBe(session.public_view!.save_payment_method!.agreement.id);
});
