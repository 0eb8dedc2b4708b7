/**
 * The flows that matter to a shopper, in every engine a project names
 * (playwright.config.ts: Chromium, Firefox ESR, WebKitGTK): each step written
 * once over the engine-neutral driver. The Chromium-only specs beside them go
 * further (CSP, pixels, clocks, request tampering); these keep the widget working
 * wherever shoppers pay.
 */
import { merchantView } from '../support/checkout-page';
import { demoSecretKey, type Ledger } from '../support/fixtures';
import { expect, test } from './fixtures';
import { Shopper } from './shopper';

/** This test's charges, as [status, failure code]. */
const ledgerOutcomes = async (ledger: Ledger) => (await ledger.newEntries()).map((entry) => [entry.charge.status, entry.charge.failure_code ?? null]);

for (const [card, authMethod] of [
  ['visa-success-pan', 'PAN_ONLY'],
  ['visa-success-3ds', 'CRYPTOGRAM_3DS'],
] as const) {
  test(`a shopper pays with a ${authMethod} card and the merchant's server sees it paid`, async ({ openShop, ledger }) => {
    const { shopper, merchantView, sessionId } = await openShop();
    await shopper.payWith(card);
    await shopper.expectState('paid');
    await shopper.expectText('[data-testid=card]', /Visa.*1111/);
    expect(await shopper.events('checkout:success')).toEqual([{ sessionId, chargeId: expect.any(String), status: 'succeeded' }]);
    expect((await merchantView()).status).toBe('succeeded');
    const entries = await ledger.newEntries();
    expect(entries.map((entry) => [entry.charge.status, entry.charge.card?.auth_method])).toEqual([['succeeded', authMethod]]);
  });
}

test('a 3-D Secure challenge completed in its dialog pays', async ({ openShop, ledger }) => {
  const { shopper, merchantView } = await openShop();
  await shopper.payWith('visa-3ds-required-pan');
  await shopper.expectState('authenticating');
  await shopper.answerChallenge('Complete authentication');
  await shopper.expectState('paid');
  await shopper.expectVisible('[data-testid=challenge]', false);
  expect(await merchantView()).toMatchObject({ status: 'succeeded', attempts: 2 });
  expect(await ledgerOutcomes(ledger)).toEqual([
    ['failed', 'authentication_required'],
    ['succeeded', null],
  ]);
});

test('a 3-D Secure challenge cancelled declines the payment as abandoned, and nothing is charged', async ({ openShop, ledger }) => {
  const { shopper, merchantView, sessionId } = await openShop();
  await shopper.payWith('visa-3ds-required-pan');
  await shopper.expectVisible('[data-testid=challenge]', true);
  await shopper.click({ css: '[data-testid=challenge-cancel]' });
  await shopper.expectState('declined');
  await shopper.expectVisible('[data-testid=challenge]', false);
  expect((await shopper.events('checkout:decline')).map((event) => [event.sessionId, event.code])).toEqual([[sessionId, 'authentication_abandoned']]);
  expect((await merchantView()).status).toBe('declined');
  expect(await ledgerOutcomes(ledger)).toEqual([['failed', 'authentication_required']]);
});

test("a declined card is told in the wallet's sheet, and another card in it pays", async ({ openShop, ledger }) => {
  const { shopper, merchantView } = await openShop();
  await shopper.payWith('visa-decline-3ds');
  await shopper.expectState('declined');
  await shopper.expectText('[data-testid=sandbox-wallet] [role=alert]', /declined/i);
  await shopper.expectText('[data-testid=status]', /declined/i);

  await shopper.payInSheet('mastercard-success-3ds');
  await shopper.expectVisible('[data-testid=sandbox-wallet]', false);
  await shopper.expectState('paid');
  expect(await merchantView()).toMatchObject({ status: 'succeeded', attempts: 2 });
  expect(await ledgerOutcomes(ledger)).toEqual([
    ['failed', 'card_declined'],
    ['succeeded', null],
  ]);
});

test('a hold is placed, shown as authorized, and shown captured once the merchant captures it', async ({ openShop, ledger, server }) => {
  const { shopper, merchantView, sessionId, secretKey } = await openShop({ session: { intent: 'hold', amount: 2400, currency: 'USD' } });
  await shopper.payWith('visa-success-3ds');
  await shopper.expectState('paid');
  await shopper.expectText('[data-testid=status]', /authorized/i);
  expect(await shopper.events('checkout:success')).toEqual([{ sessionId, chargeId: expect.any(String), status: 'authorized' }]);

  expect((await server.merchantPost(secretKey, `/api/sessions/${sessionId}/capture`, { amount: 1000 })).status).toBe(200);
  // The tab coming back into view makes the widget look again.
  await shopper.driver.evaluate(() => document.dispatchEvent(new Event('visibilitychange')), undefined);
  await shopper.expectState('captured');
  await shopper.expectText('[data-testid=amount]', '$10.00');
  expect(await merchantView()).toMatchObject({ status: 'captured', amount_captured: 1000 });
  expect((await ledger.newEntries()).map((entry) => [entry.operation, entry.charge.status])).toEqual([
    ['charge', 'held'],
    ['capture', 'succeeded'],
  ]);
});

