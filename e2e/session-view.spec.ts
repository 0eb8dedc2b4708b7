/**
 * The merchant's page hands the widget the session's public view (the creation reply's
 * `public_view`, docs/embedding.md): no request precedes the button, what the page shows
 * cannot change what is charged, and a stale view gives way to the backend's.
 */
import type { Page, Route } from '@playwright/test';
import type { CreatedSession } from '../contracts';
import type { TestServer } from '../testing/harness';
import { CheckoutPage } from './support/checkout-page';
import { expect, type MerchantSite, scriptTag, shopPage, test } from './support/merchant-site';

/** A request for a session's view; its URL carries the view key (api.ts fetchPublicSession). */
const isViewUrl = (url: URL) => /^\/api\/sessions\/[^/]+\/public$/.test(url.pathname);

/** The README's tag with `data-session-view`; counts the widget's requests for the view, and notes whether the button was up before the first. */
async function openWithView(page: Page, server: TestServer, site: MerchantSite, session: CreatedSession, view: unknown, path: string) {
  const viewRequests: boolean[] = [];
  page.on('request', (request) => {
    if (isViewUrl(new URL(request.url())) && request.method() === 'GET') viewRequests.push(true);
  });
  const tag = scriptTag(`${server.url}/checkout.js`, { 'data-client-secret': session.client_secret, 'data-target': '#pay', 'data-session-view': JSON.stringify(view) });
  await page.goto(site.page(path, shopPage('', `<div id="pay"></div>${tag}`)));
  return viewRequests;
}

test('a page that carries the session view shows the button with no request before it', async ({ page, server, site, ledger }) => {
  const { session, secretKey } = await site.checkout(server);
  expect(session.public_view?.id).toBe(session.id);
  // Every request for the view is held until the button is up: a widget that waited for one would never show it.
  const held: Route[] = [];
  await page.route(isViewUrl, (route) => void held.push(route));
  await openWithView(page, server, site, session, session.public_view, '/carried');
  const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
  await checkout.expectState('ready');
  await expect(page.locator('[data-testid=sandbox-gpay-button]')).toBeVisible();
  for (const route of held) await route.continue();
  await page.unroute(isViewUrl);
  await checkout.payWith('visa-success-3ds');
  await checkout.expectState('paid');
  expect((await ledger.newEntries()).map((entry) => entry.charge.amount)).toEqual([session.amount]);
});

test('a page that tampers with the view it carries shows its amount, but the session amount is charged', async ({ page, server, site, ledger }) => {
  const { session, secretKey } = await site.checkout(server);
  const view = structuredClone(session.public_view);
  if (!view) throw new Error('the creation reply carries no public view');
  view.amount = 1;
  view.payment_data_request.transactionInfo!.totalPrice = '0.01';
  await openWithView(page, server, site, session, view, '/tampered-view');
  const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
  await expect(checkout.testId('amount')).toContainText('0.01');
  const { request } = await checkout.payWith('visa-success-3ds');
  expect(request.transactionInfo?.totalPrice, 'the wallet was asked for the tampered price').toBe('0.01');
  await checkout.expectState('paid');
  expect((await ledger.newEntries()).map((entry) => entry.charge.amount)).toEqual([session.amount]);
});

test('a stale view (the session was paid since) gives way to the backend’s: the outcome, no button', async ({ page, server, site }) => {
  const { session, secretKey } = await site.checkout(server);
  const first = await openWithView(page, server, site, session, session.public_view, '/first');
  const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
  await checkout.payWith('visa-success-3ds');
  await checkout.expectState('paid');
  expect(first.length, 'the view was checked once, after the button').toBe(1);

  // The same page again, with the view of the session's creation: it still says "open".
  await page.reload();
  await checkout.expectState('paid');
  await expect(page.locator('[data-testid=sandbox-gpay-button]')).toBeHidden();
});

test('a view of another session is ignored, and the widget asks the backend', async ({ page, server, site }) => {
  const { session, secretKey } = await site.checkout(server);
  const other = await site.checkout(server);
  const viewRequests = await openWithView(page, server, site, session, other.session.public_view, '/other-view');
  const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
  await checkout.expectState('ready');
  await expect(checkout.testId('amount')).toBeVisible();
  expect(viewRequests.length).toBeGreaterThanOrEqual(1);
});

