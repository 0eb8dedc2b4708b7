/**
 * The widget and the sandbox wallet beside a host page's changes to the built-ins (docs/embedding.md,
 * "The page's built-ins"): on a store running Prototype.js 1.6, loaded before the widget as old Magento
 * and osCommerce stores load it (e2e/support/prototype-1.6.js reproduces what it does to the built-ins),
 * a shopper pays with a PAN_ONLY card, with one that goes through 3-D Secure, and with a CRYPTOGRAM_3DS
 * card, inline and in iframe mode, and the page can unmount the widget from an element it emptied; and a
 * page that replaces fetch, JSON, CustomEvent and Promise once the widget has loaded does not reach the
 * payment's calls.
 */
import { readFileSync } from 'node:fs';
import { mergeTests, type Page } from '@playwright/test';
import type { CreatedSession } from '../contracts';
import type { TestServer } from '../testing/harness';
import { test as kitTest } from '../packages/qa-kit/src';
import { CheckoutPage, checkoutEvents } from './support/checkout-page';
import { expect, type MerchantSite, scriptTag, shopPage, test as siteTest } from './support/merchant-site';

const test = mergeTests(siteTest, kitTest);

const PROTOTYPE_16 = readFileSync(new URL('./support/prototype-1.6.js', import.meta.url), 'utf8');

/** A store's page: Prototype first in its head, as those stores load it; the widget's tag (deferred) at the end. */
async function openStore(page: Page, server: TestServer, site: MerchantSite, session: CreatedSession, path: string, attributes: Record<string, string> = {}) {
  site.page('/js/prototype.js', PROTOTYPE_16, { 'content-type': 'text/javascript; charset=utf-8' });
  const tag = scriptTag(`${server.url}/checkout.js`, { 'data-client-secret': session.client_secret, 'data-target': '#pay', ...attributes });
  await page.goto(site.page(path, shopPage('<script src="/js/prototype.js"></script>', `<h1>Magento-era store</h1><div id="pay"></div>${tag}`)));
  // The page's built-ins are Prototype's: the browser's JSON.stringify now quotes arrays and dates.
  expect(await page.evaluate(() => JSON.stringify({ methods: ['CARD'], at: new Date(0) }))).toBe('{"methods":"[\\"CARD\\"]","at":"\\"1970-01-01T00:00:00Z\\""}');
}

const cards = [
  { card: 'visa-success-pan', what: 'a PAN_ONLY card' },
  { card: 'mastercard-success-3ds', what: 'a CRYPTOGRAM_3DS card, the page handing over the session view', carryView: true },
  { card: 'visa-3ds-required-pan', what: "a PAN_ONLY card through the bank's 3-D Secure challenge", challenge: true },
];

for (const { card, what, carryView, challenge } of cards) {
  test(`beside Prototype.js 1.6, a shopper pays with ${what} (${card}) and the merchant's server reads the session paid`, async ({ page, server, site, ledger, walletCheckout }) => {
    const { session, secretKey } = await site.checkout(server);
    await openStore(page, server, site, session, `/store-${card}`, carryView ? { 'data-session-view': JSON.stringify(session.public_view) } : {});
    const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
    await checkout.expectState('ready');

    const payment = await checkout.payWith(card);
    // What the wallet sent is what the widget asked, arrays as arrays: not Prototype's strings of JSON.
    expect(payment.request.allowedPaymentMethods).toEqual(session.public_view?.payment_data_request.allowedPaymentMethods);
    expect(payment.payStatus).toBe(200);
    if (challenge) await walletCheckout.challenge(page, 'complete');
    await checkout.expectState('paid');

    await expect.poll(() => checkoutEvents(page, 'checkout:success')).toEqual([{ sessionId: session.id, chargeId: expect.any(String), status: 'succeeded' }]);
    expect(await checkoutEvents(page, 'checkout:error')).toEqual([]);
    // Each event's detail is plain data: the page's JSON.stringify, Prototype's toJSONs and all, writes it as it is.
    const details = await page.evaluate(() => (window as unknown as { __checkoutEvents: { detail: unknown }[] }).__checkoutEvents.map(({ detail }) => ({ detail, json: JSON.stringify(detail) })));
    expect(details.length).toBeGreaterThan(1);
    for (const { detail, json } of details) expect(JSON.parse(json)).toEqual(detail);
    expect((await checkout.merchantView()).status).toBe('succeeded');
    const charges = (await ledger.newEntries()).map((entry) => entry.charge);
    expect(charges.map((charge) => [charge.status, charge.amount])).toEqual(challenge ? [['failed', session.amount], ['succeeded', session.amount]] : [['succeeded', session.amount]]);
  });
}

