/**
 * What is refused at the edge, before authentication or any read of the
 * store: text the store cannot keep (NUL, unpaired surrogates) anywhere in a
 * body or a path id, and ids that cannot name a session. On PostgreSQL (when
 * its binaries are installed) a NUL used to reach the driver and answer 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedSession } from '../contracts';
import { startTestServer, type TestServer } from '../testing/harness';
import { createTestDatabase, type TestDatabase, testDatabaseServer } from '../testing/postgres';

const ALLOWED_ORIGIN = 'https://shop.example';

let database: TestDatabase | undefined;
let server: TestServer;
let secretKey: string;
let session: CreatedSession;
beforeAll(async () => {
  database = testDatabaseServer ? await createTestDatabase(testDatabaseServer) : undefined;
  server = await startTestServer(database ? { DATABASE_URL: database.url } : {});
  ({ secretKey } = await server.merchant({ allowed_origins: [ALLOWED_ORIGIN] }));
  session = await server.createSession(secretKey);
});
afterAll(async () => {
  await server.close();
  await database?.drop();
});

const errorOf = async (reply: Response) => ((await reply.json()) as { error: { code: string; message: string } }).error;

/** JSON text with `\u0000` or a lone surrogate escaped in it, as a hostile client would send it. */
const NUL = '\\u0000';
const LONE_SURROGATE = '\\ud800';

describe('text the store cannot keep', () => {
  it.each([
    ['description', NUL],
    ['reference', NUL],
    ['description', LONE_SURROGATE],
    ['reference', `x${LONE_SURROGATE}y`],
  ])('refuses a session whose %s holds %s with a 400 naming the field', async (field, text) => {
    const reply = await fetch(`${server.url}/api/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
      body: `{"amount": 2400, "currency": "USD", "country_code": "US", "${field}": "coffee${text}"}`,
    });
    expect(reply.status).toBe(400);
    expect(await errorOf(reply)).toEqual({ code: 'invalid_request', message: `${field}: text must not contain NUL characters or unpaired surrogates` });
  });

  it('refuses it before authentication, in a key as in a value, on every body', async () => {
    const bad = await fetch(`${server.url}/api/sessions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_wrong', 'content-type': 'application/json' },
      body: `{"amount": 2400, "currency": "USD", "country_code": "US", "a${NUL}": 1}`,
    });
    expect(bad.status).toBe(400);
    const pay = await server.pay(session, `{"payment_data": {"apiVersion": 2, "paymentMethodData": {"description": "x${NUL}"}}}`);
    expect(pay.status).toBe(400);
    expect((await errorOf(pay)).message).toBe('payment_data.paymentMethodData.description: text must not contain NUL characters or unpaired surrogates');
    const tokens = await fetch(`${server.url}/sandbox/wallet/tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"card_id": "${NUL}"}` });
    expect(tokens.status).toBe(400);
  });

  it.each([
    ['GET', '/api/sessions/%00', 'merchant'],
    ['GET', '/api/sessions/cs_%00/public', 'widget'],
    ['POST', '/api/sessions/cs_%00/capture', 'merchant'],
  ])('refuses %s %s (a path id with NUL) with a 400, before authentication', async (method, path) => {
    const reply = await fetch(`${server.url}${path}`, { method, headers: { authorization: 'Bearer nothing', 'content-type': 'application/json' }, body: method === 'POST' ? '{}' : undefined });
    expect(reply.status).toBe(400);
    expect(await errorOf(reply)).toMatchObject({ code: 'invalid_request' });
  });
});

describe('path ids', () => {
  it('answers 404 for an id that is not a session id, even from an origin the app does not allow', async () => {
    for (const id of ['nope', 'cs_short', `${session.id}x`, 'ch_123']) {
      const reply = await fetch(`${server.url}/api/sessions/${id}/public`, { headers: { authorization: `Bearer ${session.client_secret}`, origin: 'https://evil.example' } });
      expect(reply.status).toBe(404);
      expect((await errorOf(reply)).code).toBe('not_found');
    }
  });
});

describe('CORS preflights', () => {
  const preflight = (path: string, method: string) =>
    fetch(`${server.url}${path}`, {
      method: 'OPTIONS',
      headers: { origin: ALLOWED_ORIGIN, 'access-control-request-method': method, 'access-control-request-headers': 'authorization,content-type' },
    });

  it("are answered for the widget's routes", async () => {
    for (const [action, method] of [['public', 'GET'], ['pay', 'POST'], ['authenticate', 'POST']] as const) {
      const reply = await preflight(`/api/sessions/${session.id}/${action}`, method);
      expect(reply.status).toBe(204);
      expect(reply.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    }
  });

  it("are not answered for the merchant's routes: a browser page cannot capture or release", async () => {
    for (const path of [`/api/sessions/${session.id}/capture`, `/api/sessions/${session.id}/release`, `/api/sessions/${session.id}`, '/api/sessions']) {
      const reply = await preflight(path, 'POST');
      expect(reply.headers.get('access-control-allow-origin')).toBeNull();
      expect(reply.headers.get('access-control-allow-headers')).toBeNull();
    }
  });
});
