/**
 * Hostile input, property-based: thousands of generated requests at every
 * public endpoint. Each must be refused with a 4xx `{error: {code, message}}`
 * (never a 5xx) and change nothing: no session created or moved, no attempt,
 * no charge in the sandbox ledger. The valid bodies mutated here carry a real
 * wallet token, so a refusal that slipped would show up as a charge.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBody, ChargeRequest, CreateSessionBody, PayBody, type CreatedSession, type PaymentData, type PaymentDataRequest } from '../../contracts';
import { startTestServer, type TestServer } from '../../testing/harness';
import { parseWalletToken } from './charge-source';

const MERCHANT_ID = 'hostile_shop';
const ALLOWED_ORIGIN = 'https://shop.example';
/** Per property: thousands of requests in all, in a few seconds. */
const RUNS = 400;

let server: TestServer;
let secretKey: string;
let session: CreatedSession;
let otherSession: CreatedSession;
/** Another application's: this merchant must not see it. */
let foreignSession: CreatedSession;
let payment: PaymentData;
let paymentDataRequest: PaymentDataRequest;
let baseline: string;

/** Everything a hostile request could change: sessions, attempts, the service's ledger. */
async function state(): Promise<string> {
  const sessions = await server.store.selectFrom('sessions').select(['id', 'status', 'attempts', 'outcome', 'updated']).orderBy('id').execute();
  const attempts = await server.store.selectFrom('charge_attempts').select('id').execute();
  const ledger = await server.sandbox!.ledger();
  return JSON.stringify({ sessions, attempts: attempts.length, ledger: ledger.length });
}

beforeAll(async () => {
  server = await startTestServer();
  ({ secretKey } = await server.merchant({ merchant_id: MERCHANT_ID, allowed_origins: [ALLOWED_ORIGIN] }));
  session = await server.createSession(secretKey);
  otherSession = await server.createSession(secretKey);
  foreignSession = await server.createSession((await server.merchant({ merchant_id: 'someone_else' })).secretKey);
  payment = await server.walletPaymentData(session, 'visa-success-3ds');
  paymentDataRequest = (await server.publicSession(session)).payment_data_request;
  baseline = await state();
  expect((JSON.parse(baseline) as { sessions: { status: string; attempts: number }[] }).sessions.map((s) => [s.status, s.attempts])).toEqual([['open', 0], ['open', 0], ['open', 0]]);
});
afterAll(() => server.close());

// ---- checks ----------------------------------------------------------------

async function expectRefused(response: Response, statuses?: number[]): Promise<void> {
  const text = await response.text();
  expect(response.status, text).toBeGreaterThanOrEqual(400);
  expect(response.status, text).toBeLessThan(500);
  if (statuses) expect(statuses, text).toContain(response.status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(ApiErrorBody.safeParse(JSON.parse(text)).success, text).toBe(true);
}

async function expectUnchanged(): Promise<void> {
  expect(await state()).toBe(baseline);
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

// ---- generators ------------------------------------------------------------

type Path = (string | number)[];
type Node = Record<string | number, unknown>;

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const shapeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
const at = (value: unknown, path: Path): unknown => path.reduce<unknown>((node, key) => (node as Node)[key], value);

/** Every node below the root, as the path to it. */
function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.keys(value).flatMap((key) => {
    const path = [...prefix, Array.isArray(value) ? Number(key) : key];
    return [path, ...pathsOf((value as Node)[key], path)];
  });
}

function edited(value: unknown, path: Path, change: (parent: Node, key: string | number) => void): unknown {
  const copy = structuredClone(value);
  change(at(copy, path.slice(0, -1)) as Node, path.at(-1) as string | number);
  return copy;
}

/** Own enumerable, even for `__proto__`, so JSON.stringify sends it as a field. */
const setField = (target: object, key: string, value: unknown) => Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });

