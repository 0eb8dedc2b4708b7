import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CreatedSession } from '../../contracts';
import { startTestServer, type TestServer } from '../../testing/harness';

let server: TestServer | undefined;

/** An attribute's value as the page escaped it (common/html.ts), read back. */
const decodeHtml = (text: string) => text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
afterEach(() => server?.close());

/** What a shopper's browser gets at `/`: a page embedding the widget for a session the demo's server created. */
async function openDemo(s: TestServer): Promise<CreatedSession> {
  const html = await (await fetch(`${s.url}/`)).text();
  const clientSecret = /data-client-secret="([^"]+)"/.exec(html)?.[1];
  expect(html).toContain(`src="${s.url}/checkout.js"`);
  expect(clientSecret).toMatch(/^cs_.+_secret_/);
  return { id: clientSecret!.split('_secret_')[0], client_secret: clientSecret } as CreatedSession;
}

describe('the demo store', () => {
  it.each([
    ['gateway', 'walletpay'],
    ['direct', 'network_token'],
  ])('takes a payment through real ECv2 with DECRYPTION_MODE=%s', async (mode, sourceType) => {
    server = await startTestServer({ DEMO: 'on', DECRYPTION_MODE: mode });
    const session = await openDemo(server);
    const reply = await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-success-3ds') });
    expect((await reply.json()).outcome.status).toBe('succeeded');
    const [entry] = await server.sandbox!.ledger();
    expect(entry?.charge).toMatchObject({ source_type: sourceType, amount: 2400, currency: 'usd' });

    // Confirmed by the signed webhook the demo's server received, not by asking the API.
    const order = async () => (await fetch(`${server!.url}/demo/orders/${session.id}`)).json();
    await expect.poll(async () => (await order()).status).toBe('succeeded');
    expect(await order()).toMatchObject({ id: session.id, status: 'succeeded', amount: 2400 });
  });

  it.each([
    ['USD', 2400, '$24.00'],
    ['JPY', 1500, '¥1,500'],
    ['KWD', 12340, 'KWD 12.340'],
  ])('shows the session price in %s and a short order reference on the product card, never the session id', async (currency, amount, price) => {
    server = await startTestServer({ DEMO: 'on' });
    const html = await (await fetch(`${server.url}/?currency=${currency}&amount=${amount}`)).text();
    const card = /<section class="product">([\s\S]*?)<\/section>/.exec(html)?.[1] ?? '';
    const sessionId = /data-client-secret="([^"]+)_secret_/.exec(html)?.[1] ?? '';
    expect(card.replace(/\u00a0/g, ' ')).toContain(`<p class="price" data-testid="price">${price}</p>`);
    const reference = /data-testid="order-reference">([^<]+)</.exec(card)?.[1];
    expect(reference).toMatch(/^[0-9A-F]{8}$/);
    expect(card).not.toContain(sessionId);

    // The reference is the one the merchant's server gave the session, so an order and its payment meet.
    const order = await (await fetch(`${server.url}/demo/orders/${sessionId}`)).json();
    expect(order).toMatchObject({ reference, amount, currency });
  });

  it('sells the coffee on a product page, linked from the store, whose sheet asks for the address and the delivery option', async () => {
    server = await startTestServer({ DEMO: 'on' });
    expect(await (await fetch(`${server.url}/`)).text()).toContain('href="/product"');
    const html = await (await fetch(`${server.url}/product`)).text();
    const view = JSON.parse(decodeHtml(/data-session-view="([^"]+)"/.exec(html)?.[1] ?? '{}'));
    // The widget's view of the session: the sheet asks for an address in the countries of the demo's zones, its phone, the e-mail, and the options.
    expect(view.payment_data_request.shippingAddressRequired).toBe(true);
    expect(view.payment_data_request.shippingAddressParameters).toMatchObject({ phoneNumberRequired: true });
    expect(view.payment_data_request.shippingAddressParameters.allowedCountryCodes).toEqual(expect.arrayContaining(['US', 'CA', 'GB', 'JP', 'AU']));
    expect(view.payment_data_request.emailRequired).toBe(true);
    expect(view.payment_data_request.shippingOptionRequired).toBe(true);
    expect(html.replace(/\u00a0/g, ' ')).toContain('United States: from $5.00 · Canada: from $12.00');

    const sessionId = /data-client-secret="([^"]+)_secret_/.exec(html)?.[1] ?? '';
    const order = await (await fetch(`${server.url}/demo/orders/${sessionId}`)).json();
    expect(order).toMatchObject({ status: 'open', amount: 2400, currency: 'USD' });
  });

  it("shows a cart's open session again on a reload, and a new one once it is paid, for another order, or for another cart", async () => {
    server = await startTestServer({ DEMO: 'on' });
    const url = server.url;
    /** The page at `path` as a browser with `cookie` gets it: the session it embeds, and the cart cookie it set, if any. */
    const visit = async (path: string, cookie = '') => {
      const reply = await fetch(`${url}${path}`, { headers: cookie ? { cookie } : {} });
      const clientSecret = /data-client-secret="([^"]+)"/.exec(await reply.text())?.[1] ?? '';
      return { session: { id: clientSecret.split('_secret_')[0], client_secret: clientSecret } as CreatedSession, setCookie: reply.headers.get('set-cookie') };
    };
    const first = await visit('/');
    expect(first.setCookie).toMatch(/^demo_cart=[0-9a-f]{32}; Path=\/; HttpOnly; SameSite=Lax$/);
    const cart = first.setCookie!.split(';')[0]!;
    const reload = await visit('/', cart);
    expect(reload.session).toEqual(first.session);
    expect(reload.setCookie).toBeNull();
    expect((await visit('/', cart)).session.id).toBe(first.session.id);
    // Another order (a hold, another amount), another cart, the product page: each its own session, kept as well.
    const hold = await visit('/?intent=hold', cart);
    expect(hold.session.id).not.toBe(first.session.id);
    expect((await visit('/?intent=hold', cart)).session.id).toBe(hold.session.id);
    expect((await visit('/?amount=1000', cart)).session.id).not.toBe(first.session.id);
    expect((await visit('/')).session.id).not.toBe(first.session.id);
    expect((await visit('/', 'demo_cart=not-a-cart')).setCookie).toMatch(/^demo_cart=[0-9a-f]{32};/);
    const product = await visit('/product', cart);
    expect((await visit('/product', cart)).session.id).toBe(product.session.id);
    // Paid, the session is no longer open: the next visit is a new order.
    expect((await server.pay(first.session, { payment_data: await server.walletPaymentData(first.session, 'visa-success-3ds') })).status).toBe(200);
    expect((await visit('/', cart)).session.id).not.toBe(first.session.id);
  });

  it('passes on the API\'s refusal of an amount Google Pay cannot show', async () => {
    server = await startTestServer({ DEMO: 'on' });
    const reply = await fetch(`${server.url}/?currency=KWD&amount=12345`);
    expect(reply.status).toBe(400);
    expect(((await reply.json()) as { error: { code: string } }).error.code).toBe('amount_exceeds_google_pay_precision');
  });

  it('in direct mode with the sandbox wallet, provisions and registers the demo its key once, and says so', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wallet-checkout-demo-direct-'));
    const logFile = join(dataDir, 'server.log');
    try {
      // Started again on the same data: the key made the first time is kept, no second one is made.
      const first = await startTestServer({ DEMO: 'on', DECRYPTION_MODE: 'direct', DATA_DIR: dataDir }, { logFile });
      await first.close();
      server = await startTestServer({ DEMO: 'on', DECRYPTION_MODE: 'direct', DATA_DIR: dataDir }, { logFile });
      const { app_id } = JSON.parse(readFileSync(join(dataDir, 'demo-merchant.json'), 'utf8')) as { app_id: string };
      expect((await server.directKeys.list(app_id)).map((key) => key.status)).toEqual(['registered']);
      const provisioned = readFileSync(logFile, 'utf8').split('\n').filter((line) => line.includes('provisioned and registered a direct-mode key'));
      expect(provisioned).toHaveLength(1);
    } finally {
      await server?.close();
      server = undefined;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('links to the gallery, whose widgets load from this backend and whose sessions charge nothing', async () => {
    server = await startTestServer({ DEMO: 'on' });
    expect(await (await fetch(`${server.url}/`)).text()).toContain('href="/demo/gallery"');
    const gallery = await fetch(`${server.url}/demo/gallery`);
    expect(gallery.status).toBe(200);
    const html = await gallery.text();
    const secrets = [...html.matchAll(/data-client-secret="(cs_gallery-[^"]+)"/g)].map((m) => m[1]);
    expect(secrets.length).toBeGreaterThanOrEqual(16);
    expect(html).toContain(`src="${server.url}/checkout.js"`);

    const [id] = secrets.find((s) => s?.startsWith('cs_gallery-declined-'))!.split('_secret_');
    const view = await (await fetch(`${server.url}/demo/gallery/api/sessions/${id}/public`)).json();
    expect(view).toMatchObject({ status: 'declined', outcome: { failure_code: 'insufficient_funds' } });
    expect(await server.sandbox!.ledger()).toEqual([]);
  });

  it('shows every state in the language ?locale= names, when it is one the widget speaks, and nothing else it is given', async () => {
    server = await startTestServer({ DEMO: 'on' });
    const stateWidgets = (html: string) => [...html.matchAll(/<script [^>]*data-client-secret="cs_gallery-\w+-USD_secret_gallery"[^>]*data-theme="\w+"([^>]*)>/g)].map((m) => m[1]);
    const inEnglish = stateWidgets(await (await fetch(`${server.url}/demo/gallery?locale=en`)).text());
    expect(inEnglish.length).toBeGreaterThanOrEqual(16);
    expect(inEnglish.every((attributes) => attributes?.includes('data-locale="en"'))).toBe(true);
    const page = await (await fetch(`${server.url}/demo/gallery?locale=${encodeURIComponent('"><script>alert(1)</script>')}`)).text();
    expect(page).not.toContain('alert(1)');
    expect(stateWidgets(page).some((attributes) => attributes?.includes('data-locale'))).toBe(false);
  });
});

