/**
 * What the first paint does not need loads apart (web/checkout/chunks.ts): a language's words
 * come in a chunk of their own, only on a page in that language, pinned by the hash the locale
 * index carries (itself a chunk checkout.js pins); a chunk that does not match it is not run, and the widget speaks English. The 3-D
 * Secure dialog and the after-click chunk (the payment flow, the rest of English) are fetched
 * once the button is up, before any click, and at once by a page that opens past its first paint;
 * without the dialog a challenge is cancelled, without the flow a click pays nothing: nothing
 * is charged either way.
 */
import type { Page } from '@playwright/test';
import { en } from '../web/checkout/locales/en';
import { fr } from '../web/checkout/locales/fr';
import { CheckoutPage } from './support/checkout-page';
import { expect, scriptTag, shopPage, test } from './support/merchant-site';

const chunkRequests = (page: Page) => {
  const seen: string[] = [];
  page.on('request', (request) => {
    const name = /\/(checkout-chunk-[\w-]+)\.[0-9a-f]{12}\.js$/.exec(request.url())?.[1];
    if (name) seen.push(name);
  });
  return seen;
};

test('a page in French loads the locale index and the French chunk alone, one in English none, and both the 3-D Secure dialog and the payment flow before any click', async ({ page, server, site }) => {
  const chunks = chunkRequests(page);
  for (const lang of ['en', 'fr']) {
    const { session, secretKey } = await site.checkout(server);
    await page.goto(site.page(`/${lang}`, shopPage('', `<div id="pay"></div>${scriptTag(`${server.url}/checkout.js`, { 'data-client-secret': session.client_secret, 'data-target': '#pay' })}`, lang)));
    const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
    await checkout.expectState('ready');
    for (const prefetched of ['checkout-chunk-challenge', 'checkout-chunk-payment-flow']) {
      await expect.poll(() => chunks.filter((chunk) => chunk === prefetched).length, { message: `${prefetched} prefetched while the page is idle` }).toBe(lang === 'en' ? 1 : 2);
    }
    await checkout.payWith('visa-insufficient-funds-3ds');
    await checkout.expectState('declined');
    await expect(checkout.testId('retry')).toHaveText(lang === 'fr' ? fr.retry : en.retry);
  }
  // The locale index names the French chunk with its hash (checkout.js pins the index, not forty languages).
  expect(chunks.filter((chunk) => chunk.startsWith('checkout-chunk-locale-'))).toEqual(['checkout-chunk-locale-index', 'checkout-chunk-locale-fr']);
});

test('a challenge whose dialog cannot be loaded is cancelled: the shopper is told, and nothing is charged', async ({ page, server, site, ledger }) => {
  await page.route('**/checkout-chunk-challenge.*.js', (route) => route.abort());
  const { session, secretKey } = await site.checkout(server);
  await page.goto(site.page('/no-dialog', shopPage('', `<div id="pay"></div>${scriptTag(`${server.url}/checkout.js`, { 'data-client-secret': session.client_secret, 'data-target': '#pay' })}`)));
  const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
  await checkout.payWith('visa-3ds-required-pan');
  await checkout.expectState('error');
  await expect(checkout.testId('status')).toHaveText(en.errors.network_error);
  expect(await checkout.events('checkout:error')).toMatchObject([{ code: 'network_error', reason: 'challenge_unavailable' }]);
  expect((await ledger.newEntries()).map((entry) => entry.charge.status)).toEqual(['failed']);
  expect((await checkout.merchantView()).status).not.toBe('succeeded');
});

test('a click whose payment flow cannot be loaded is told as a network error, and nothing is charged', async ({ page, server, site, ledger }) => {
  await page.route('**/checkout-chunk-payment-flow.*.js', (route) => route.abort());
  const { session, secretKey } = await site.checkout(server);
  await page.goto(site.page('/no-flow', shopPage('', `<div id="pay"></div>${scriptTag(`${server.url}/checkout.js`, { 'data-client-secret': session.client_secret, 'data-target': '#pay' })}`)));
  const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
  await checkout.openWallet();
  await page.locator('input[name=sandbox-card][value="visa-success-pan"]').check();
  await page.locator('[data-testid=sandbox-pay]').click();
  await checkout.expectState('error');
  await expect(checkout.testId('status')).toHaveText(en.errors.network_error);
  expect(await checkout.events('checkout:error')).toMatchObject([{ code: 'network_error', reason: 'payment_unavailable' }]);
  expect(await ledger.newEntries()).toEqual([]);
  expect((await checkout.merchantView()).status).toBe('open');
});

test('a chunk whose bytes do not match its hash is not run: the widget speaks English, and still takes payments', async ({ page, server, site }) => {
  await page.route('**/checkout-chunk-locale-fr.*.js', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: (await response.text()).replace(/Réessayer|R\\u00e9essayer/g, 'Pirated') });
  });
  const errors: string[] = [];
  page.on('console', (message) => errors.push(message.text()));
  const { session, secretKey } = await site.checkout(server);
  await page.goto(site.page('/tampered-chunk', shopPage('', `<div id="pay"></div>${scriptTag(`${server.url}/checkout.js`, { 'data-client-secret': session.client_secret, 'data-target': '#pay' })}`, 'fr')));
  const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
  await checkout.payWith('visa-insufficient-funds-3ds');
  await checkout.expectState('declined');
  await expect(checkout.testId('retry')).toHaveText(en.retry);
  expect(await checkout.events('checkout:decline')).toHaveLength(1);
  expect(errors.join('\n')).toMatch(/integrity|English instead/i);
});

test('checkout.js carries the first paint\'s words alone; a page that opens on a decline loads the rest at once and words it', async ({ page, server, site }) => {
  const firstScript = await (await page.request.get(`${server.url}/checkout.js`)).text();
  expect(firstScript).toContain(en.retry);
  for (const later of [en.paid, en.errors.server_error, en.errors.session_expired.split(',')[0] ?? '']) expect(firstScript).not.toContain(later);

  const chunks = chunkRequests(page);
  const { session, secretKey } = await site.checkout(server);
  const page1 = site.page('/declined-then-reloaded', shopPage('', `<div id="pay"></div>${scriptTag(`${server.url}/checkout.js`, { 'data-client-secret': session.client_secret, 'data-target': '#pay' })}`));
  await page.goto(page1);
  const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
  await checkout.payWith('visa-insufficient-funds-3ds');
  await checkout.expectState('declined');
  const declinedWords = await checkout.testId('status').textContent();
  expect(declinedWords).toBeTruthy();

  chunks.length = 0;
  await page.reload();
  await checkout.expectState('declined');
  await expect(checkout.testId('status')).toHaveText(declinedWords ?? '');
  await expect(checkout.testId('retry')).toHaveText(en.retry);
  expect(chunks).toContain('checkout-chunk-payment-flow');
});