/** A valid body, broken one way: a field dropped, a field of another type, an unknown field (the browser's amount or currency among them). */
function mutantOf(valid: unknown): fc.Arbitrary<unknown> {
  const paths = pathsOf(valid);
  const objectPaths = [[], ...paths.filter((path) => isPlainObject(at(valid, path)))];
  const dropped = fc.constantFrom(...paths).map((path) =>
    edited(valid, path, (parent, key) => {
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
    }),
  );
  const retyped = fc
    .tuple(fc.constantFrom(...paths), fc.jsonValue({ maxDepth: 2 }))
    .filter(([path, value]) => shapeOf(value) !== shapeOf(at(valid, path)))
    .map(([path, value]) => edited(valid, path, (parent, key) => setField(parent, String(key), value)));
  const extra = fc
    .tuple(fc.constantFrom(...objectPaths), fc.oneof(fc.constantFrom('amount', 'currency', '__proto__', 'constructor', 'status'), fc.string({ minLength: 1, maxLength: 12 })), fc.jsonValue({ maxDepth: 1 }))
    .filter(([path, key]) => !Object.hasOwn(at(valid, path) as object, key))
    .map(([path, key, value]) => {
      const copy = structuredClone(valid);
      setField(at(copy, path) as object, key, value);
      return copy;
    });
  return fc.oneof(dropped, retyped, extra);
}

/** Bodies as text: anything, any JSON, malformed JSON, mutants and truncations of a valid body. */
function hostileText(valid: unknown): fc.Arbitrary<string> {
  const validText = JSON.stringify(valid);
  return fc.oneof(
    fc.anything().map((value) => JSON.stringify(value) ?? ''),
    fc.json(),
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.constantFrom('', 'null', '[]', '{}', '"x"', '0', '{"a":1,}', "{'a':1}", '{"a":1}{"b":2}', '\uFEFF{}', 'NaN', '{"a":1e999999}'),
    mutantOf(valid).map((body) => JSON.stringify(body)),
    fc.integer({ min: 0, max: validText.length - 1 }).map((end) => validText.slice(0, end)),
  );
}

/**
 * Header values fetch can send: printable ASCII and Latin-1. Without spaces (U+00A0 included):
 * trailing whitespace after a right credential is still that credential.
 */
const headerText = (maxLength = 120) =>
  fc.string({ unit: fc.oneof(fc.integer({ min: 0x21, max: 0x7e }), fc.integer({ min: 0xa1, max: 0xff })).map((code) => String.fromCharCode(code)), maxLength });

/** A credential that is not `secret`: near misses, other credentials, junk. */
function wrongCredential(secret: string, others: string[]): fc.Arbitrary<string> {
  const nearMiss = fc.oneof(
    fc.tuple(fc.nat({ max: secret.length - 1 }), fc.constantFrom(...'aZ09_-x')).filter(([i, c]) => secret[i] !== c).map(([i, c]) => secret.slice(0, i) + c + secret.slice(i + 1)),
    fc.nat({ max: secret.length - 1 }).map((end) => secret.slice(0, end)),
    headerText(8).filter((s) => s.length > 0).map((suffix) => secret + suffix),
    fc.constant(secret.toUpperCase()),
  );
  return fc.oneof(nearMiss, fc.constantFrom(...others), headerText()).filter((candidate) => candidate !== secret);
}

/** Authorization headers that do not carry `secret` as a Bearer credential. */
const wrongAuthorization = (secret: string, others: string[]) =>
  fc.oneof(
    wrongCredential(secret, others).map((credential) => `Bearer ${credential}`),
    fc.constantFrom('', 'Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', `Basic ${secret}`, secret, `Token ${secret}`, `Bearer ${secret} ${secret}`),
    headerText(),
  );

/** Mostly JSON, so most bodies get as far as validation. */
const contentTypes = fc.oneof(
  { arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON'), weight: 3 },
  fc.constantFrom(
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
    'application/json; charset=bogus',
    'application/vnd.api+json',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'text/json',
  ),
);

/** Content-Encodings body-parser refuses outright (415); compressed ones are a separate finding, below. */
const contentEncodings = fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, fc.constantFrom('identity', 'compress', 'x-unknown'));