describe("the demo store's webhooks", () => {
  it('registers its endpoint once, keeps it across restarts, and refuses a delivery it cannot verify', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wallet-checkout-demo-webhooks-'));
    try {
      const first = await startTestServer({ DEMO: 'on', DATA_DIR: dataDir });
      await first.close();
      server = await startTestServer({ DEMO: 'on', DATA_DIR: dataDir });
      const { secret_key, webhook } = JSON.parse(readFileSync(join(dataDir, 'demo-merchant.json'), 'utf8')) as { secret_key: string; webhook: { url: string } };
      const endpoints = (await (await fetch(`${server.url}/api/webhook_endpoints`, { headers: { authorization: `Bearer ${secret_key}` } })).json()).data;
      expect(endpoints.map((endpoint: { url: string }) => endpoint.url)).toEqual([`${server.url}/demo/webhooks`]);
      expect(webhook.url).toBe(`${server.url}/demo/webhooks`);

      const session = await openDemo(server);
      const forged = JSON.stringify({ id: 'evt_forged', object: 'event', type: 'session.succeeded', created: Date.now(), app_id: 'app', data: { object: { id: session.id, status: 'succeeded' } } });
      const refused = await fetch(`${server.url}/demo/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', 'wallet-checkout-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` }, body: forged });
      expect(refused.status).toBe(401);
      expect(await (await fetch(`${server.url}/demo/orders/${session.id}`)).json()).toMatchObject({ status: 'open' });
    } finally {
      await server?.close();
      server = undefined;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("the demo store's back office", () => {
  /** An order paid as a hold, to be captured. */
  async function heldOrder(s: TestServer): Promise<CreatedSession> {
    const html = await (await fetch(`${s.url}/?intent=hold`)).text();
    const clientSecret = /data-client-secret="([^"]+)"/.exec(html)![1]!;
    const session = { id: clientSecret.split('_secret_')[0], client_secret: clientSecret } as CreatedSession;
    const reply = await s.pay(session, { payment_data: await s.walletPaymentData(session, 'visa-success-3ds') });
    expect((await reply.json()).outcome.status).toBe('authorized');
    return session;
  }
  const captureFrom = (s: TestServer, session: CreatedSession, headers: Record<string, string>) => fetch(`${s.url}/demo/orders/${session.id}/capture`, { method: 'POST', headers });

  it('refuses a capture posted by a page on another site, and captures nothing', async () => {
    server = await startTestServer({ DEMO: 'on' });
    const session = await heldOrder(server);
    const crossSite: Record<string, string>[] = [{ 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }, { 'sec-fetch-site': 'same-site' }, { origin: 'https://evil.example' }];
    for (const headers of crossSite) {
      const refused = await captureFrom(server, session, headers);
      expect(refused.status).toBe(403);
      expect((await refused.json()).error.code).toBe('origin_not_allowed');
    }
    await expect.poll(async () => (await (await fetch(`${server!.url}/demo/orders/${session.id}`)).json()).status).toBe('authorized');
  });

  it('captures for its own page', async () => {
    server = await startTestServer({ DEMO: 'on' });
    const session = await heldOrder(server);
    const captured = await captureFrom(server, session, { 'sec-fetch-site': 'same-origin', origin: server.url });
    expect(captured.status).toBe(200);
    // The order's state, like its GET: no cache keeps it.
    expect(captured.headers.get('cache-control')).toBe('no-store');
    // Shown to the store's staff as money, never as minor units.
    expect(await captured.json()).toMatchObject({ status: 'captured', price: '$24.00', price_captured: '$24.00' });
  });
});
