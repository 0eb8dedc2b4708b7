/**
 * The security basics every response carries, and the limits on what one
 * client address may ask.
 */
import { get, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedSession, PayReply } from '../../contracts';
import { startTestServer, type TestServer } from '../../testing/harness';

/** A GET with `headers` as they are, its reply's status and headers. */
const revalidate = (url: string, headers: Record<string, string>) =>
  new Promise<IncomingMessage>((resolve, reject) => get(url, { headers }, (reply) => reply.resume().once('end', () => resolve(reply))).once('error', reject));

let server: TestServer;
let secretKey: string;
beforeAll(async () => {
  server = await startTestServer({ DEMO: 'on', RATE_LIMIT_PAY_PER_MINUTE: '3', RATE_LIMIT_READS_PER_MINUTE: '5' });
  ({ secretKey } = await server.merchant());
});
afterAll(() => server.close());

describe('security headers', () => {
  it("gives the demo store helmet's headers and a CSP whose nonce is on its inline script", async () => {
    const reply = await fetch(`${server.url}/`);
    const csp = reply.headers.get('content-security-policy') ?? '';
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    expect(await reply.text()).toContain(`nonce="${nonce}"`);
    expect(csp).toContain("frame-ancestors 'self'");
    expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
    expect(reply.headers.get('strict-transport-security')).toMatch(/max-age=/);
    expect(reply.headers.get('x-powered-by')).toBeNull();
  });

  it('lets pages on other origins load the widget bundle', async () => {
    const reply = await fetch(`${server.url}/checkout.js`);
    expect(reply.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('sends the widget bundle compressed as the browser accepts it, the same script once decoded', async () => {
    const plain = await (await fetch(`${server.url}/checkout.js`, { headers: { 'accept-encoding': 'identity' } })).text();
    for (const encoding of ['br', 'gzip']) {
      const reply = await fetch(`${server.url}/checkout.js`, { headers: { 'accept-encoding': encoding } });
      expect(reply.headers.get('content-encoding'), encoding).toBe(encoding);
      expect(reply.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(reply.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(await reply.text()).toBe(plain);
    }
  });

  it('answers a revalidation of the widget bundle with 304, each encoding under its own ETag', async () => {
    const etags = new Set<string>();
    for (const encoding of ['br', 'gzip', 'identity']) {
      const first = await fetch(`${server.url}/checkout.js`, { headers: { 'accept-encoding': encoding } });
      const etag = first.headers.get('etag') ?? '';
      expect(etag, encoding).toMatch(/^"[\w-]+"$/);
      etags.add(etag);
      // As a browser revalidates (fetch would add Cache-Control: no-cache, asking for the bytes whatever the ETag).
      const again = await revalidate(`${server.url}/checkout.js`, { 'accept-encoding': encoding, 'if-none-match': etag });
      expect(again.statusCode, encoding).toBe(304);
      expect(again.headers['cache-control']).toBe('public, max-age=300');
    }
    // A cache keyed on the ETag alone never hands brotli bytes to a browser that asked for gzip.
    expect(etags.size).toBe(3);
    const head = await fetch(`${server.url}/checkout.js`, { method: 'HEAD', headers: { 'accept-encoding': 'br' } });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
  });

  it('lets any page frame the checkout frame (iframe mode), which runs only our scripts and never caches', async () => {
    const reply = await fetch(`${server.url}/frame`);
    expect(reply.status).toBe(200);
    const csp = reply.headers.get('content-security-policy') ?? '';
    // Which page may embed it is decided when the client secret arrives (docs/embedding.md).
    expect(csp).toContain('frame-ancestors *');
    expect(csp).toMatch(/script-src 'self' https:\/\/pay\.google\.com 'nonce-[^']+'/);
    expect(reply.headers.get('x-frame-options')).toBeNull();
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(await reply.text()).toMatch(/<script src="\/checkout-frame(\.[0-9a-f]{12})?\.js"/);
  });

  it('uses a fresh nonce for every page', async () => {
    const nonces = await Promise.all([0, 1].map(async () => (await fetch(`${server.url}/`)).headers.get('content-security-policy')));
    expect(nonces[0]).not.toBe(nonces[1]);
  });
});

describe('rate limits', () => {
  it('stops a client that pays too often, with a 429 JSON error', async () => {
    const session = await server.createSession(secretKey);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await server.pay(session, {})).status);
    expect(statuses).toEqual([400, 400, 400, 429]);
    const limited = await server.pay(session, {});
    expect((await limited.json()).error.code).toBe('rate_limited');
    expect(limited.headers.get('ratelimit-policy')).toContain('3');
  });

  it('stops a client that reads sessions too often', async () => {
    const session = await server.createSession(secretKey);
    const read = () => fetch(`${server.url}/api/sessions/${session.id}/public`, { headers: { authorization: `Bearer ${session.client_secret}` } });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await read()).status);
    expect(statuses.slice(0, 5).every((s) => s === 200)).toBe(true);
    expect(statuses[5]).toBe(429);
  });
});

describe('rate limits behind a proxy (TRUST_PROXY)', () => {
  /** A backend behind a load balancer on loopback: the tests' own requests come through it. */
  let proxied: TestServer;
  let session: CreatedSession;
  beforeAll(async () => {
    proxied = await startTestServer({ TRUST_PROXY: 'loopback', RATE_LIMIT_READS_PER_MINUTE: '3', RATE_LIMIT_MERCHANT_PER_MINUTE: '3' });
    session = await proxied.createSession((await proxied.merchant()).secretKey);
  });
  afterAll(() => proxied.close());

  const readAs = (client: string, secret: string) =>
    fetch(`${proxied.url}/api/sessions/${session.id}/public`, { headers: { authorization: `Bearer ${secret}`, 'x-forwarded-for': client } });

  it('counts each shopper behind the proxy on its own: a client guessing secrets is stopped, the next shopper is not', async () => {
    const guesses = [];
    for (let i = 0; i < 4; i++) guesses.push((await readAs('203.0.113.7', `${session.id}_secret_guess${i}`)).status);
    expect(guesses).toEqual([401, 401, 401, 429]);
    const shopper = await readAs('198.51.100.20', session.client_secret);
    expect(shopper.status).toBe(200);
  });

  it('counts a page on a refused origin too, before its CORS check reads the store, and lets that page read its 429', async () => {
    const fromElsewhere = () =>
      fetch(`${proxied.url}/api/sessions/${session.id}/public`, {
        headers: { authorization: `Bearer ${session.client_secret}`, origin: 'https://elsewhere.example', 'x-forwarded-for': '203.0.113.9' },
      });
    const replies = [];
    for (let i = 0; i < 4; i++) replies.push(await fromElsewhere());
    expect(replies.map((reply) => reply.status)).toEqual([403, 403, 403, 429]);
    expect(replies[3]?.headers.get('access-control-allow-origin')).toBe('https://elsewhere.example');
  });

  it('limits the secret-key routes too, per client', async () => {
    const createAs = (client: string) =>
      fetch(`${proxied.url}/api/sessions`, { method: 'POST', headers: { authorization: 'Bearer sk_test_wrong', 'content-type': 'application/json', 'x-forwarded-for': client }, body: '{}' });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await createAs('203.0.113.8')).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const limited = await fetch(`${proxied.url}/api/sessions/${session.id}/capture`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_wrong', 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.8' },
      body: '{}',
    });
    expect(limited.status).toBe(429);
    expect((await createAs('198.51.100.21')).status).toBe(401);
  });

  it('counts every secret-key route in one budget per client: webhook endpoints and events do not add a second', async () => {
    const as = (path: string) => fetch(`${proxied.url}${path}`, { headers: { authorization: 'Bearer sk_test_wrong', 'x-forwarded-for': '203.0.113.10' } });
    const statuses = [(await as('/api/sessions')).status, (await as('/api/webhook_endpoints')).status, (await as('/api/events')).status, (await as('/api/webhook_endpoints')).status];
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('without TRUST_PROXY, X-Forwarded-For is not believed: a client cannot pick a fresh address per request', async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const reply = await fetch(`${server.url}/api/sessions/cs_${'a'.repeat(22)}/public`, { headers: { authorization: 'Bearer x', 'x-forwarded-for': `192.0.2.${i}` } });
      statuses.push(reply.status);
    }
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('Cache-Control: no-store on every reply that carries a secret or a session', () => {
  // No cache keeps such a reply, so it has nothing to revalidate: no ETag either (a weak one costs a hash of every reply).
  const noStore = (reply: Response) => {
    expect(reply.headers.get('cache-control'), reply.url).toBe('no-store');
    expect(reply.headers.get('etag'), reply.url).toBeNull();
  };
  let cached: TestServer;
  let key: string;
  beforeAll(async () => {
    cached = await startTestServer({ DEMO: 'on' });
    ({ secretKey: key } = await cached.merchant({ allowed_origins: ['https://shop.example'] }));
  });
  afterAll(() => cached.close());

  const create = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    cached.merchantPost(key, '/api/sessions', { amount: 2400, currency: 'USD', country_code: 'US', ...body }, headers);

  it('on create and its idempotent replay, the merchant view and the public view', async () => {
    const created = await create({}, { 'idempotency-key': 'cache-1' });
    expect(created.status).toBe(201);
    noStore(created);
    const replayed = await create({}, { 'idempotency-key': 'cache-1' });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    noStore(replayed);
    const session = (await created.json()) as CreatedSession;
    noStore(await fetch(`${cached.url}/api/sessions/${session.id}`, { headers: { authorization: `Bearer ${key}` } }));
    noStore(await fetch(`${cached.url}/api/sessions/${session.id}/public`, { headers: { authorization: `Bearer ${session.client_secret}` } }));
  });

  it('on pay, capture and release of a hold', async () => {
    const hold = async () => {
      const session = (await (await create({ intent: 'hold' })).json()) as CreatedSession;
      const paid = await cached.pay(session, { payment_data: await cached.walletPaymentData(session, 'visa-success-3ds') });
      expect(paid.status).toBe(200);
      noStore(paid);
      return session;
    };
    const captured = await cached.merchantPost(key, `/api/sessions/${(await hold()).id}/capture`, {});
    expect(captured.status).toBe(200);
    noStore(captured);
    const released = await cached.merchantPost(key, `/api/sessions/${(await hold()).id}/release`, {});
    expect(released.status).toBe(200);
    noStore(released);
  });

  it('on authenticate after a 3-D Secure challenge', async () => {
    const session = (await (await create({})).json()) as CreatedSession;
    const paid = (await (await cached.pay(session, { payment_data: await cached.walletPaymentData(session, 'visa-3ds-required-pan') })).json()) as PayReply;
    expect(paid.outcome.status).toBe('requires_authentication');
    const cancelled = await cached.authenticate(session, { cancel: true });
    expect(cancelled.status).toBe(200);
    noStore(cancelled);
  });

  it("gives the JSON API's replies helmet's headers with a policy that loads and frames nothing, the same on every reply", async () => {
    const session = await cached.createSession(key);
    const replies = [
      await fetch(`${cached.url}/api/sessions/${session.id}/public`, { headers: { authorization: `Bearer ${session.client_secret}` } }),
      await fetch(`${cached.url}/api/sessions/${session.id}`, { headers: { authorization: `Bearer ${key}` } }),
      // Refused before any route, and a path no route has: the same headers.
      await fetch(`${cached.url}/api/sessions/${session.id}/public`),
      await fetch(`${cached.url}/api/no_such_thing`),
    ];
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 401, 404]);
    const page = await fetch(`${cached.url}/`);
    for (const reply of replies) {
      expect(reply.headers.get('content-security-policy'), reply.url).toBe("default-src 'none';frame-ancestors 'none'");
      expect(reply.headers.get('x-frame-options')).toBe('DENY');
      expect(reply.headers.get('cache-control')).toBe('no-store');
      // Every other header helmet gives a page, as it gives it.
      for (const name of ['x-content-type-options', 'strict-transport-security', 'cross-origin-opener-policy', 'cross-origin-resource-policy', 'referrer-policy', 'origin-agent-cluster', 'x-dns-prefetch-control', 'x-download-options', 'x-permitted-cross-domain-policies', 'x-xss-protection']) {
        expect(reply.headers.get(name), name).toBe(page.headers.get(name));
        expect(reply.headers.get(name), name).not.toBeNull();
      }
      expect(reply.headers.get('x-powered-by')).toBeNull();
    }
  });

  it('on the demo store page, which holds a client secret', async () => {
    const page = await fetch(`${cached.url}/`);
    expect(await page.text()).toContain('_secret_');
    noStore(page);
  });
});
