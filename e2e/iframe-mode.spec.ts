/**
 * Iframe mode (docs/embedding.md), as a merchant on a site of their own uses
 * it: the tag places our checkout frame and nothing else, under a strict CSP
 * that allows no payment script; a shopper pays in the frame, 3-D Secure
 * included, driven by the QA kit through a FrameLocator; the widget's events
 * reach the merchant's page, and nothing a foreign window posts does. A page
 * the app does not allow gets the frame's refusal.
 */
import { type Page, mergeTests } from '@playwright/test';
import { test as kitTest } from '../packages/qa-kit/src';
import { checkoutEvents } from './support/checkout-page';
import { en } from '../web/checkout/locales/en';
import { CheckoutPage } from './support/checkout-page';
import { expect, NONCE, recordCspViolations, scriptTag, shopPage, test as siteTest } from './support/merchant-site';

const test = mergeTests(siteTest, kitTest);

/** The merchant's policy for iframe mode: the checkout tag's script, our frame, and nothing the shop does not do itself. */
const strictCsp = (checkoutOrigin: string) =>
  `default-src 'self'; script-src 'nonce-${NONCE}' ${checkoutOrigin}; style-src 'nonce-${NONCE}'; frame-src ${checkoutOrigin}; connect-src 'self'; img-src 'self' data:`;

/** CSP violations inside our checkout frame (recordCspViolations records in every frame). */
const frameViolations = (page: Page) => {
  const frame = page.frames().find((candidate) => candidate.url().endsWith('/frame'));
  if (!frame) throw new Error('no checkout frame on the page');
  return frame.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
};

test('a merchant page under a strict CSP places only our frame, and a shopper pays in it with the events reaching the page', async ({ page, server, site, ledger, walletCheckout }) => {
  const { session, secretKey } = await site.checkout(server);
  const violations = await recordCspViolations(page);
  const tag = scriptTag(`${server.url}/checkout.js`, { nonce: NONCE, 'data-mode': 'iframe', 'data-client-secret': session.client_secret, 'data-target': '#pay', 'data-locale': 'fr', 'data-theme': 'dark' });
  await page.goto(site.page('/iframe-shop', shopPage('', `<div id="pay"></div>${tag}`), { 'content-security-policy': strictCsp(server.url) }));

  const frameElement = page.locator('#pay iframe[data-wallet-checkout-frame]');
  // The client secret went by postMessage: the frame's URL, hence our logs and its Referer, never see it.
  await expect(frameElement).toHaveAttribute('src', `${server.url}/frame`);
  await expect(frameElement).toHaveAttribute('sandbox', 'allow-scripts allow-same-origin allow-popups allow-forms');
  await expect(frameElement).toHaveAttribute('allow', 'payment');
  const frame = walletCheckout.frame(page);
  await walletCheckout.expectOutcome(frame, 'ready');
  // The page's options reached the widget in the frame.
  await expect(frame.locator('[data-wallet-checkout]')).toHaveAttribute('data-theme', 'dark');
  await expect(frame.locator('[data-testid=amount]')).toHaveText(/24,00\s\$/);
  // Sized to the widget: no scrollbar, no empty space.
  const widgetHeight = await frame.locator('#checkout').evaluate((el) => Math.ceil(el.getBoundingClientRect().height));
  expect(widgetHeight).toBeGreaterThan(40);
  await expect.poll(async () => (await frameElement.boundingBox())?.height).toBe(widgetHeight);

  await walletCheckout.pay(frame, { card: 'visa-success-3ds' });
  await walletCheckout.expectOutcome(frame, 'paid');
  await expect.poll(() => checkoutEvents(page, 'checkout:success')).toEqual([{ sessionId: session.id, chargeId: expect.any(String), status: 'succeeded' }]);
  expect(await checkoutEvents(page, 'checkout:ready')).toEqual([{ sessionId: session.id, paymentMethodPresent: expect.anything() }]);
  expect(await checkoutEvents(page, 'checkout:error')).toEqual([]);

  // Nothing of the payment ran in the merchant's page: no widget, no wallet script, no call to the checkout.
  await expect(page.locator('[data-wallet-checkout]')).toHaveCount(0);
  await expect(page.locator('script[src*="wallet"], script[src*="pay.google.com"]')).toHaveCount(0);
  expect(await violations()).toEqual([]);
  expect(await frameViolations(page)).toEqual([]);
  expect((await ledger.newEntries()).map((entry) => entry.charge.amount)).toEqual([session.amount]);
  expect((await new CheckoutPage(page, server, { sessionId: session.id, secretKey }).merchantView()).status).toBe('succeeded');
});

