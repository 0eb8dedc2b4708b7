/**
 * Replies compressed as the client asks (server/http/compression.ts), except those that carry a
 * secret (BREACH, docs/decisions.md) and the bundles, whose bytes were compressed at build time.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CreatedSession } from '../../contracts';
import { startTestServer, type TestServer } from '../../testing/harness';

let server: TestServer;
let secretKey: string;
beforeAll(async () => {
  server = await startTestServer({ DEMO: 'on' });
  ({ secretKey } = await server.merchant());
});
afterAll(() => server.close());

const asking = (encoding: string) => ({ headers: { 'accept-encoding': encoding } });

it('sends a JSON reply gzip when asked, the same document once decoded, and as it is when not', async () => {
  const zipped = await fetch(`${server.url}/openapi.json`, asking('gzip'));
  expect(zipped.headers.get('content-encoding')).toBe('gzip');
  expect(zipped.headers.get('content-type')).toMatch(/^application\/json/);
  expect(zipped.headers.get('vary')).toMatch(/accept-encoding/i);
  const plain = await fetch(`${server.url}/openapi.json`, asking('identity'));
  expect(plain.headers.get('content-encoding')).toBeNull();
  expect(await zipped.json()).toEqual(await plain.json());
});

it('sends an HTML page gzip when asked', async () => {
  const page = await fetch(`${server.url}/demo/gallery`, asking('gzip'));
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  expect(page.headers.get('content-encoding')).toBe('gzip');
  expect(await page.text()).toContain('<figure>');
});

it('never compresses a reply that carries a secret, which stays no-store', async () => {
  // The demo store's page holds a session's client secret; the merchant's list, the sessions' details.
  const page = await fetch(`${server.url}/`, asking('gzip, br'));
  expect(page.headers.get('cache-control')).toBe('no-store');
  expect(page.headers.get('content-encoding')).toBeNull();
  expect((await page.text()).length).toBeGreaterThan(1024);
  for (let i = 0; i < 6; i++) {
    const created = await server.merchantPost(secretKey, '/api/sessions', { amount: 2400 + i, currency: 'USD', country_code: 'US', description: 'A kit of coffee things' });
    expect(((await created.json()) as CreatedSession).client_secret).toBeTruthy();
  }
  const list = await fetch(`${server.url}/api/sessions?limit=6`, { headers: { authorization: `Bearer ${secretKey}`, 'accept-encoding': 'gzip' } });
  expect(list.headers.get('cache-control')).toBe('no-store');
  expect(list.headers.get('content-encoding')).toBeNull();
  expect((await list.text()).length).toBeGreaterThan(1024);
});

it('leaves the bundles as the build compressed them: no other encoding under their ETags', async () => {
  const deflateOnly = await fetch(`${server.url}/checkout.js`, asking('deflate'));
  expect(deflateOnly.headers.get('content-encoding')).toBeNull();
  expect(deflateOnly.headers.get('etag')).toMatch(/^"/);
});