test("a carried view's page asks for the wallet's script before it formats the amount, so the page's first Intl work runs while the script downloads", async ({ page, server, site }) => {
  const { session, secretKey } = await site.checkout(server);
  // What the page did first: the wallet's script put in, or the first Intl.NumberFormat made (ICU's first use, 15 ms and more in Chromium).
  await page.addInitScript(() => {
    const order: string[] = [];
    (window as unknown as { order: string[] }).order = order;
    const NumberFormat = Intl.NumberFormat;
    (Intl as { NumberFormat: unknown }).NumberFormat = function (...args: ConstructorParameters<typeof Intl.NumberFormat>) {
      order.push('format');
      return new NumberFormat(...args);
    };
    const appendChild = Node.prototype.appendChild;
    Node.prototype.appendChild = function <T extends Node>(this: Node, child: T): T {
      if (child instanceof HTMLScriptElement && child.src.endsWith('/sandbox/wallet.js')) order.push('wallet script');
      return appendChild.call(this, child) as T;
    };
  });
  await openWithView(page, server, site, session, session.public_view, '/wallet-first');
  await new CheckoutPage(page, server, { sessionId: session.id, secretKey }).expectState('ready');
  const order = await page.evaluate(() => (window as unknown as { order: string[] }).order);
  expect(order.slice(0, 2)).toEqual(['wallet script', 'format']);
});

/** Counts the page's Intl.NumberFormat constructions (ICU's first use costs 15 ms and more in Chromium). */
async function countNumberFormats(page: Page) {
  await page.addInitScript(() => {
    const counted = { formats: 0 };
    (window as unknown as { counted: typeof counted }).counted = counted;
    const NumberFormat = Intl.NumberFormat;
    (Intl as { NumberFormat: unknown }).NumberFormat = function (...args: ConstructorParameters<typeof Intl.NumberFormat>) {
      counted.formats += 1;
      return new NumberFormat(...args);
    };
  });
  return () => page.evaluate(() => (window as unknown as { counted: { formats: number } }).counted.formats);
}

test("a view created in the page's locale shows the server's formatting of the amount, and the page formats no number before the button", async ({ page, server, site }) => {
  const { session, secretKey } = await site.checkout(server, { amount: 123456, currency: 'EUR', locale: 'fr_FR' });
  const display = session.public_view?.amount_display;
  expect(display?.locale).toBe('fr-FR');
  const formats = await countNumberFormats(page);
  const tag = scriptTag(`${server.url}/checkout.js`, { 'data-client-secret': session.client_secret, 'data-target': '#pay', 'data-locale': 'fr-FR', 'data-session-view': JSON.stringify(session.public_view) });
  await page.goto(site.page('/fr-view', shopPage('', `<div id="pay"></div>${tag}`)));
  const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
  await checkout.expectState('ready');
  expect(await formats()).toBe(0);
  await expect(checkout.testId('amount')).toHaveText(display?.text ?? 'no display');
  // The browser's own formatting of the same amount reads the same: the server's text is no other wording.
  expect(await page.evaluate(() => new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(1234.56))).toBe(display?.text);
});

test('a view formatted for another locale than the widget speaks is formatted by the widget in its own', async ({ page, server, site }) => {
  const { session, secretKey } = await site.checkout(server, { amount: 123456, currency: 'EUR', locale: 'en' });
  expect(session.public_view?.amount_display?.text).toBe('€1,234.56');
  const tag = scriptTag(`${server.url}/checkout.js`, { 'data-client-secret': session.client_secret, 'data-target': '#pay', 'data-locale': 'de', 'data-session-view': JSON.stringify(session.public_view) });
  await page.goto(site.page('/de-view', shopPage('', `<div id="pay"></div>${tag}`)));
  const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
  await checkout.expectState('ready');
  await expect(checkout.testId('amount')).toHaveText('1.234,56 €');
});
