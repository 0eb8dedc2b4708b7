/**
 * docs/embedding.md, followed by a merchant on a site of their own (a second
 * origin): the script tag under a strict CSP, pinned by SRI; the JavaScript
 * and module APIs; several widgets on a page; an iframe; styles that never
 * cross the shadow root except through the documented custom properties.
 */
import type { Page } from '@playwright/test';
import { CheckoutPage } from './support/checkout-page';
import { bundleManifest, expect, test } from './support/merchant-site';
import { escapeHtml } from '../server/lib/html';

const NONCE = 'r4nd0m-n0nce';
const shopPage = (head: string, body: string, lang = 'en') =>
  `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>My shop</title>${head}</head><body>${body}</body></html>`;
const scriptTag = (src: string, attributes: Record<string, string>) =>
  `<script src="${escapeHtml(src)}" ${Object.entries(attributes).map(([k, v]) => `${k}="${escapeHtml(v)}"`).join(' ')} defer></script>`;

/** Every CSP violation the page reports, from its first script on. */
async function recordCspViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = ((window as unknown as { __csp: string[] }).__csp = []);
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
}

test('a merchant page on another origin, under a strict nonce CSP, embeds the SRI-pinned bundle and a shopper pays', async ({ page, server, site, ledger }) => {
  const { session, secretKey } = await site.checkout(server);
  const checkoutJs = (await bundleManifest(server))['checkout.js'];
  if (!checkoutJs) throw new Error('the manifest lists no checkout.js');
  const violations = await recordCspViolations(page);
  const url = site.page(
    '/shop',
    shopPage('', `<div id="pay"></div>${scriptTag(server.url + checkoutJs.src, { integrity: checkoutJs.integrity, crossorigin: 'anonymous', nonce: NONCE, 'data-client-secret': session.client_secret, 'data-target': '#pay' })}`),
    {
      'content-security-policy': `default-src 'self'; script-src 'nonce-${NONCE}' ${server.url}; style-src 'nonce-${NONCE}'; connect-src ${server.url}; img-src 'self' data:`,
    },
  );
  await page.goto(url);
  const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
  await checkout.payWith('visa-success-3ds');
  await checkout.expectState('paid');
  expect(await violations(), 'the widget, its button and the wallet sheet inject nothing the CSP refuses').toEqual([]);
  expect((await ledger.newEntries()).map((entry) => entry.charge.amount)).toEqual([session.amount]);
  expect((await checkout.merchantView()).status).toBe('succeeded');
});

test('a bundle whose SRI hash does not match is not run', async ({ page, server, site }) => {
  const { session } = await site.checkout(server);
  const checkoutJs = (await bundleManifest(server))['checkout.js'];
  const wrong = `sha384-${Buffer.alloc(48).toString('base64')}`;
  const errors: string[] = [];
  page.on('console', (message) => errors.push(message.text()));
  await page.goto(site.page('/tampered', shopPage('', `<div id="pay"></div>${scriptTag(server.url + (checkoutJs?.src ?? ''), { integrity: wrong, crossorigin: 'anonymous', 'data-client-secret': session.client_secret, 'data-target': '#pay' })}`)));
  await expect.poll(() => errors.join('\n')).toMatch(/integrity/i);
  await expect(page.locator('[data-wallet-checkout]')).toHaveCount(0);
  expect(await page.evaluate(() => 'WalletCheckout' in window)).toBe(false);
});

