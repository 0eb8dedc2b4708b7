/**
 * docs/embedding.md, followed by a merchant on a site of their own (a second
 * origin): the script tag under a strict CSP, pinned by SRI; a 3-D Secure
 * challenge under the guide's own policy, and under it without the payment
 * service's origin; the JavaScript and module APIs (the global alone, mounted
 * later); several widgets on a page; an iframe; styles that never cross the
 * shadow root except through the documented custom properties.
 */
import { readFileSync } from 'node:fs';
import { CheckoutPage } from './support/checkout-page';
import { bundleManifest, expect, NONCE, recordCspViolations, scriptTag, shopPage, test } from './support/merchant-site';
import { en } from '../web/checkout/locales/en';

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
  expect(Object.keys(manifest).sort()).toEqual(['checkout-frame.js', 'checkout.js', 'checkout.mjs', 'sandbox-wallet.js']);
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
  await expect(page.locator('#c [data-wallet-button]')).toHaveAttribute('lang', 'fr');
  // A button option changed with the theme (Google's white button on a dark page): the wallet drew its button anew.
  await expect(page.locator('#c [data-wallet-button] button')).toHaveCSS('background-color', 'rgb(255, 255, 255)');
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

/**
 * docs/embedding.md's strict policy, as a merchant copies it: the checkout host and the payment
 * service's challenge origin filled in (both this backend: the embedded sandbox serves the challenge).
 * `withoutService`: the same policy with the service's origin left out of frame-src.
 */
function documentedCsp(checkoutOrigin: string, { withoutService = false } = {}): string {
  const guide = readFileSync(new URL('../docs/embedding.md', import.meta.url), 'utf8');
  const block = /### A strict Content-Security-Policy[\s\S]*?```\n([\s\S]*?)```/.exec(guide)?.[1];
  if (!block?.includes('https://PAYMENT_SERVICE_ORIGIN')) throw new Error('docs/embedding.md has no strict policy naming the payment service');
  return block
    .replace(/^Content-Security-Policy:/, '')
    .replaceAll(' https://PAYMENT_SERVICE_ORIGIN', withoutService ? '' : ` ${checkoutOrigin}`)
    .replaceAll('https://CHECKOUT_HOST', checkoutOrigin)
    .replaceAll('RANDOM', NONCE)
    .replace(/\s+/g, ' ')
    .trim();
}

const CHALLENGE_CARD = 'visa-3ds-required-pan';

test("a 3-D Secure challenge runs under the guide's strict CSP on the merchant's site, and the shopper pays", async ({ page, server, site, ledger }) => {
  const { session, secretKey } = await site.checkout(server);
  const violations = await recordCspViolations(page);
  const csp = documentedCsp(server.url);
  expect(csp).toContain(`frame-src https://pay.google.com ${server.url}`);
  await page.goto(site.page('/strict-3ds', shopPage('', `<div id="pay"></div>${scriptTag(`${server.url}/checkout.js`, { nonce: NONCE, 'data-client-secret': session.client_secret, 'data-target': '#pay' })}`), { 'content-security-policy': csp }));
  const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
  await checkout.payWith(CHALLENGE_CARD);
  await checkout.expectState('authenticating');
  await checkout.challenge().frame.getByRole('button', { name: 'Complete authentication' }).click();
  await checkout.expectState('paid');
  expect(await violations()).toEqual([]);
  expect(await checkout.events('checkout:error')).toEqual([]);
  expect((await checkout.merchantView()).status).toBe('succeeded');
  expect((await ledger.newEntries()).map((entry) => entry.charge.status)).toEqual(['failed', 'succeeded']);
});

test("a CSP whose frame-src lacks the payment service: the shopper is told, the merchant gets challenge_blocked and a console message, nothing is charged, and another card pays", async ({ page, server, site, ledger }) => {
  const { session, secretKey } = await site.checkout(server);
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  await page.goto(
    site.page('/strict-3ds-blocked', shopPage('', `<div id="pay"></div>${scriptTag(`${server.url}/checkout.js`, { nonce: NONCE, 'data-client-secret': session.client_secret, 'data-target': '#pay' })}`), {
      'content-security-policy': documentedCsp(server.url, { withoutService: true }),
    }),
  );
  const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
  await checkout.payWith(CHALLENGE_CARD);

  await checkout.expectState('error');
  await expect(checkout.challenge().dialog).toHaveCount(0);
  await expect(checkout.testId('status')).toHaveText(en.errors.challenge_blocked);
  await expect(checkout.testId('retry')).toBeFocused();
  expect(await checkout.events('checkout:error')).toEqual([{ sessionId: session.id, code: 'challenge_blocked', reason: server.url, message: en.errors.challenge_blocked }]);
  expect(consoleErrors.join('\n')).toContain(`Add ${server.url} to the policy's frame-src directive`);
  // The challenge was cancelled at once, not left to expire: the session can be paid again.
  expect(await checkout.merchantView()).toMatchObject({ status: 'declined', outcome: { failure_code: 'authentication_abandoned' } });

  await checkout.testId('retry').click();
  await checkout.payWith('visa-3ds-required-3ds');
  await checkout.expectState('paid');
  expect((await ledger.newEntries()).map((entry) => [entry.charge.status, entry.charge.failure_code])).toEqual([
    ['failed', 'authentication_required'],
    ['succeeded', null],
  ]);
});

test('checkout.js without data-client-secret defines WalletCheckout without mounting, and the page mounts it later (under the strict CSP)', async ({ page, server, site }) => {
  const { session, secretKey } = await site.checkout(server);
  const violations = await recordCspViolations(page);
  // The merchant's server hands the page its session's client secret when the shopper reaches the payment step.
  site.page('/my-server/checkout-session', JSON.stringify({ client_secret: session.client_secret }), { 'content-type': 'application/json' });
  const csp = documentedCsp(server.url).replace('connect-src', "connect-src 'self'");
  await page.goto(
    site.page(
      '/later',
      shopPage(
        '',
        `<button id="to-payment">Continue to payment</button><div id="pay"></div>
        <script src="${server.url}/checkout.js" nonce="${NONCE}" defer></script>
        <script nonce="${NONCE}">
          async function showCheckout() {
            const { client_secret } = await (await fetch('/my-server/checkout-session', { method: 'POST' })).json();
            WalletCheckout.mount(document.querySelector('#pay'), { clientSecret: client_secret });
          }
          document.getElementById('to-payment').addEventListener('click', showCheckout);
        </script>`,
      ),
      { 'content-security-policy': csp },
    ),
  );
  await page.waitForFunction(() => typeof (window as unknown as { WalletCheckout?: { mount?: unknown } }).WalletCheckout?.mount === 'function');
  await expect(page.locator('[data-wallet-checkout]')).toHaveCount(0);

  await page.getByRole('button', { name: 'Continue to payment' }).click();
  const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
  await checkout.expectState('ready');
  await expect(checkout.testId('amount')).toHaveText('$24.00');
  // The tag's nonce reached what the widget injects, though the tag mounted nothing itself.
  expect(await violations()).toEqual([]);
});
