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

/**
 * Bodies of hostile shape, from a client with no credential: each is refused by its shape, on
 * its raw bytes, before JSON.parse and before any walk of the parsed value (a `[[[[...`
 * 5,000 deep used to overflow the recursive text check and kill the process), and the server
 * goes on answering.
 */
describe('bodies of hostile shape', () => {
  const deepArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const deepObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const wideObject = (keys: number) => `{${Array.from({ length: keys }, (_, i) => `"k${i}":0`).join(',')}}`;
  /** Many objects of 200 keys each: none too wide, too many keys in all. */
  const manyKeys = (total: number) => `{"x":[${Array.from({ length: Math.ceil(total / 200) }, () => `{${Array.from({ length: 200 }, () => '"a":0').join(',')}}`).join(',')}]}`;
  const longString = (bytes: number) => `{"description":"${'x'.repeat(bytes)}"}`;
  const hostile: [string, string, string][] = [
    ['arrays 5,000 deep', deepArrays(5_000), 'the body nests deeper than 32 levels'],
    ['objects 3,000 deep', deepObjects(3_000), 'the body nests deeper than 32 levels'],
    ['arrays 33 deep', deepArrays(33), 'the body nests deeper than 32 levels'],
    ['an object of 257 keys', wideObject(257), 'an object in the body has more than 256 keys'],
    ['4,200 keys in all', manyKeys(4_200), 'the body has more than 4096 keys in all'],
    ['a string of 16,385 bytes', longString(16_385), 'a string in the body is longer than 16384 bytes'],
  ];
  const KB = 1024;
  const routes = () => [
    ['/api/sessions', 32 * KB, { authorization: 'Bearer sk_nobody' }],
    [`/api/sessions/${session.id}/pay`, 32 * KB, {}],
    [`/api/sessions/${session.id}/authenticate`, 32 * KB, {}],
    [`/api/sessions/${session.id}/capture`, 32 * KB, {}],
    [`/api/sessions/${session.id}/refunds`, 32 * KB, {}],
    ['/api/keys/roll', 32 * KB, {}],
    ['/api/webhook_endpoints', 32 * KB, {}],
    ['/sandbox/wallet/tokens', 64 * KB, {}],
    ['/sandbox/wallet/sheets', 16 * KB, {}],
  ] as const;

  it.each(hostile)('%s: 400 invalid_request naming the limit (413 over the route\'s size), on every body route, before authentication; the server lives on', async (_name, body, message) => {
    for (const [path, limit, headers] of routes()) {
      const reply = await fetch(`${server.url}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
      const refusal = body.length > limit ? { code: 'payload_too_large', message: 'The body is too large' } : { code: 'invalid_request', message };
      expect(reply.status, path).toBe(body.length > limit ? 413 : 400);
      expect(await errorOf(reply), path).toEqual(refusal);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    }
  });

  it('takes a body just inside every limit', async () => {
    const inside = JSON.stringify({ amount: 2400, currency: 'USD', country_code: 'US', description: 'x'.repeat(500) });
    const created = await fetch(`${server.url}/api/sessions`, { method: 'POST', headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' }, body: inside });
    expect(created.status).toBe(201);
    // 32 deep, 256 keys, a 16,384-byte string: past the edge, refused by the schema instead.
    for (const body of [deepArrays(32), wideObject(256), longString(16_384)]) {
      const reply = await fetch(`${server.url}/api/sessions`, { method: 'POST', headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' }, body });
      expect(reply.status).toBe(400);
      expect((await errorOf(reply)).message).not.toMatch(/nests deeper|more than \d+ keys|longer than/);
    }
  });

  it('a token nested 10,000 deep inside a string is refused as a token, not a crash', async () => {
    const token = deepArrays(8_000);
    const reply = await server.pay(session, JSON.stringify({ payment_data: { apiVersion: 2, apiVersionMinor: 0, paymentMethodData: { type: 'CARD', description: 'Visa 1111', info: { cardNetwork: 'VISA', cardDetails: '1111' }, tokenizationData: { type: 'PAYMENT_GATEWAY', token } } } }));
    expect(reply.status).toBe(400);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