test("express delivery chosen in the wallet's sheet is priced by the server, and the charge is its quote", async ({ openShop, ledger }) => {
  const shipping = {
    countries: ['US', 'GB'],
    options: [
      { id: 'standard', label: 'Standard', amount: 500 },
      { id: 'express', label: 'Express', amount: 1500, countries: ['US'] },
    ],
  };
  const { shopper, merchantView } = await openShop({ session: { amount: 2400, shipping } });
  await shopper.openWallet();
  // The backend's first quote: the goods and the default (Standard) option.
  await shopper.expectText('[data-testid=sandbox-total]', /\$29\.00$/);
  await shopper.click({ css: 'input[name=sandbox-shipping-option][value=express]' });
  await shopper.expectText('[data-testid=sandbox-total]', /\$39\.00$/);
  await shopper.payInSheet('visa-success-3ds');
  await shopper.expectState('paid');
  expect(await merchantView()).toMatchObject({ amount: 2400, amount_charged: 3900, shipping_option: { id: 'express' } });
  expect((await ledger.newEntries()).map((entry) => [entry.charge.status, entry.charge.amount])).toEqual([['succeeded', 3900]]);
});

test("the demo's product page: the address, the delivery option and WELCOME10 are priced by the store's quote endpoint, and the charge is exactly the last quote", async ({ driver, server, ledger }) => {
  await driver.goto(`${server.url}/product`);
  const shopper = new Shopper(driver);
  const total = '[data-testid=sandbox-total]';
  await shopper.openWallet();
  // The demo's zones (demo/server/quote-prices.ts): San Francisco with California's tax, then London, then back.
  await shopper.expectText(total, /\$30\.74$/);
  await shopper.click({ css: 'input[name=sandbox-shipping-address][value=gb-office]' });
  await shopper.expectText(total, /\$38\.00$/);
  await shopper.click({ css: 'input[name=sandbox-shipping-address][value=us-home]' });
  await shopper.expectText(total, /\$30\.74$/);
  await shopper.click({ css: 'input[name=sandbox-shipping-option][value=express]' });
  await shopper.expectText(total, /\$40\.74$/);
  await shopper.type({ css: '[data-testid=sandbox-offer-code]' }, 'WELCOME10');
  await shopper.click({ css: '[data-testid=sandbox-offer-apply]' });
  await shopper.expectText('[data-testid=sandbox-offer]', 'WELCOME10 Welcome: 10% off');
  await shopper.expectText(total, /\$38\.17$/);
  await shopper.payInSheet('visa-success-3ds');
  await shopper.expectState('paid');
  // The store's own record of the order, from its webhook.
  await shopper.expect('#order-status', 'confirmed by the store', (el) => el?.attributes['data-order-status'] === 'succeeded');
  const sessionView = (await shopper.read('script[data-session-view]'))?.attributes['data-session-view'];
  const sessionId = (JSON.parse(sessionView ?? '{}') as { id?: string }).id ?? '';
  const view = await merchantView(server, { sessionId, secretKey: demoSecretKey(server) });
  expect(view).toMatchObject({ status: 'succeeded', amount_charged: 3817, shipping_option: { id: 'express' }, quote: { total: 3817, promotion_codes: [{ code: 'WELCOME10' }] } });
  expect((await ledger.newEntries()).map((entry) => [entry.charge.status, entry.charge.amount])).toEqual([['succeeded', view.quote?.total]]);
});

test("the widget in the merchant's iframe embedding pays, 3-D Secure included, and its events reach the page", async ({ openShop, ledger }) => {
  const { shopper, merchantView, sessionId } = await openShop({ iframe: true });
  await shopper.payWith('visa-3ds-required-pan');
  await shopper.expectState('authenticating');
  await shopper.answerChallenge('Complete authentication');
  await shopper.expectState('paid');
  await expect.poll(() => shopper.events('checkout:success')).toEqual([{ sessionId, chargeId: expect.any(String), status: 'succeeded' }]);
  expect((await merchantView()).status).toBe('succeeded');
  expect(await ledgerOutcomes(ledger)).toEqual([
    ['failed', 'authentication_required'],
    ['succeeded', null],
  ]);
});

