/**
 * What is refused at the edge, before authentication or any read of the
 * store: text the store cannot keep (NUL, unpaired surrogates) anywhere in a
 * body or a path id, and ids that cannot name a session. On PostgreSQL (when
 * its binaries are installed) a NUL used to reach the driver and answer 500.
 */
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutBodies } from '../checkout/routes';
import type { CreatedSession, Session } from '../../contracts';
import { dashboardBodies } from '../dashboard/routes';
import { openApiDocument } from '../openapi';
import { serviceBodies } from '../../sandbox/service-api';
import { walletBodies } from '../../sandbox/wallet-api';
import { startTestServer, type TestServer } from '../../testing/harness';
import { createTestDatabase, type TestDatabase, testDatabaseServer } from '../../testing/postgres';
import { webhookBodies } from '../webhooks/routes';
import { paymentMethodBodies } from '../payment-methods/routes';
import { disputeBodies } from '../disputes/routes';
import { testClockBodies } from '../checkout/test-clock-routes';
import { type BodyRules, routesOf } from '../../common/http/body';

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
    ['16,385 values', `{"a":[${'0,'.repeat(16_383)}0]}`, 'the body has more than 16384 values in all (array elements and object members)'],
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

  it('refuses bytes that are not UTF-8, a byte-order mark, and JSON that is not an object', async () => {
    const post = (body: BodyInit) => fetch(`${server.url}/api/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(await errorOf(await post(new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])))).toEqual({ code: 'invalid_json', message: 'The body is not valid UTF-8' });
    expect(await errorOf(await post('\uFEFF{}'))).toEqual({ code: 'invalid_json', message: 'The body is not valid JSON' });
    for (const body of ['[]', '"x"', 'null', '1']) expect(await errorOf(await post(body))).toEqual({ code: 'invalid_request', message: '(body): the body must be a JSON object' });
  });

  it('a token nested 10,000 deep inside a string is refused as a token, not a crash', async () => {
    const token = deepArrays(8_000);
    const reply = await server.pay(session, JSON.stringify({ payment_data: { apiVersion: 2, apiVersionMinor: 0, paymentMethodData: { type: 'CARD', description: 'Visa 1111', info: { cardNetwork: 'VISA', cardDetails: '1111' }, tokenizationData: { type: 'PAYMENT_GATEWAY', token } } } }));
    expect(reply.status).toBe(400);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

/**
 * Strict content types, route by route: every route that takes a body (each router's BodyRules,
 * which the edge reads bodies by) and every operation of the OpenAPI document, so that a route
 * added to either is covered without a line here. The edge answers before routing, authentication
 * or the store, so no credential and no real id is needed.
 */
describe('content types, on every route', () => {
  const prefixed = (prefix: string, rules: BodyRules) => routesOf(rules).map((route) => ({ ...route, path: `${prefix}${route.path}` }));
  const bodyRoutes = [
    ...prefixed('', checkoutBodies),
    ...prefixed('', webhookBodies),
    ...prefixed('', paymentMethodBodies),
    ...prefixed('', disputeBodies),
    ...prefixed('', testClockBodies),
    ...prefixed('', dashboardBodies),
    ...prefixed('/sandbox/wallet', walletBodies),
    ...prefixed('/sandbox/service', serviceBodies),
  ];
  /** `:id` and `{id}` alike: any id reaches the edge's answer. */
  const concrete = (path: string) => path.replace(/:\w+|\{\w+\}/g, 'cs_AAAAAAAAAAAAAAAAAAAAAA');
  const send = (method: string, path: string, headers: Record<string, string>, body?: string | Uint8Array) =>
    method === 'GET' || method === 'HEAD'
      ? withBody(method, path, headers, body ?? '')
      : fetch(`${server.url}${concrete(path)}`, { method, headers, ...(body === undefined ? {} : { body: body as BodyInit }) });
  /** fetch sends no body on a GET: node:http does, as any client may. */
  const withBody = (method: string, path: string, headers: Record<string, string>, body: string | Uint8Array) =>
    new Promise<Response>((resolve, reject) => {
      const outgoing = request(`${server.url}${concrete(path)}`, { method, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => resolve(new Response(Buffer.concat(chunks), { status: incoming.statusCode, headers: incoming.headers as Record<string, string> })));
      });
      outgoing.on('error', reject).end(body);
    });
  const json = '{"amount":1}';
  const notJson: [string, Record<string, string>, string | Uint8Array][] = [
    ['text/plain', { 'content-type': 'text/plain' }, json],
    ['a form', { 'content-type': 'application/x-www-form-urlencoded' }, 'amount=1'],
    ['multipart', { 'content-type': 'multipart/form-data; boundary=x' }, `--x\r\nContent-Disposition: form-data; name="amount"\r\n\r\n1\r\n--x--\r\n`],
    ['no Content-Type', {}, new TextEncoder().encode(json)],
    ['charset=utf-16', { 'content-type': 'application/json; charset=utf-16' }, json],
    ['charset=latin1', { 'content-type': 'application/json; charset=latin1' }, json],
    ['a +json type', { 'content-type': 'application/merchant-patch+json' }, json],
    ['a parameter', { 'content-type': 'application/json; profile=x' }, json],
    ['text/json', { 'content-type': 'text/json' }, json],
    ['gzip', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, gzipSync(json)],
  ];

  it('has a rule for each body the document declares, and the same requirement', () => {
    const document = openApiDocument('http://127.0.0.1');
    for (const [template, item] of Object.entries(document.paths ?? {})) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
        const operation = item?.[method];
        if (!operation) continue;
        const rule = bodyRoutes.find((route) => route.method === method.toUpperCase() && concrete(route.path) === concrete(template));
        const declared = operation.requestBody as { required?: boolean; content: Record<string, unknown> } | undefined;
        expect(!!declared, `${method} ${template}`).toBe(!!rule);
        if (!declared || !rule) continue;
        expect(Object.keys(declared.content), `${method} ${template}`).toEqual(['application/json']);
        expect(!!declared.required, `${method} ${template}`).toBe(rule.rule.body === 'required');
        expect(Object.keys(operation.responses ?? {}), `${method} ${template}`).toEqual(expect.arrayContaining(['400', '413', '415']));
      }
    }
  });

  it.each(notJson)('refuses %s with 415 on every route that takes a JSON body', async (_name, headers, body) => {
    for (const { method, path, rule } of bodyRoutes) {
      if (rule.body === 'form') continue;
      const reply = await send(method, path, headers, body);
      expect(reply.status, `${method} ${path}`).toBe(415);
      expect((await errorOf(reply)).code, `${method} ${path}`).toBe('unsupported_media_type');
    }
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it("refuses JSON on the 3-D Secure page's form", async () => {
    for (const { method, path } of bodyRoutes.filter((route) => route.rule.body === 'form')) {
      const reply = await send(method, path, { 'content-type': 'application/json' }, '{"action":"complete"}');
      expect(reply.status, path).toBe(415);
    }
  });

  it('refuses an empty body with a Content-Type other than JSON, and an empty required body', async () => {
    for (const { method, path, rule } of bodyRoutes) {
      if (rule.body === 'form') continue;
      const typed = await send(method, path, { 'content-type': 'text/plain' }, '');
      expect(typed.status, `${method} ${path}`).toBe(415);
      const empty = await send(method, path, { 'content-type': 'application/json' }, '');
      if (rule.body === 'required') {
        expect(empty.status, `${method} ${path}`).toBe(400);
        expect(await errorOf(empty)).toEqual({ code: 'invalid_request', message: '(body): a JSON object is required' });
      } else {
        // Past the edge: the route's own answer (no credential: 401, or a 404 for the made-up id).
        expect([401, 403, 404], `${method} ${path}`).toContain(empty.status);
      }
    }
  });

  it('routes every rule to a real route (no rule outlives its route)', async () => {
    for (const { method, path } of bodyRoutes) {
      const reply = await send(method, path, { 'content-type': 'application/json' }, '{}');
      const body = await reply.text();
      expect(body, `${method} ${path}`).not.toContain('No such route');
    }
  });

  it('refuses a body on every operation of the document that takes none, with the code it declares', async () => {
    const document = openApiDocument('http://127.0.0.1');
    let checked = 0;
    for (const [template, item] of Object.entries(document.paths ?? {})) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
        const operation = item?.[method];
        if (!operation || operation.requestBody) continue;
        const reply = await send(method.toUpperCase(), template, { 'content-type': 'application/json' }, '{}');
        expect(reply.status, `${method} ${template}`).toBe(400);
        const description = (operation.responses?.['400'] as { description?: string } | undefined)?.description ?? '';
        if (template.startsWith('/v3/apps/')) {
          // The apps API's own shape: Google's error, reason bodyNotAllowed.
          expect(JSON.stringify(await reply.json())).toContain('bodyNotAllowed');
          expect(description).toContain('bodyNotAllowed');
        } else {
          expect(await errorOf(reply), `${method} ${template}`).toEqual({ code: 'body_not_allowed', message: 'No request body is taken here: this method and path take none' });
          expect(description, `${method} ${template}`).toContain('body_not_allowed');
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(8);
  });

  it.each([
    ['GET', '/dashboard/api/session'],
    ['DELETE', '/dashboard/api/session'],
    ['GET', '/dashboard/api/payments'],
    ['GET', '/sandbox/service/api/v1/charges'],
    ['GET', '/sandbox/wallet/root-keys.json'],
    ['GET', '/sandbox/service/faults'],
    ['GET', '/healthz'],
    ['GET', '/openapi.json'],
  ])('refuses a body on %s %s, a route outside the document that takes none', async (method, path) => {
    const reply = await send(method, path, { 'content-type': 'application/json' }, '{}');
    expect(reply.status).toBe(400);
    expect((await errorOf(reply)).code).toBe('body_not_allowed');
  });
});

/**
 * What the strict types protect: money moved, or a leaked key kept alive, by a body the server
 * did not read. Each used to run with its defaults (a refund of 1 as text/plain refunded all).
 */
describe('a body that is not JSON moves no money', () => {
  const paid = async (intent: 'charge' | 'hold') => {
    const created = await server.createSession(secretKey, { amount: 5000, intent });
    expect((await server.pay(created, { payment_data: await server.walletPaymentData(created, 'visa-success-3ds') })).status).toBe(200);
    return created;
  };
  const read = async (s: CreatedSession) => (await (await fetch(`${server.url}/api/sessions/${s.id}`, { headers: { authorization: `Bearer ${secretKey}` } })).json()) as Session;
  const post = (path: string, headers: Record<string, string>, body?: string) => fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${secretKey}`, ...headers }, body });

  it('a text/plain refund of 1 refunds nothing', async () => {
    const s = await paid('charge');
    const reply = await post(`/api/sessions/${s.id}/refunds`, { 'content-type': 'text/plain' }, '{"amount":1}');
    expect(reply.status).toBe(415);
    expect((await read(s)).amount_refunded).toBe(0);
    const part = await post(`/api/sessions/${s.id}/refunds`, { 'content-type': 'application/json' }, '{"amount":1}');
    expect(part.status).toBe(201);
    expect((await read(s)).amount_refunded).toBe(1);
  });

  it('a text/plain capture of 1 captures nothing; a capture with no body at all captures the whole hold', async () => {
    const s = await paid('hold');
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16']) {
      expect((await post(`/api/sessions/${s.id}/capture`, { 'content-type': type }, '{"amount":1}')).status).toBe(415);
    }
    expect((await read(s)).status).toBe('authorized');
    const all = await post(`/api/sessions/${s.id}/capture`, {});
    expect(all.status).toBe(200);
    expect(await read(s)).toMatchObject({ status: 'captured', amount_captured: 5000 });
  });

  it('a release takes no body or {}, and refuses an amount', async () => {
    const s = await paid('hold');
    const withAmount = await post(`/api/sessions/${s.id}/release`, { 'content-type': 'application/json' }, '{"amount":1}');
    expect(withAmount.status).toBe(400);
    expect((await errorOf(withAmount)).code).toBe('invalid_request');
    expect((await read(s)).status).toBe('authorized');
    expect((await post(`/api/sessions/${s.id}/release`, {})).status).toBe(200);
    const other = await paid('hold');
    expect((await post(`/api/sessions/${other.id}/release`, { 'content-type': 'application/json' }, '{}')).status).toBe(200);
  });

  it('a text/plain key roll with 0 rolls nothing: the key still works and no key is made', async () => {
    const { secretKey: key } = await server.merchant({ merchant_id: 'roll_text' });
    const roll = await fetch(`${server.url}/api/keys/roll`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' }, body: '{"expire_current_in_seconds":0}' });
    expect(roll.status).toBe(415);
    expect((await fetch(`${server.url}/api/sessions`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    const rolled = await fetch(`${server.url}/api/keys/roll`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"expire_current_in_seconds":0}' });
    expect(rolled.status).toBe(201);
    expect((await fetch(`${server.url}/api/sessions`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
  });
});
