/**
 * The README's plain tag (the client secret alone): the widget asks for the session's view before its
 * button, and that request is a CORS-simple GET, the secret's view key in its URL and no credential
 * header, so the browser sends no preflight before it (docs/embedding.md, "The plain tag"); with the
 * tag's `crossorigin`, over the script's own connection. Counted
 * through Chromium's DevTools protocol, which reports preflights as OPTIONS requests; no timing is
 * asserted (scripts/bench/slow4g.ts measures them).
 */
import type { CDPSession, Page } from '@playwright/test';
import type { CreatedSession } from '../contracts';
import type { TestServer } from '../testing/harness';
import { CheckoutPage } from './support/checkout-page';
import { expect, type MerchantSite, scriptTag, shopPage, test } from './support/merchant-site';

interface SeenRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Milliseconds since the epoch, as the page's performance.timeOrigin counts. */
  at: number;
}

/** Every request the page's browser sends, preflights included, and the headers of each reply. */
async function watchNetwork(page: Page): Promise<{ requests: SeenRequest[]; replies: Map<string, Record<string, string>>; cdp: CDPSession }> {
  const cdp = await page.context().newCDPSession(page);
  const requests: SeenRequest[] = [];
  const replies = new Map<string, Record<string, string>>();
  cdp.on('Network.requestWillBeSent', ({ request, wallTime }) => requests.push({ method: request.method, url: request.url, headers: request.headers, at: wallTime * 1000 }));
  cdp.on('Network.responseReceived', ({ response }) => replies.set(`${response.url}`, response.headers));
  await cdp.send('Network.enable');
  return { requests, replies, cdp };
}

async function openPlainTag(page: Page, server: TestServer, site: MerchantSite, session: CreatedSession, path: string) {
  const tag = scriptTag(`${server.url}/checkout.js`, { 'data-client-secret': session.client_secret, 'data-target': '#pay' });
  await page.goto(site.page(path, shopPage('', `<div id="pay"></div>${tag}`)));
}

/** When the button was first up, in the same clock as SeenRequest.at. */
async function buttonUpAt(page: Page): Promise<number> {
  await expect(page.locator('[data-testid=sandbox-gpay-button]')).toBeVisible();
  return page.evaluate(() => performance.timeOrigin + performance.now());
}

const viewRequests = (requests: SeenRequest[], session: CreatedSession) => requests.filter((r) => new URL(r.url).pathname === `/api/sessions/${session.id}/public`);

test('the plain tag asks for the view with no preflight and no credential header, and the secret in no URL', async ({ page, server, site, ledger }) => {
  const { session, secretKey } = await site.checkout(server);
  const { requests, replies } = await watchNetwork(page);
  await openPlainTag(page, server, site, session, '/plain');
  const checkout = new CheckoutPage(page, server, { sessionId: session.id, secretKey });
  await checkout.expectState('ready');
  const up = await buttonUpAt(page);

  const before = viewRequests(requests, session).filter((r) => r.at <= up);
  expect(before.map((r) => r.method), 'the view asked for once before the button, with no OPTIONS').toEqual(['GET']);
  const [view] = before;
  expect(Object.keys(view!.headers).map((name) => name.toLowerCase())).not.toContain('authorization');
  expect(new URL(view!.url).searchParams.get('view_key')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(requests.filter((r) => r.url.includes(session.client_secret)), 'no URL carries the client secret').toEqual([]);
  expect(replies.get(view!.url)?.['cache-control'] ?? replies.get(view!.url)?.['Cache-Control']).toBe('no-store');

  // The key read the view; paying takes the secret, as before.
  await checkout.payWith('visa-success-3ds');
  await checkout.expectState('paid');
  expect((await ledger.newEntries()).map((entry) => entry.charge.amount)).toEqual([session.amount]);
});

test('with `crossorigin` on the tag, the view is asked for on the connection the script came over', async ({ page, server, site }) => {
  const { session, secretKey } = await site.checkout(server);
  const cdp = await page.context().newCDPSession(page);
  const connections = new Map<string, number>();
  cdp.on('Network.responseReceived', ({ response }) => connections.set(new URL(response.url).pathname, Number(response.connectionId)));
  await cdp.send('Network.enable');
  const tag = scriptTag(`${server.url}/checkout.js`, { 'data-client-secret': session.client_secret, 'data-target': '#pay', crossorigin: 'anonymous' });
  await page.goto(site.page('/plain-crossorigin', shopPage('', `<div id="pay"></div>${tag}`)));
  await new CheckoutPage(page, server, { sessionId: session.id, secretKey }).expectState('ready');
  // The view is asked for without cookies: a script fetched with them would have a connection of its own.
  expect(connections.get(`/api/sessions/${session.id}/public`)).toBe(connections.get('/checkout.js'));
});

test('a page without WebCrypto (not a secure context) asks for the view with the secret in the Authorization header, preflighted', async ({ page, server, site }) => {
  const { session, secretKey } = await site.checkout(server);
  // As a page served over plain HTTP from a public host has it: no crypto.subtle.
  await page.addInitScript(() => Object.defineProperty(Crypto.prototype, 'subtle', { get: () => undefined }));
  const { requests } = await watchNetwork(page);
  await openPlainTag(page, server, site, session, '/no-webcrypto');
  await new CheckoutPage(page, server, { sessionId: session.id, secretKey }).expectState('ready');
  const up = await buttonUpAt(page);
  const before = viewRequests(requests, session).filter((r) => r.at <= up);
  // The browser reports a preflight and its request in either order.
  expect(before.map((r) => r.method).sort()).toEqual(['GET', 'OPTIONS']);
  expect(new URL(before.find((r) => r.method === 'GET')!.url).search).toBe('');
});