const foreignOrigins = fc
  .oneof(
    fc.webUrl().map((url) => new URL(url).origin),
    fc.constantFrom('null', 'http://shop.example', 'https://shop.example.evil.test', 'https://evil.test', 'https://SHOP.EXAMPLE', 'https://shop.example:8443', 'file://'),
    headerText(60).filter((s) => s.length > 0),
  )
  .filter((origin) => origin !== ALLOWED_ORIGIN && origin !== server.url);

/** Path segments for a session id: junk, unicode, traversal-ish, other ids; always well-formed percent-encoding. */
const sessionIds = () =>
  fc.oneof(
    fc.string({ unit: 'grapheme' }).filter((s) => s.length > 0).map(encodeURIComponent),
    fc.string({ unit: 'binary' }).filter((s) => s.length > 0).map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, '?'))),
    fc.constantFrom('..', '.', '../../apps', '..%2F..%2Fetc%2Fpasswd', '%2e%2e', '%2e%2e%2fapi', '%00', 'cs_%00', 'cs_', `${session.id}%00`, `${session.id}%20`, session.id.toUpperCase(), `${session.id}/..`, '%EF%BC%8E%EF%BC%8E'),
    wrongCredential(session.id, [foreignSession.id]).map(encodeURIComponent),
  );

interface HostileRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string | undefined>;
  body?: string;
}