test('in iframe mode beside Prototype.js 1.6, the page side relays the events and the shopper pays in the frame', async ({ page, server, site, walletCheckout }) => {
  const { session, secretKey } = await site.checkout(server);
  await openStore(page, server, site, session, '/store-iframe', { 'data-mode': 'iframe' });
  const frame = walletCheckout.frame(page);
  await walletCheckout.pay(frame, { card: 'visa-success-3ds' });
  await walletCheckout.expectOutcome(frame, 'paid');
  await expect.poll(() => checkoutEvents(page, 'checkout:success')).toEqual([{ sessionId: session.id, chargeId: expect.any(String), status: 'succeeded' }]);
  expect((await new CheckoutPage(page, server, { sessionId: session.id, secretKey }).merchantView()).status).toBe('succeeded');
});

test("beside Prototype.js 1.6, whose remove() throws on an element with no parent, a page that emptied the widget's element can still unmount it, inline and in iframe mode", async ({ page, server, site }) => {
  const inline = await site.checkout(server);
  const framed = await site.checkout(server);
  site.page('/js/prototype.js', PROTOTYPE_16, { 'content-type': 'text/javascript; charset=utf-8' });
  await page.goto(site.page('/store-spa', shopPage(`<script src="/js/prototype.js"></script><script src="${server.url}/checkout.js"></script>`, '<div id="inline"></div><div id="framed"></div>')));
  await page.evaluate(([inlineSecret, framedSecret]) => {
    const w = window as unknown as { WalletCheckout: { mount(el: Element, o: object): unknown }; handles: unknown[] };
    w.handles = [
      w.WalletCheckout.mount(document.getElementById('inline') as HTMLElement, { clientSecret: inlineSecret }),
      w.WalletCheckout.mount(document.getElementById('framed') as HTMLElement, { clientSecret: framedSecret, mode: 'iframe' }),
    ];
  }, [inline.session.client_secret, framed.session.client_secret]);
  await new CheckoutPage(page, server, { sessionId: inline.session.id, secretKey: inline.secretKey }).expectState('ready');
  await expect(page.locator('#framed iframe[data-wallet-checkout-frame]')).toHaveCount(1);
  // The page redraws its step as Prototype's pages do ($('pay').update('')), then lets the widgets go.
  const errors = await page.evaluate(() => {
    const w = window as unknown as { $(id: string): { update(html: string): void }; handles: { unmount(): void }[] };
    w.$('inline').update('');
    w.$('framed').update('');
    return w.handles.flatMap((handle) => {
      try {
        handle.unmount();
        return [];
      } catch (error) {
        return [String(error)];
      }
    });
  });
  expect(errors).toEqual([]);
});

test('a page that replaces fetch, JSON, CustomEvent and Promise once the widget has loaded does not reach the payment', async ({ page, server, site }) => {
  const { session, secretKey } = await site.checkout(server);
  // The after-click chunk is held until the page has replaced them: its copy of the calls must still use the built-ins the first script took.
  let releaseChunk: () => void = () => undefined;
  const chunkHeld = new Promise<void>((resolve) => (releaseChunk = resolve));
  await page.route(/\/checkout-chunk-payment-flow\.[0-9a-f]{12}\.js$/, async (route) => {
    await chunkHeld;
    await route.continue();
  });
  await page.goto(site.page('/replacing-store', shopPage('', `<div id="pay"></div>${scriptTag(`${server.url}/checkout.js`, { 'data-client-secret': session.client_secret, 'data-target': '#pay' })}`)));
  const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
  await checkout.expectState('ready');
  await page.evaluate(() => {
    const w = window as unknown as Record<string, unknown> & { __replaced: string[] };
    const replaced: string[] = (w.__replaced = []);
    const broken = (name: string) =>
      function () {
        replaced.push(name);
        throw new Error(`the page's ${name}`);
      };
    w.fetch = broken('fetch');
    w.CustomEvent = broken('CustomEvent');
    w.Promise = broken('Promise');
    JSON.stringify = broken('JSON.stringify') as typeof JSON.stringify;
    JSON.parse = broken('JSON.parse') as typeof JSON.parse;
  });
  releaseChunk();

  const payment = await checkout.payWith('visa-success-3ds');
  expect(payment.payStatus).toBe(200);
  await checkout.expectState('paid');
  await expect.poll(() => checkoutEvents(page, 'checkout:success')).toEqual([{ sessionId: session.id, chargeId: expect.any(String), status: 'succeeded' }]);
  expect(await page.evaluate(() => (window as unknown as { __replaced: string[] }).__replaced)).toEqual([]);
  expect((await checkout.merchantView()).status).toBe('succeeded');
});