test('versioned bundles are immutable, the plain names short-lived, and the manifest names both', async ({ server }) => {
  const manifest = await bundleManifest(server);
  expect(Object.keys(manifest).sort()).toEqual(['checkout.js', 'checkout.mjs', 'sandbox-wallet.js']);
  for (const [file, { src, integrity }] of Object.entries(manifest)) {
    expect(src).toMatch(/^\/[\w-]+\.[0-9a-f]{12}\.m?js$/);
    const versioned = await fetch(server.url + src);
    expect(versioned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const bytes = Buffer.from(await versioned.arrayBuffer());
    const { createHash } = await import('node:crypto');
    expect(`sha384-${createHash('sha384').update(bytes).digest('base64')}`).toBe(integrity);
    const plain = await fetch(`${server.url}${file === 'sandbox-wallet.js' ? '/sandbox/wallet.js' : `/${file}`}`);
    expect(plain.headers.get('cache-control')).toBe('public, max-age=300');
    expect(Buffer.from(await plain.arrayBuffer()).equals(bytes), `${file} and ${src} are the same bundle`).toBe(true);
  }
  const types = await fetch(`${server.url}/checkout.d.ts`);
  expect(await types.text()).toContain('export declare const mount: Mount;');
});

test('several widgets on one page: script tags, WalletCheckout.mount with update() and unmount(), and the ES module', async ({ page, server, site }) => {
  const sessions = await Promise.all([0, 1, 2, 3].map(() => site.checkout(server)));
  const [a, b, c, d] = sessions.map((s) => s.session.client_secret);
  const url = site.page(
    '/many',
    shopPage(
      '',
      `<div id="a"></div><div id="b"></div><div id="c"></div><div id="d"></div>
      ${scriptTag(`${server.url}/checkout.js`, { 'data-client-secret': a ?? '', 'data-target': '#a' })}
      ${scriptTag(`${server.url}/checkout.js`, { 'data-client-secret': b ?? '', 'data-target': '#b', 'data-theme': 'dark' })}
      <script type="module">
        import { mount } from '${server.url}/checkout.mjs';
        window.esmHandle = mount(document.getElementById('d'), { clientSecret: '${d}', locale: 'de' });
      </script>`,
    ),
  );
  await page.goto(url);
  // The global appears with the first classic script; mount one more widget with it.
  await page.waitForFunction(() => 'WalletCheckout' in window);
  await page.evaluate((secret) => {
    const w = window as unknown as { WalletCheckout: { mount: (el: Element, o: object) => unknown }; handle: unknown };
    w.handle = w.WalletCheckout.mount(document.getElementById('c') as HTMLElement, { clientSecret: secret });
  }, c ?? '');
  for (const id of ['a', 'b', 'c', 'd']) await expect(page.locator(`#${id} [data-checkout-state]`)).toHaveAttribute('data-checkout-state', 'ready');
  await expect(page.locator('#b [data-wallet-checkout]')).toHaveAttribute('data-theme', 'dark');
  await expect(page.locator('#d [data-testid=amount]')).toHaveText(/24,00\s\$/);
  const readyTargets = await page.evaluate(() => (window as unknown as { __checkoutEvents: { type: string; detail: { sessionId: string } }[] }).__checkoutEvents.filter((e) => e.type === 'checkout:ready').map((e) => e.detail.sessionId).sort());
  expect(readyTargets).toEqual(sessions.map((s) => s.session.id).sort());

  await page.evaluate(() => (window as unknown as { handle: { update(o: object): void } }).handle.update({ theme: 'dark', locale: 'fr' }));
  await expect(page.locator('#c [data-wallet-checkout]')).toHaveAttribute('data-theme', 'dark');
  await expect(page.locator('#c [data-testid=amount]')).toHaveText(/24,00\s\$/);
  await expect(page.locator('#c google-pay-button')).toHaveAttribute('button-locale', 'fr');
  await page.evaluate(() => (window as unknown as { handle: { unmount(): void } }).handle.unmount());
  await expect(page.locator('#c [data-wallet-checkout]')).toHaveCount(0);
  await expect(page.locator('#a [data-checkout-state]')).toHaveAttribute('data-checkout-state', 'ready');
});

test('styles cross the shadow root neither way, except the documented custom properties', async ({ page, server, site }) => {
  const { session } = await site.checkout(server);
  const url = site.page(
    '/styled',
    shopPage(
      `<style>
        body { font-family: serif; color: rgb(255, 0, 0); }
        p, span, div { color: rgb(255, 0, 0) !important; border: 3px dotted rgb(255, 0, 0) !important; }
        #pay { --wc-surface: rgb(1, 2, 3); --wc-radius: 3px; }
      </style>`,
      `<div id="pay"></div><p class="status">The page's own status line</p><span class="amount">page</span>
      ${scriptTag(`${server.url}/checkout.js`, { 'data-client-secret': session.client_secret, 'data-target': '#pay' })}`,
    ),
  );
  await page.goto(url);
  const widget = page.locator('#pay [data-checkout-state]');
  await expect(widget).toHaveAttribute('data-checkout-state', 'ready');
  // The page's rules (even !important) and inherited font and colour stay out...
  const amount = page.locator('#pay [data-testid=amount]');
  await expect(amount).not.toHaveCSS('color', 'rgb(255, 0, 0)');
  await expect(amount).not.toHaveCSS('border-top-style', 'dotted');
  expect(await widget.evaluate((el) => getComputedStyle(el).fontFamily)).not.toMatch(/^serif$/);
  // ...the widget's rules (.status, .amount) stay in...
  await expect(page.locator('body > p.status')).not.toHaveCSS('margin-top', '0px');
  await expect(page.locator('body > span.amount')).not.toHaveCSS('font-weight', '600');
  // ...and the custom properties set on the mount element reach the widget.
  await expect(widget).toHaveCSS('background-color', 'rgb(1, 2, 3)');
  await expect(widget).toHaveCSS('border-top-left-radius', '3px');
});

test('inside an iframe (allow="payment") on the merchant site, a shopper pays', async ({ page, server, site }) => {
  const { session } = await site.checkout(server);
  site.page('/framed-shop', shopPage('', `<div id="pay"></div>${scriptTag(`${server.url}/checkout.js`, { 'data-client-secret': session.client_secret, 'data-target': '#pay' })}`));
  await page.goto(site.page('/outer', shopPage('', '<h1>Outer page</h1><iframe allow="payment" src="/framed-shop" width="500" height="600" title="Checkout"></iframe>')));
  const frame = page.frameLocator('iframe');
  await expect(frame.locator('[data-checkout-state]')).toHaveAttribute('data-checkout-state', 'ready');
  await frame.locator('[data-testid=sandbox-gpay-button]').click();
  await frame.locator('input[name=sandbox-card][value="visa-success-3ds"]').check();
  await frame.locator('[data-testid=sandbox-pay]').click();
  await expect(frame.locator('[data-checkout-state]')).toHaveAttribute('data-checkout-state', 'paid');
});