test('the 3-D Secure challenge opens in the frame, which covers the viewport until it closes', async ({ page, server, site, walletCheckout }) => {
  const { session } = await site.checkout(server);
  await page.goto(site.page('/iframe-3ds', shopPage('', `<h1>My shop</h1><div id="pay"></div>${scriptTag(`${server.url}/checkout.js`, { nonce: NONCE, 'data-mode': 'iframe', 'data-client-secret': session.client_secret, 'data-target': '#pay' })}`), { 'content-security-policy': strictCsp(server.url) }));
  const frameElement = page.locator('iframe[data-wallet-checkout-frame]');
  const frame = walletCheckout.frame(page);
  await walletCheckout.pay(frame, { card: 'visa-3ds-required-pan' });
  await walletCheckout.expectOutcome(frame, 'authenticating');
  const viewport = page.viewportSize();
  await expect.poll(async () => await frameElement.boundingBox()).toEqual({ x: 0, y: 0, width: viewport?.width, height: viewport?.height });
  await walletCheckout.challenge(frame, 'complete');
  await walletCheckout.expectOutcome(frame, 'paid');
  // Back in its place under the heading, at the widget's height.
  await expect.poll(async () => (await frameElement.boundingBox())?.y).toBeGreaterThan(0);
  expect((await frameElement.boundingBox())?.height).toBeLessThan(viewport?.height ?? 0);
  await expect.poll(() => checkoutEvents(page, 'checkout:success')).toEqual([{ sessionId: session.id, chargeId: expect.any(String), status: 'succeeded' }]);
});

test('messages from a window other than our frame are ignored, and the JavaScript API mounts the frame and updates it', async ({ page, server, site, walletCheckout }) => {
  const { session } = await site.checkout(server);
  // Another origin of the same site server: localhost, not 127.0.0.1.
  const foreignOrigin = site.origin.replace('127.0.0.1', 'localhost');
  site.page(
    '/forger',
    shopPage('', `<script>
      parent.postMessage({ type: 'wallet-checkout:event', name: 'checkout:success', detail: { sessionId: 'cs_forged', chargeId: 'ch_forged', status: 'succeeded' } }, '*');
      parent.postMessage({ type: 'wallet-checkout:layout', height: 4000, overlay: true }, '*');
      parent.postMessage('forger:done', '*');
    </script>`),
  );
  await page.goto(site.page('/iframe-js', shopPage('', `<div id="pay"></div><script src="${server.url}/checkout.js"></script>`)));
  await page.evaluate((clientSecret) => {
    const w = window as unknown as { WalletCheckout: { mount(el: Element, o: object): unknown }; handle: unknown };
    w.handle = w.WalletCheckout.mount(document.getElementById('pay') as HTMLElement, { clientSecret, mode: 'iframe' });
  }, session.client_secret);
  const frame = walletCheckout.frame(page);
  await walletCheckout.expectOutcome(frame, 'ready');
  const frameElement = page.locator('iframe[data-wallet-checkout-frame]');
  const settled = await frameElement.boundingBox();

  await page.evaluate((src) => {
    const forger = document.createElement('iframe');
    forger.src = src;
    document.body.append(forger);
    return new Promise<void>((done) => window.addEventListener('message', (e) => e.data === 'forger:done' && done()));
  }, `${foreignOrigin}/forger`);
  // And the page itself, whose origin is not the checkout's.
  await page.evaluate(() => window.postMessage({ type: 'wallet-checkout:event', name: 'checkout:decline', detail: { sessionId: 'cs_forged', chargeId: null, code: null, message: 'forged' } }, '*'));
  expect(await checkoutEvents(page, 'checkout:success')).toEqual([]);
  expect(await checkoutEvents(page, 'checkout:decline')).toEqual([]);
  expect(await frameElement.boundingBox()).toEqual(settled);

  await page.evaluate(() => (window as unknown as { handle: { update(o: object): void } }).handle.update({ theme: 'dark', locale: 'de' }));
  await expect(frame.locator('[data-wallet-checkout]')).toHaveAttribute('data-theme', 'dark');
  await expect(frame.locator('[data-testid=amount]')).toHaveText(/24,00\s\$/);
  await page.evaluate(() => (window as unknown as { handle: { unmount(): void } }).handle.unmount());
  await expect(frameElement).toHaveCount(0);
});

