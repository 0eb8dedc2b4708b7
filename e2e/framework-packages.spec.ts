/**
 * The front-end packages as a merchant's app uses them (docs/embedding.md, "In a framework"): built
 * by npm run build, packed, installed and bundled outside the repository (support/front-end-app.ts),
 * and served by the merchant's own site under a strict nonce CSP. The React component pays through
 * the sandbox wallet and changes its look in place; a hundred StrictMode mounts and unmounts leave
 * one widget and nothing else behind; a bundle whose bytes are not the pinned release's is refused
 * with an error that says so; the custom element pays too.
 */
import { existsSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { TestServer } from '../testing/harness';
import { CheckoutPage } from './support/checkout-page';
import { buildFrontEndApp, type FrontEndApp } from './support/front-end-app';
import { countLiveResources } from './support/live-resources';
import { bundleManifest, expect, NONCE, recordCspViolations, shopPage, test, type MerchantSite } from './support/merchant-site';

let app: FrontEndApp & { dispose(): void };

test.beforeAll(async () => {
  if (!existsSync('packages/js/dist/index.js') || !existsSync('packages/react/dist/index.js')) throw new Error('packages/js/dist or packages/react/dist is missing: run npm run build first');
  app = await buildFrontEndApp();
});

test.afterAll(() => app?.dispose());

const csp = (server: TestServer) => ({
  'content-security-policy': `default-src 'self'; script-src 'nonce-${NONCE}' ${server.url}; style-src 'nonce-${NONCE}'; connect-src ${server.url}; img-src 'self' data:`,
});

/** The merchant's React page: its bundled app served beside it, under the strict policy. */
function reactPage(site: MerchantSite, server: TestServer): string {
  site.page('/react-app.js', app.reactApp, { 'content-type': 'text/javascript; charset=utf-8' });
  return site.page('/react', shopPage('', `<div id="app"></div><script src="/react-app.js" nonce="${NONCE}"></script>`), csp(server));
}

type Props = Record<string, unknown> | null;
const render = (page: Page, props: Props) => page.evaluate((p) => (window as unknown as { app: { render(p: Props): void } }).app.render(p), props);
const callbacks = (page: Page) => page.evaluate(() => (window as unknown as { callbacks: { name: string; detail: Record<string, unknown> }[] }).callbacks);

/** Every iframe in the page, shadow roots included. */
const iframesDeep = (page: Page) =>
  page.evaluate(() => {
    const count = (root: Document | ShadowRoot): number =>
      root.querySelectorAll('iframe').length + [...root.querySelectorAll('*')].reduce((n, el) => n + (el.shadowRoot ? count(el.shadowRoot) : 0), 0);
    return count(document);
  });

test('the React component pays through the sandbox wallet, and a new look each render is applied in place', async ({ page, server, site, ledger }) => {
  const { session, secretKey } = await site.checkout(server);
  const violations = await recordCspViolations(page);
  await page.goto(reactPage(site, server));
  const props = { host: server.url, clientSecret: session.client_secret, nonce: NONCE, sessionView: session.public_view };
  await render(page, props);
  const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
  await checkout.expectState('ready');
  await expect(page.locator('#checkout')).toHaveAttribute('data-status', 'mounted');

  // Re-rendered with new objects (the view parsed anew, new callbacks), then a new theme and language: the same widget and button, changed.
  await page.evaluate(() => {
    const mark = (el: Element | null | undefined) => el && ((el as Element & { marked?: true }).marked = true);
    const host = document.querySelector('#checkout [data-wallet-checkout]');
    mark(host);
    mark(host?.shadowRoot?.querySelector('[data-wallet-button]'));
  });
  for (let i = 0; i < 5; i++) await render(page, JSON.parse(JSON.stringify(props)) as Props);
  await render(page, { ...props, theme: 'dark', locale: 'fr' });
  await expect(page.locator('#checkout [data-wallet-checkout]')).toHaveAttribute('data-theme', 'dark');
  await expect(page.locator('[data-wallet-button]')).toHaveAttribute('lang', 'fr');
  expect(
    await page.evaluate(() => {
      const host = document.querySelector('#checkout [data-wallet-checkout]') as (Element & { marked?: true }) | null;
      const button = host?.shadowRoot?.querySelector('[data-wallet-button]') as (Element & { marked?: true }) | null;
      return { widgets: document.querySelectorAll('[data-wallet-checkout]').length, sameWidget: host?.marked === true, sameButton: button?.marked === true };
    }),
  ).toEqual({ widgets: 1, sameWidget: true, sameButton: true });

  await checkout.payWith('visa-success-3ds');
  await checkout.expectState('paid');
  await expect.poll(async () => (await callbacks(page)).map((c) => c.name)).toEqual(['onReady', 'onSuccess']);
  expect((await callbacks(page))[1]?.detail).toMatchObject({ sessionId: session.id, status: 'succeeded' });
  expect((await ledger.newEntries()).map((entry) => entry.charge.amount)).toEqual([session.amount]);
  expect((await checkout.merchantView()).status).toBe('succeeded');
  expect(await violations(), 'the pinned bundle, the widget and the wallet under the nonce the component was given').toEqual([]);
  // The release the package pins, loaded once, with its hash.
  const pinned = (await bundleManifest(server))['checkout.js'];
  expect(await page.evaluate(() => [...document.scripts].filter((s) => /\/checkout\.[0-9a-f]{12}\.js$/.test(s.src)).map((s) => [new URL(s.src).pathname, s.integrity, s.crossOrigin]))).toEqual([
    [pinned?.src, pinned?.integrity, 'anonymous'],
  ]);
});

test('a hundred StrictMode mounts and unmounts, fast and slow, end with one widget, no orphan frame, and no more listeners or timers than one mount', async ({ page, server, site }) => {
  test.setTimeout(120_000);
  const { session } = await site.checkout(server);
  const live = await countLiveResources(page);
  await page.goto(reactPage(site, server));
  const props = { host: server.url, clientSecret: session.client_secret, nonce: NONCE, sessionView: session.public_view };
  const ready = page.locator('#checkout [data-checkout-state]');
  // Unmounted while the bundle is on its way: nothing is mounted once it has run.
  await render(page, props);
  await render(page, null);
  await page.waitForFunction(() => 'WalletCheckout' in window);
  await page.waitForTimeout(300);
  await expect(page.locator('[data-wallet-checkout]')).toHaveCount(0);
  // What one mounted widget holds, once what it fetches when the page is idle (the after-click chunks) is in.
  await render(page, props);
  await expect(ready).toHaveAttribute('data-checkout-state', 'ready');
  await page.waitForTimeout(1_500);
  const once = { resources: await live(), iframes: await iframesDeep(page) };

  await page.evaluate(async (p) => {
    const { app } = window as unknown as { app: { render(p: Props): void } };
    const state = () => document.querySelector('#checkout [data-wallet-checkout]')?.shadowRoot?.querySelector('[data-checkout-state]')?.getAttribute('data-checkout-state');
    for (let i = 0; i < 100; i++) {
      app.render(p);
      // Mostly unmounted at once or a moment later, while the widget starts; every tenth time once it is ready.
      if (i % 10 === 9) while (state() !== 'ready') await new Promise((resolve) => setTimeout(resolve, 10));
      else if (i % 2) await new Promise((resolve) => setTimeout(resolve, i % 7));
      app.render(null);
    }
    app.render(p);
  }, props);
  await expect(ready).toHaveAttribute('data-checkout-state', 'ready');
  await page.waitForTimeout(1_500);

  expect(await page.locator('[data-wallet-checkout]').count()).toBe(1);
  expect(await iframesDeep(page)).toBe(once.iframes);
  expect(await live()).toEqual(once.resources);
});

test('a bundle whose bytes are not the pinned release is refused by the browser, and the component says why', async ({ page, server, site }) => {
  const { session } = await site.checkout(server);
  const pinned = (await bundleManifest(server))['checkout.js'];
  if (!pinned) throw new Error('the manifest lists no checkout.js');
  // The host (or something on the way) serves other bytes under the release's name.
  await page.route(`${server.url}${pinned.src}`, async (route) => {
    const original = await (await route.fetch()).text();
    await route.fulfill({ status: 200, body: `${original}\n;window.tampered = true;`, headers: { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' } });
  });
  const consoleErrors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
  await page.goto(reactPage(site, server));
  await render(page, { host: server.url, clientSecret: session.client_secret, nonce: NONCE });

  await expect(page.locator('#checkout')).toHaveAttribute('data-status', 'failed');
  const [error] = await callbacks(page);
  expect(error).toMatchObject({ name: 'onError', detail: { code: 'network_error', reason: 'bundle_integrity_mismatch', sessionId: null } });
  expect(error?.detail.message).toBe(
    `Wallet Checkout: ${server.url}${pinned.src} does not match its pinned integrity hash ${pinned.integrity}: the browser refused to run it (the file was altered on the way or on the host). Nothing of it ran.`,
  );
  expect(consoleErrors.some((text) => text.includes('does not match its pinned integrity hash'))).toBe(true);
  expect(await page.evaluate(() => ({ ran: 'tampered' in window, api: 'WalletCheckout' in window, widgets: document.querySelectorAll('[data-wallet-checkout]').length }))).toEqual({ ran: false, api: false, widgets: 0 });
});

test('the <wallet-checkout> element pays, its attributes change it in place, and its events are dispatched on it', async ({ page, server, site }) => {
  const { session, secretKey } = await site.checkout(server);
  const violations = await recordCspViolations(page);
  site.page('/element-app.js', app.elementApp, { 'content-type': 'text/javascript; charset=utf-8' });
  const url = site.page(
    '/element',
    shopPage(
      '',
      `<wallet-checkout id="pay" client-secret="${session.client_secret}" host="${server.url}" nonce="${NONCE}" button-color="black"></wallet-checkout>
      <script nonce="${NONCE}">
        window.onElement = [];
        const el = document.getElementById('pay');
        for (const type of ['checkout:ready', 'checkout:success']) el.addEventListener(type, (e) => window.onElement.push({ type: e.type, onTheElement: e.target === el, sessionId: e.detail.sessionId }));
      </script>
      <script src="/element-app.js" nonce="${NONCE}"></script>`,
    ),
    csp(server),
  );
  await page.goto(url);
  const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
  await checkout.expectState('ready');

  await page.evaluate(() => ((document.querySelector('[data-wallet-checkout]') as Element & { marked?: true }).marked = true));
  await page.locator('#pay').evaluate((el) => el.setAttribute('theme', 'dark'));
  await expect(page.locator('#pay [data-wallet-checkout]')).toHaveAttribute('data-theme', 'dark');
  expect(await page.evaluate(() => (document.querySelector('[data-wallet-checkout]') as Element & { marked?: true }).marked)).toBe(true);

  await checkout.payWith('visa-success-3ds');
  await checkout.expectState('paid');
  expect(await page.evaluate(() => (window as unknown as { onElement: unknown[] }).onElement)).toEqual([
    { type: 'checkout:ready', onTheElement: true, sessionId: session.id },
    { type: 'checkout:success', onTheElement: true, sessionId: session.id },
  ]);
  expect((await checkout.merchantView()).status).toBe('succeeded');
  expect(await violations()).toEqual([]);
});
