/**
 * The security basics every response carries, and the limits on what one
 * client address may ask.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness';

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