test('a page whose origin the app does not allow gets the refusal from the frame, and no checkout', async ({ page, server, site, walletCheckout }) => {
  const { session } = await site.checkout(server);
  const foreignPage = site.page('/not-allowed', shopPage('', `<div id="pay"></div>${scriptTag(`${server.url}/checkout.js`, { 'data-mode': 'iframe', 'data-client-secret': session.client_secret, 'data-target': '#pay' })}`));
  // The app allows site.origin (127.0.0.1): the same page at localhost is another origin.
  await page.goto(foreignPage.replace('127.0.0.1', 'localhost'));
  const frame = walletCheckout.frame(page);
  await walletCheckout.expectOutcome(frame, 'error');
  await expect(frame.locator('[data-wallet-button]')).toHaveCount(0);
  await expect.poll(() => checkoutEvents(page, 'checkout:error')).toEqual([{ sessionId: session.id, code: 'origin_not_allowed', reason: 'origin_not_allowed', message: expect.any(String) }]);
});

test('iframe mode\'s side on the page is a chunk only iframe mode loads; without it the page gets a network error, and no frame', async ({ page, server, site, walletCheckout }) => {
  const frameHostRequests: string[] = [];
  page.on('request', (request) => /\/checkout-chunk-frame-host\.[0-9a-f]{12}\.js$/.test(request.url()) && frameHostRequests.push(request.url()));
  const inline = await site.checkout(server);
  await page.goto(site.page('/inline-shop', shopPage('', `<div id="pay"></div>${scriptTag(`${server.url}/checkout.js`, { 'data-client-secret': inline.session.client_secret, 'data-target': '#pay' })}`)));
  await new CheckoutPage(page, server, { sessionId: inline.session.id, secretKey: inline.secretKey }).expectState('ready');
  expect(frameHostRequests).toEqual([]);

  // Options given before the chunk arrives reach the frame's widget.
  const { session } = await site.checkout(server);
  await page.goto(site.page('/iframe-early-update', shopPage('', `<div id="pay"></div><script src="${server.url}/checkout.js"></script>`)));
  await page.evaluate((clientSecret) => {
    const { WalletCheckout } = window as unknown as { WalletCheckout: { mount(el: Element, o: object): { update(o: object): void } } };
    WalletCheckout.mount(document.getElementById('pay') as HTMLElement, { clientSecret, mode: 'iframe' }).update({ theme: 'dark' });
  }, session.client_secret);
  const frame = walletCheckout.frame(page);
  await walletCheckout.expectOutcome(frame, 'ready');
  await expect(frame.locator('[data-wallet-checkout]')).toHaveAttribute('data-theme', 'dark');
  expect(frameHostRequests).toHaveLength(1);

  await page.route('**/checkout-chunk-frame-host.*.js', (route) => route.abort());
  const unloaded = await site.checkout(server);
  await page.goto(site.page('/iframe-no-host', shopPage('', `<div id="pay"></div>${scriptTag(`${server.url}/checkout.js`, { 'data-mode': 'iframe', 'data-client-secret': unloaded.session.client_secret, 'data-target': '#pay' })}`)));
  await expect
    .poll(() => checkoutEvents(page, 'checkout:error'))
    .toEqual([{ sessionId: unloaded.session.id, code: 'network_error', reason: 'frame_unavailable', message: en.errors.network_error }]);
  await expect(page.locator('iframe[data-wallet-checkout-frame]')).toHaveCount(0);
});