async function send(request: HostileRequest): Promise<Response> {
  const headers = Object.fromEntries(Object.entries(request.headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return fetch(`${server.url}${request.path}`, { method: request.method, headers, ...(request.body === undefined ? {} : { body: request.body }) });
}

/** The property every hostile request must have: refused with a JSON 4xx, nothing changed. */
const refusedUnchanged = async (request: HostileRequest, statuses?: number[]) => {
  await expectRefused(await send(request), statuses);
  await expectUnchanged();
};

/** No shrinking: once state has changed every later input fails too, so the first failing input is the one to report. */
const assertAsync = <T>(arbitrary: fc.Arbitrary<T>, check: (value: T) => Promise<void>, numRuns = RUNS) =>
  fc.assert(fc.asyncProperty(arbitrary, check), { numRuns, endOnFailure: true });

const merchantAuth = () => ({ authorization: `Bearer ${secretKey}` });
const clientAuth = (s: CreatedSession = session) => ({ authorization: `Bearer ${s.client_secret}` });
const serviceAuth = () => ({ authorization: `Bearer ${server.sandbox!.serviceSecretKey}`, 'merchant-account': MERCHANT_ID });
const validSessionBody = { amount: 2400, currency: 'USD', country_code: 'US', description: 'Coffee', reference: 'order-1' };
const validPayBody = () => ({ payment_data: payment });
/** The wallet's token, parsed: the `walletpay` object of a charge. */
const genuineToken = () => JSON.parse(payment.paymentMethodData.tokenizationData.token) as Record<string, unknown>;
const validCharge = () => ({ source_data: { type: 'walletpay', walletpay: genuineToken() }, amount: 2400, currency: 'usd' });

/** For `.filter`: skips, rather than sends, the rare generated body that is a valid request. */
const refusable = (acceptable: (body: unknown) => boolean) => (text: string) => !acceptable(parsed(text));

/** What /pay would act on: a PayBody whose token is an ECv2 token (only the service can tell a forged one). */
const payable = (body: unknown) => {
  const pay = PayBody.safeParse(body);
  return pay.success && parseWalletToken(pay.data.payment_data.paymentMethodData.tokenizationData.token).ok;
};

/** Tokens that are not JSON, not ECv2, or an ECv2 token broken: as the widget would post them. */
function hostileTokens(): fc.Arbitrary<string> {
  const token = payment.paymentMethodData.tokenizationData.token;
  const ecv2 = genuineToken();
  return fc.oneof(
    fc.string(),
    fc.json(),
    fc.integer({ min: 0, max: token.length - 1 }).map((end) => token.slice(0, end)),
    mutantOf(ecv2).map((mutant) => JSON.stringify(mutant)),
    fc.constantFrom('ECv1', 'ECv3', 'ecv2', 'EC', '').map((protocolVersion) => JSON.stringify({ ...ecv2, protocolVersion })),
  );
}

/** ECv2 in shape, forged in content: only the service, which decrypts, can refuse them. */
function forgedTokens(): fc.Arbitrary<Record<string, unknown>> {
  const ecv2 = genuineToken();
  const stringPaths = pathsOf(ecv2).filter((path) => typeof at(ecv2, path) === 'string' && path.at(-1) !== 'protocolVersion');
  return fc
    .tuple(fc.constantFrom(...stringPaths), fc.oneof(fc.string({ minLength: 1 }), fc.base64String({ minLength: 4 }), fc.json()))
    .filter(([path, value]) => value !== at(ecv2, path))
    .map(([path, value]) => edited(ecv2, path, (parent, key) => setField(parent, String(key), value)) as Record<string, unknown>);
}

const withToken = (tokenText: string) => {
  const body = structuredClone(validPayBody());
  body.payment_data.paymentMethodData.tokenizationData.token = tokenText;
  return body;
};

// ---- properties ------------------------------------------------------------

describe('POST /api/sessions (secret key)', () => {
  const acceptable = (body: unknown) => CreateSessionBody.safeParse(body).success;

  it('refuses generated bodies, whatever the content type', async () => {
    await assertAsync(fc.record({ body: hostileText(validSessionBody).filter(refusable(acceptable)), type: contentTypes, encoding: contentEncodings }), ({ body, type, encoding }) =>
      refusedUnchanged({ method: 'POST', path: '/api/sessions', headers: { ...merchantAuth(), 'content-type': type, 'content-encoding': encoding }, body }),
    );
  });

  it('refuses a valid body without the right secret key', async () => {
    const others = [session.client_secret, server.sandbox!.serviceSecretKey, 'sk_test_', 'sk_live_x'];
    await assertAsync(wrongAuthorization(secretKey, others), (authorization) =>
      refusedUnchanged({ method: 'POST', path: '/api/sessions', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify(validSessionBody) }, [401]),
    );
  });
});

describe('GET /api/sessions/{id} (secret key)', () => {
  it('answers 404 for any other id (400 for one with a NUL), and 401 for any other key', async () => {
    // An id of dot segments (`.`, `cs_.../..`) is resolved by the client itself to /api/sessions/: that is the listing, GET /api/sessions (session-list.test.ts).
    const namesASession = (id: string) => new URL(`/api/sessions/${id}`, server.url).pathname !== '/api/sessions/';
    await assertAsync(sessionIds().filter(namesASession), (id) => refusedUnchanged({ method: 'GET', path: `/api/sessions/${id}`, headers: merchantAuth() }, [400, 404]));
    await assertAsync(wrongAuthorization(secretKey, [session.client_secret]), (authorization) =>
      refusedUnchanged({ method: 'GET', path: `/api/sessions/${session.id}`, headers: { authorization } }, [401]),
    );
  });
});

describe('GET /api/sessions/{id}/public (client secret)', () => {
  it('refuses wrong or reused client secrets, other ids and foreign origins', async () => {
    const request = fc.oneof(
      wrongAuthorization(session.client_secret, [otherSession.client_secret, secretKey]).map((authorization) => ({ id: session.id, headers: { authorization } })),
      sessionIds().map((id) => ({ id, headers: clientAuth() })),
      foreignOrigins.map((origin) => ({ id: session.id, headers: { ...clientAuth(), origin } })),
    );
    await assertAsync(request, ({ id, headers }) => refusedUnchanged({ method: 'GET', path: `/api/sessions/${id}/public`, headers }, [400, 401, 403, 404]));
  });
});

describe('POST /api/sessions/{id}/pay (client secret)', () => {
  it('refuses generated bodies and broken tokens, never charging', async () => {
    const body = fc.oneof(hostileText(validPayBody()), hostileTokens().map((token) => JSON.stringify(withToken(token))));
    await assertAsync(fc.record({ body: body.filter(refusable(payable)), type: contentTypes, encoding: contentEncodings }), ({ body, type, encoding }) =>
      refusedUnchanged({ method: 'POST', path: `/api/sessions/${session.id}/pay`, headers: { ...clientAuth(), 'content-type': type, 'content-encoding': encoding }, body }),
    );
  });

  it('refuses an amount or currency sent by the browser', async () => {
    const field = fc.tuple(fc.constantFrom('amount', 'currency', 'total', 'totalPrice'), fc.oneof(fc.nat(), fc.constantFrom('1', '0.01', 'USD', 'usd', 'EUR')));
    await assertAsync(field, ([key, value]) =>
      refusedUnchanged({ method: 'POST', path: `/api/sessions/${session.id}/pay`, headers: { ...clientAuth(), 'content-type': 'application/json' }, body: JSON.stringify({ ...validPayBody(), [key]: value }) }, [400]),
    100);
  });

  it('refuses a valid payment without the right client secret, on the wrong session, or from a foreign origin', async () => {
    const request = fc.oneof(
      wrongAuthorization(session.client_secret, [otherSession.client_secret, secretKey]).map((authorization) => ({ id: session.id, headers: { authorization } })),
      fc.constant({ id: otherSession.id, headers: clientAuth(session) }),
      fc.constant({ id: session.id, headers: clientAuth(otherSession) }),
      sessionIds().map((id) => ({ id, headers: clientAuth() })),
      foreignOrigins.map((origin) => ({ id: session.id, headers: { ...clientAuth(), origin } })),
    );
    await assertAsync(request, ({ id, headers }) =>
      refusedUnchanged({ method: 'POST', path: `/api/sessions/${id}/pay`, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(validPayBody()) }, [400, 401, 403, 404]),
    );
  });
});

describe('POST /sandbox/service/api/v1/charges (service key)', () => {
  const path = '/sandbox/service/api/v1/charges';
  /** Only the genuine token can charge: a forged one in a valid request is the service's to refuse. */
  const acceptable = (body: unknown) => {
    const charge = ChargeRequest.safeParse(body);
    return charge.success && charge.data.source_data.type === 'walletpay' && isDeepStrictEqual(charge.data.source_data.walletpay, genuineToken());
  };

  it('refuses generated bodies and tokens, never charging', async () => {
    const body = fc.oneof(
      hostileText(validCharge()),
      fc.oneof(hostileTokens().map((token) => parsed(token) ?? token), forgedTokens()).map((walletpay) => JSON.stringify({ ...validCharge(), source_data: { type: 'walletpay', walletpay } })),
    );
    const idempotencyKey = fc.option(headerText(255).filter((key) => key.length > 0), { nil: undefined });
    await assertAsync(fc.record({ body: body.filter(refusable(acceptable)), type: contentTypes, encoding: contentEncodings, idempotencyKey }), ({ body, type, encoding, idempotencyKey }) =>
      refusedUnchanged({ method: 'POST', path, headers: { ...serviceAuth(), 'content-type': type, 'content-encoding': encoding, 'idempotency-key': idempotencyKey }, body }),
    );
  });

  it('refuses a valid charge without the service key, or for another merchant', async () => {
    const request = fc.oneof(
      wrongAuthorization(server.sandbox!.serviceSecretKey, [secretKey, session.client_secret]).map((authorization) => ({ ...serviceAuth(), authorization })),
      fc.oneof(headerText(300), fc.constantFrom('', MERCHANT_ID.toUpperCase(), `mrchnt_${MERCHANT_ID}`, `${MERCHANT_ID},${MERCHANT_ID}`)).filter((account) => account !== MERCHANT_ID).map((account) => ({ ...serviceAuth(), 'merchant-account': account })),
    );
    await assertAsync(request, (headers) => refusedUnchanged({ method: 'POST', path, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(validCharge()) }, [400, 401, 403]));
  });
});

describe('POST /sandbox/wallet/tokens', () => {
  const validRequest = () => ({ card_id: 'visa-success-3ds', payment_data_request: paymentDataRequest });

  it('refuses generated bodies (2xx only for a valid request), changing nothing', async () => {
    await assertAsync(fc.record({ body: hostileText(validRequest()), type: contentTypes, encoding: contentEncodings }), async ({ body, type, encoding }) => {
      const response = await send({ method: 'POST', path: '/sandbox/wallet/tokens', headers: { 'content-type': type, 'content-encoding': encoding }, body });
      if (response.ok) {
        // A mutant that kept the request valid (an optional field dropped): the wallet mints, as Google would.
        expect(response.status).toBe(200);
        expect(parsed(body)).toMatchObject({ card_id: expect.any(String), payment_data_request: expect.any(Object) });
        await response.body?.cancel();
      } else {
        await expectRefused(response);
      }
      await expectUnchanged();
    });
  });
});

describe('oversized bodies', () => {
  it.each([
    ['/api/sessions', 32 * 1024, merchantAuth, () => validSessionBody],
    [`/api/sessions/{id}/pay`, 32 * 1024, clientAuth, validPayBody],
    ['/sandbox/service/api/v1/charges', 64 * 1024, serviceAuth, validCharge],
    ['/sandbox/wallet/tokens', 64 * 1024, () => ({}), () => ({ card_id: 'visa-success-3ds', payment_data_request: paymentDataRequest })],
  ])('%s refuses a body over its limit with 413', async (route, limit, auth, valid) => {
    const path = route.replace('{id}', session.id);
    await assertAsync(fc.integer({ min: limit + 1, max: limit * 4 }), async (size) => {
      const body = JSON.stringify({ ...valid(), padding: 'x'.repeat(size) });
      const response = await send({ method: 'POST', path, headers: { ...auth(), 'content-type': 'application/json' }, body });
      await expectRefused(response, [413]);
      await expectUnchanged();
    }, 10);
  });
});

/**
 * Inputs these properties once found answering 500: Express and body-parser
 * raise them with a 4xx status, which http/errors.ts's clientErrors now keeps.
 */
describe('errors raised below our handlers', () => {
  // A malformed percent-encoding in a path parameter makes Express's router throw a URIError (status 400).
  it('a malformed percent-encoding in a session id is a 4xx', async () => {
    const malformed = fc.constantFrom('%', '%E0%A4%A', '%ZZ', 'cs_%', '%C0', '%FF%FE');
    const paths = fc.constantFrom((id: string) => `/api/sessions/${id}`, (id: string) => `/api/sessions/${id}/public`, (id: string) => `/sandbox/service/api/v1/charges/${id}`);
    await assertAsync(fc.tuple(malformed, paths), ([id, pathFor]) => refusedUnchanged({ method: 'GET', path: pathFor(id), headers: { ...merchantAuth() } }), 20);
  });

  // body-parser inflates gzip/deflate/br bodies; one that is not what it claims fails in zlib with a 400 status but no `type`.
  it('a body that is not in its Content-Encoding is a 4xx', async () => {
    const endpoint = fc.constantFrom(
      { path: '/api/sessions', headers: merchantAuth },
      { path: `/api/sessions/{id}/pay`, headers: clientAuth },
      { path: '/sandbox/service/api/v1/charges', headers: serviceAuth },
      { path: '/sandbox/wallet/tokens', headers: () => ({}) },
    );
    await assertAsync(fc.tuple(endpoint, fc.constantFrom('gzip', 'deflate', 'br'), fc.string({ minLength: 1 })), ([{ path, headers }, encoding, body]) =>
      refusedUnchanged({ method: 'POST', path: path.replace('{id}', session.id), headers: { ...headers(), 'content-type': 'application/json', 'content-encoding': encoding }, body }),
    20);
  });
});