test('a shopper pays with the keyboard alone: a decline, Try again, then another card', async ({ openShop, sandboxWallet }) => {
  const { shopper } = await openShop();
  const { driver } = shopper;
  /** The sheet opens on its first card, focused (once the list has come): arrows move the choice along the list. */
  const chooseCard = async (id: string) => {
    await shopper.expectFocused(`input[name=sandbox-card][value="${sandboxWallet.cards[0]?.id}"]`);
    const index = sandboxWallet.cards.findIndex((card) => card.id === id);
    for (let i = 0; i < index; i++) await driver.press('ArrowDown');
    await shopper.expect(`input[name=sandbox-card][value="${id}"]`, 'checked', (el) => !!el?.checked);
    // Past the billing address group (one tab stop, its first address chosen) and Cancel, to Pay.
    await driver.press('Tab');
    await shopper.expectFocused('input[name=sandbox-billing-address]:checked');
    await driver.press('Tab');
    await driver.press('Tab');
    await shopper.expectFocused('[data-testid=sandbox-pay]');
    await driver.press('Enter');
  };
  await driver.press('Tab');
  await shopper.expectFocused('[data-testid=sandbox-gpay-button]');
  await driver.press('Enter');
  await chooseCard('visa-decline-3ds');
  await shopper.expectState('declined');
  await shopper.expectText('[data-testid=sandbox-wallet] [role=alert]', /declined/i);
  // Closing the sheet leaves the focus on "Try again".
  await driver.press('Escape');
  await shopper.expectFocused('[data-testid=retry]');
  await driver.press('Enter');
  await shopper.expectState('ready');
  await shopper.expectFocused('[data-testid=sandbox-gpay-button]');
  await driver.press('Enter');
  await chooseCard('visa-success-3ds');
  await shopper.expectState('paid');
});

test('axe finds no violation in the widget, ready and declined', async ({ openShop }) => {
  const { shopper } = await openShop();
  expect(await shopper.axeViolations()).toEqual([]);
  await shopper.payWith('visa-decline-3ds');
  await shopper.expectState('declined');
  await shopper.driver.press('Escape');
  await shopper.expectVisible('[data-testid=sandbox-wallet]', false);
  expect(await shopper.axeViolations()).toEqual([]);
});

test("on a page that names no language the widget and the wallet's sheet speak the browser's, or English when it reports none (WebKitGTK's 'C')", async ({ openShop }) => {
  const { shopper } = await openShop({ lang: '' });
  const browserLanguage = await shopper.driver.evaluate(() => navigator.language, undefined);
  await shopper.expectText('[data-testid=amount]', '$24.00');
  await shopper.openWallet();
  await shopper.expectText('[data-testid=sandbox-wallet] .total strong', '$24.00');
  // The widget's own lang: a tag that screen readers and axe accept, whatever the browser said.
  const widget = await shopper.read('[data-checkout-state]');
  expect(Intl.getCanonicalLocales(widget?.attributes.lang ?? ''), `browser language ${browserLanguage}`).toHaveLength(1);
  expect(widget?.attributes.lang).not.toMatch(/^(c|posix)$/i);
});

/** A card kept for a monthly subscription of $12.99 (docs/saved-cards.md). */
const monthly = { customer: 'cust_flows', usage: 'recurring', recurring: { interval: 'month', interval_count: 1, amount: 1299 } };

test('a subscription paid now shows the agreement before the button and in the sheet; paying records it and keeps the card', async ({ openShop, ledger }) => {
  const { shopper, merchantView } = await openShop({ session: { amount: 1299, currency: 'USD', save_payment_method: monthly } });
  await shopper.expectText('[data-testid=agreement]', /^You allow .+ to charge this card \$12\.99 every month for your subscription, without asking you each time/);
  await shopper.expectVisible('[data-testid=nothing-today]', false);
  await shopper.openWallet();
  await shopper.expectText('[data-testid=sandbox-future] .total', /\$12\.99 today$/);
  await shopper.expectText('[data-testid=sandbox-billing-agreement]', /every month/);
  await shopper.payInSheet('visa-success-3ds');
  await shopper.expectState('paid');
  const paid = await merchantView();
  expect(paid).toMatchObject({ status: 'succeeded', agreement: { id: 'saved_card.recurring.v1', text: expect.stringContaining('$12.99 every month') } });
  await expect.poll(async () => (await merchantView()).payment_method).toMatch(/^pm_/);
  expect((await ledger.newEntries()).filter((entry) => entry.operation === 'charge').map((entry) => [entry.charge.status, entry.charge.amount])).toEqual([['succeeded', 1299]]);
});

test('a setup says nothing is charged today beside the agreement, keeps the card, and charges nothing', async ({ openShop, ledger }) => {
  // A setup takes no amount: the harness's default one is left out (JSON drops undefined).
  const { shopper, merchantView } = await openShop({ session: { intent: 'setup', amount: undefined, currency: 'USD', save_payment_method: monthly } });
  await shopper.expectText('[data-testid=nothing-today]', 'Nothing is charged today.');
  await shopper.expectText('[data-testid=agreement]', /\$12\.99 every month/);
  await shopper.openWallet();
  await shopper.expectText('[data-testid=sandbox-future] .total', /\$0\.00 today$/);
  await shopper.payInSheet('visa-success-3ds');
  await expect.poll(async () => (await merchantView()).payment_method).toMatch(/^pm_/);
  expect((await merchantView()).agreement?.id).toBe('saved_card.recurring.v1');
  expect((await ledger.newEntries()).filter((entry) => entry.operation === 'charge').map((entry) => entry.charge.amount)).toEqual([0]);
});
