/**
 * Platform mode's origin verification over HTTP (docs/platform.md): an app's
 * origin gets an authJwt only once the origin served the app's token at
 * /.well-known/wallet-checkout-verification.txt. The origins here are small
 * HTTP servers on 127.0.0.1 serving (or not) that file; the servers under
 * test fetch loopback origins (ORIGIN_VERIFICATION_LOOPBACK=fetch) as
 * production fetches any origin, except where the test is about production's
 * address rule or development's loopback exemption.
 */
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { jwtVerify } from 'jose';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeCheckoutSettings, createApp } from '../apps';
import { type CreatedSession, type DashboardSignedIn, ORIGIN_VERIFICATION_PATH, type OriginVerification, type OriginVerificationList, type PublicSession } from '../../contracts';
import { openStore } from '../store';
import { originVerificationsOf } from '../store/origin-verifications';
import { startTestServer, type TestServer } from '../../testing/harness';
import { type Listening, listen } from '../../testing/listen';
import { fetchVerificationFile, isLoopbackOrigin, MAX_VERIFICATION_FILE_BYTES, sweepOriginVerifications } from './origin-verification';

const keys = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const PLATFORM = { PLATFORM_GOOGLE_MERCHANT_ID: 'BCR2DN4TPLATFORM', PLATFORM_SIGNING_KEY: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
const HOUR = 3_600_000;
/** "Verify now" fetches every time it is asked here (its 10 s spacing has a test of its own). */
const fetchingAlways = { verifyNowSpacingMs: 0, timeoutMs: 500 };

/** A merchant's site on 127.0.0.1: answers the verification file (and anything else) with `answer`, and notes each request. */
interface Site extends Listening {
  answer: (req: IncomingMessage, res: ServerResponse) => void;
  requests: { path: string; userAgent: string | undefined }[];
  /** Serves these lines as the verification file. */
  serve(...lines: string[]): void;
}

async function site(): Promise<Site> {
  const state: Pick<Site, 'answer' | 'requests'> = { answer: (_req, res) => res.writeHead(404).end('no such file'), requests: [] };
  const listening = await listen((req, res) => {
    state.requests.push({ path: req.url ?? '', userAgent: req.headers['user-agent'] });
    state.answer(req, res);
  });
  return Object.assign(state, listening, {
    serve(...lines: string[]) {
      state.answer = (req, res) => (req.url === ORIGIN_VERIFICATION_PATH ? res.writeHead(200, { 'content-type': 'text/plain' }).end(lines.join('\n')) : res.writeHead(404).end());
    },
  });
}

const sites: Site[] = [];
const newSite = async () => {
  const made = await site();
  sites.push(made);
  return made;
};

let fetching: TestServer;
beforeAll(async () => {
  fetching = await startTestServer({ ...PLATFORM, ORIGIN_VERIFICATION_LOOPBACK: 'fetch' }, { originVerification: fetchingAlways });
});
afterAll(async () => {
  await fetching.close();
  await Promise.all(sites.map((s) => s.close()));
});

const publicView = (server: TestServer, session: CreatedSession, origin: string) =>
  fetch(`${server.url}/api/sessions/${session.id}/public`, { headers: { authorization: `Bearer ${session.client_secret}`, origin } });

const merchantGet = (server: TestServer, secretKey: string, path: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${secretKey}` } });

async function verifications(server: TestServer, secretKey: string): Promise<OriginVerificationList> {
  const reply = await merchantGet(server, secretKey, '/api/origin_verifications');
  expect(reply.status).toBe(200);
  expect(reply.headers.get('cache-control')).toBe('no-store');
  return (await reply.json()) as OriginVerificationList;
}

async function verifyNow(server: TestServer, secretKey: string, origin: string): Promise<OriginVerification> {
  const reply = await server.merchantPost(secretKey, '/api/origin_verifications/verify', { origin });
  expect(reply.status).toBe(200);
  return (await reply.json()) as OriginVerification;
}

const tokenOf = async (server: TestServer, secretKey: string, origin: string) => (await verifications(server, secretKey)).data.find((item) => item.origin === origin)!.token;

/** The public view's refusal: 403 origin_not_verified, and no authJwt anywhere in the reply. */
async function expectNoAuthJwt(reply: Response) {
  const body = await reply.text();
  expect(reply.status).toBe(403);
  expect((JSON.parse(body) as { error: { code: string } }).error.code).toBe('origin_not_verified');
  expect(body).not.toMatch(/authJwt|eyJ/);
}

async function expectAuthJwtFor(reply: Response, origin: string) {
  expect(reply.status).toBe(200);
  const { merchantInfo } = ((await reply.json()) as PublicSession).payment_data_request;
  const host = new URL(origin).host;
  expect(merchantInfo).toMatchObject({ merchantId: 'BCR2DN4TPLATFORM', merchantOrigin: host });
  expect((await jwtVerify(merchantInfo.authJwt!, keys.publicKey)).payload).toMatchObject({ merchantOrigin: host });
}

async function platformApp(server: TestServer, origins: string[]) {
  return server.merchant({ merchant_id: 'platform_shop', allowed_origins: origins, google_pay_mode: 'platform' });
}

describe("a platform-mode app's origin gets an authJwt once it serves the app's token", () => {
  it('an origin nobody verified gets no authJwt: the public view, pay and authenticate answer 403 origin_not_verified, and nothing is fetched on its behalf', async () => {
    const shop = await newSite();
    const { secretKey } = await platformApp(fetching, [shop.origin]);
    const session = await fetching.createSession(secretKey);
    await expectNoAuthJwt(await publicView(fetching, session, shop.origin));
    // Refused before anything is done: no payment from a page on that origin either.
    await expectNoAuthJwt(await fetching.pay(session, { payment_data: {} }, { origin: shop.origin }));
    const authenticate = await fetch(`${fetching.url}/api/sessions/${session.id}/authenticate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.client_secret}`, 'content-type': 'application/json', origin: shop.origin },
      body: '{}',
    });
    await expectNoAuthJwt(authenticate);
    expect(((await (await merchantGet(fetching, secretKey, `/api/sessions/${session.id}`)).json()) as { status: string }).status).toBe('open');
    expect(shop.requests).toEqual([]);

    const list = await verifications(fetching, secretKey);
    expect(list).toEqual({
      object: 'list',
      has_more: false,
      required: true,
      data: [
        {
          object: 'origin_verification',
          origin: shop.origin,
          status: 'pending',
          file_url: `${shop.origin}/.well-known/wallet-checkout-verification.txt`,
          token: expect.stringMatching(/^wcv_[A-Za-z0-9_-]{32}$/),
          verified_at: null,
          last_checked: null,
          last_failure: null,
          failed_checks: 0,
          next_check: expect.any(Number),
        },
      ],
    });
  });

  it('serving the token verifies the origin: the check fetches the file once, and the public view then carries an authJwt for that site', async () => {
    const shop = await newSite();
    const { secretKey } = await platformApp(fetching, [shop.origin]);
    const token = await tokenOf(fetching, secretKey, shop.origin);
    // One file may carry several applications' tokens, one a line; blanks and CRLF are fine.
    shop.serve('wcv_another_apps_token', '', `  ${token}  \r`, '');
    const before = Date.now();
    const checked = await verifyNow(fetching, secretKey, shop.origin);
    expect(checked).toMatchObject({ origin: shop.origin, status: 'verified', last_failure: null, failed_checks: 0 });
    expect(checked.verified_at).toBeGreaterThanOrEqual(before);
    expect(checked.last_checked).toBe(checked.verified_at);
    expect(checked.next_check).toBe(checked.last_checked! + 6 * HOUR);
    expect(shop.requests).toEqual([{ path: ORIGIN_VERIFICATION_PATH, userAgent: 'WalletCheckout-OriginVerification/1.0' }]);
    await expectAuthJwtFor(await publicView(fetching, await fetching.createSession(secretKey), shop.origin), shop.origin);
    // A given URL of the origin names it too.
    expect((await verifyNow(fetching, secretKey, `${shop.origin}/checkout?x=1`)).status).toBe('verified');
  });

  it("tokens are random, one per app and origin: another app's token on the origin verifies only that app", async () => {
    const shop = await newSite();
    const other = await newSite();
    const first = await platformApp(fetching, [shop.origin, other.origin]);
    const second = await platformApp(fetching, [shop.origin]);
    const firstTokens = (await verifications(fetching, first.secretKey)).data.map((item) => item.token);
    const secondToken = await tokenOf(fetching, second.secretKey, shop.origin);
    expect(new Set([...firstTokens, secondToken]).size).toBe(3);
    shop.serve(secondToken);
    expect(await verifyNow(fetching, first.secretKey, shop.origin)).toMatchObject({ status: 'pending', last_failure: "the file does not hold this origin's token" });
    expect((await verifyNow(fetching, second.secretKey, shop.origin)).status).toBe('verified');
    // The first app's token for another origin will not do either.
    shop.serve(firstTokens[1]!);
    expect((await verifyNow(fetching, first.secretKey, shop.origin)).status).toBe('pending');
    await expectNoAuthJwt(await publicView(fetching, await fetching.createSession(first.secretKey), shop.origin));
  });

  const refusals: [string, (token: string) => (req: IncomingMessage, res: ServerResponse) => void, RegExp][] = [
    ['no file (404)', () => (_req, res) => res.writeHead(404).end(), /^the origin answered HTTP 404$/],
    ['a server error', () => (_req, res) => res.writeHead(500).end(), /^the origin answered HTTP 500$/],
    ['a file without the token', () => (_req, res) => res.writeHead(200).end('wcv_someone_else\n'), /^the file does not hold this origin's token$/],
    ['the token within a line, not a line of its own', (token) => (_req, res) => res.writeHead(200).end(`token=${token}`), /does not hold/],
    [
      'a redirect, even to a file with the token: redirects are not followed',
      (token) => (req, res) => (req.url === ORIGIN_VERIFICATION_PATH ? res.writeHead(302, { location: '/elsewhere.txt' }).end() : res.writeHead(200).end(token)),
      /^the origin answered a redirect \(HTTP 302\), which is not followed/,
    ],
    ['a file over the size cap, declared', (token) => (_req, res) => res.writeHead(200, { 'content-length': String(1 << 20) }).end(`${token}\n${'x'.repeat((1 << 20) - token.length - 1)}`), /^the file is larger than 4096 bytes$/],
    [
      'a file over the size cap, streamed without a length',
      (token) => (_req, res) => {
        res.writeHead(200);
        res.write(`${token}\n`);
        res.end('x'.repeat(MAX_VERIFICATION_FILE_BYTES));
      },
      /^the file is larger than 4096 bytes$/,
    ],
    ['no reply within the timeout', () => () => undefined, /^no complete reply within 500 ms$/],
    [
      'a reply that never ends',
      (token) => (_req, res) => {
        res.writeHead(200);
        res.write(`${token}\n`);
      },
      /^no complete reply within 500 ms$/,
    ],
  ];

  it.each(refusals)('%s: the origin stays unverified, the reason recorded, and no authJwt', async (_what, answer, reason) => {
    const shop = await newSite();
    const { secretKey } = await platformApp(fetching, [shop.origin]);
    shop.answer = answer(await tokenOf(fetching, secretKey, shop.origin));
    const started = Date.now();
    const checked = await verifyNow(fetching, secretKey, shop.origin);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(checked).toMatchObject({ status: 'pending', verified_at: null, failed_checks: 1, last_checked: expect.any(Number) });
    expect(checked.last_failure).toMatch(reason);
    expect(shop.requests.map((request) => request.path)).toEqual([ORIGIN_VERIFICATION_PATH]);
    await expectNoAuthJwt(await publicView(fetching, await fetching.createSession(secretKey), shop.origin));
  });

  it('a connection refused, and an origin the app does not list, are told apart', async () => {
    const shop = await newSite();
    const { secretKey } = await platformApp(fetching, [shop.origin]);
    await shop.close();
    expect((await verifyNow(fetching, secretKey, shop.origin)).last_failure).toBe('connection refused');
    const unlisted = await fetching.merchantPost(secretKey, '/api/origin_verifications/verify', { origin: 'https://elsewhere.example' });
    expect(unlisted.status).toBe(400);
    expect(await unlisted.json()).toEqual({ error: { code: 'invalid_request', message: "origin: not one of the application's allowed origins" } });
    const malformed = await fetching.merchantPost(secretKey, '/api/origin_verifications/verify', { origin: 'https://shop.example', extra: 1 });
    expect(malformed.status).toBe(400);
  });

  it('an origin a store kept from before the origin rules (`null`, from a javascript: URL) is listed and refused, never a 500', async () => {
    const { appId, secretKey } = await platformApp(fetching, ['https://shop.example']);
    await sql`UPDATE apps SET allowed_origins = ${JSON.stringify(['https://shop.example', 'null'])} WHERE id = ${appId}`.execute(fetching.store);
    expect((await verifications(fetching, secretKey)).data.map((item) => [item.origin, item.status])).toEqual([
      ['https://shop.example', 'pending'],
      ['null', 'pending'],
    ]);
    expect((await verifyNow(fetching, secretKey, 'null')).last_failure).toBe('not an http(s) origin: it cannot serve the file');
  });

  it('an origin removed from the app loses its verification: added again, it starts over with a new token', async () => {
    const shop = await newSite();
    const { appId, secretKey } = await platformApp(fetching, [shop.origin, 'https://kept.example']);
    const token = await tokenOf(fetching, secretKey, shop.origin);
    shop.serve(token);
    expect((await verifyNow(fetching, secretKey, shop.origin)).status).toBe('verified');
    await changeCheckoutSettings(fetching.store, appId, { allowed_origins: ['https://kept.example'], three_ds: 'if_required' });
    expect((await verifications(fetching, secretKey)).data.map((item) => item.origin)).toEqual(['https://kept.example']);
    await changeCheckoutSettings(fetching.store, appId, { allowed_origins: ['https://kept.example', shop.origin], three_ds: 'if_required' });
    const again = (await verifications(fetching, secretKey)).data.find((item) => item.origin === shop.origin)!;
    expect(again).toMatchObject({ status: 'pending', verified_at: null });
    expect(again.token).not.toBe(token);
    await expectNoAuthJwt(await publicView(fetching, await fetching.createSession(secretKey), shop.origin));
  });

  it("an app in merchant mode is shown its origins' tokens, needs none of them, and its origins are never fetched by the sweep", async () => {
    const shop = await newSite();
    const { secretKey } = await fetching.merchant({ merchant_id: 'merchant_mode', allowed_origins: [shop.origin] });
    const list = await verifications(fetching, secretKey);
    expect(list).toMatchObject({ required: false, data: [{ origin: shop.origin, status: 'pending', next_check: null }] });
    await fetching.verifyOrigins(Date.now() + 365 * 24 * HOUR);
    expect(shop.requests).toEqual([]);
    expect((await publicView(fetching, await fetching.createSession(secretKey), shop.origin)).status).toBe(200);
  });

  it('"verify now" fetches an origin at most once in 10 s: a sooner request answers the last result', async () => {
    const spaced = await startTestServer({ ...PLATFORM, ORIGIN_VERIFICATION_LOOPBACK: 'fetch' });
    try {
      const shop = await newSite();
      const { secretKey } = await platformApp(spaced, [shop.origin]);
      expect((await verifyNow(spaced, secretKey, shop.origin)).last_failure).toBe('the origin answered HTTP 404');
      shop.serve(await tokenOf(spaced, secretKey, shop.origin));
      expect(await verifyNow(spaced, secretKey, shop.origin)).toMatchObject({ status: 'pending', failed_checks: 1 });
      expect(shop.requests).toHaveLength(1);
    } finally {
      await spaced.close();
    }
  });
});

describe('the periodic re-check', () => {
  let sweeping: TestServer;
  beforeAll(async () => {
    sweeping = await startTestServer({ ...PLATFORM, ORIGIN_VERIFICATION_LOOPBACK: 'fetch', ORIGIN_VERIFICATION_INTERVAL_MS: String(HOUR) }, { originVerification: fetchingAlways });
  });
  afterAll(() => sweeping.close());

  it('checks an origin first when it is added, then every interval; three failed checks in a row lapse it, and a success restores it', async () => {
    const shop = await newSite();
    const { secretKey } = await platformApp(sweeping, [shop.origin]);
    const session = await sweeping.createSession(secretKey);
    shop.serve(await tokenOf(sweeping, secretKey, shop.origin));
    const t0 = Date.now();
    // A new origin is due at once: the next pass checks it without anyone asking.
    expect(await sweeping.verifyOrigins(t0)).toEqual({ checked: 1, verified: 1, failed: 0, lapsed: 0 });
    const state = async () => (await verifications(sweeping, secretKey)).data[0]!;
    expect(await state()).toMatchObject({ status: 'verified', verified_at: t0, last_checked: t0, next_check: t0 + HOUR });
    await expectAuthJwtFor(await publicView(sweeping, session, shop.origin), shop.origin);

    // Not due before the interval has passed: nothing fetched.
    expect(await sweeping.verifyOrigins(t0 + HOUR - 1)).toEqual({ checked: 0, verified: 0, failed: 0, lapsed: 0 });
    expect(shop.requests).toHaveLength(1);

    // The file is gone: two failed checks leave it verified (a site's bad deploy is not an outage of its checkout).
    shop.answer = (_req, res) => res.writeHead(404).end();
    for (const [n, at] of [[1, t0 + HOUR], [2, t0 + 2 * HOUR]] as const) {
      expect(await sweeping.verifyOrigins(at)).toEqual({ checked: 1, verified: 0, failed: 1, lapsed: 0 });
      expect(await state()).toMatchObject({ status: 'verified', failed_checks: n, last_failure: 'the origin answered HTTP 404', last_checked: at, verified_at: t0 });
      expect((await publicView(sweeping, session, shop.origin)).status).toBe(200);
    }
    // The third lapses it: no authJwt from then on.
    expect(await sweeping.verifyOrigins(t0 + 3 * HOUR)).toEqual({ checked: 1, verified: 0, failed: 1, lapsed: 1 });
    expect(await state()).toMatchObject({ status: 'lapsed', failed_checks: 3, verified_at: t0 });
    await expectNoAuthJwt(await publicView(sweeping, session, shop.origin));
    // Still checked every interval, and restored by a success.
    shop.serve(await tokenOf(sweeping, secretKey, shop.origin));
    expect(await sweeping.verifyOrigins(t0 + 4 * HOUR)).toEqual({ checked: 1, verified: 1, failed: 0, lapsed: 0 });
    expect(await state()).toMatchObject({ status: 'verified', failed_checks: 0, last_failure: null, verified_at: t0 + 4 * HOUR });
    await expectAuthJwtFor(await publicView(sweeping, session, shop.origin), shop.origin);
    expect(shop.requests).toHaveLength(5);
  });

  it('two instances sweeping one store at the same time fetch a due origin once (the claim is a compare-and-set)', async () => {
    const shop = await newSite();
    const { secretKey } = await platformApp(sweeping, [shop.origin]);
    shop.serve(await tokenOf(sweeping, secretKey, shop.origin));
    const at = Date.now() + 100 * HOUR;
    const other = { store: sweeping.store, config: { addressPolicy: 'any' as const, loopbackWithoutFetch: false, intervalMs: HOUR, timeoutMs: 500, verifyNowSpacingMs: 0 } };
    const [mine, theirs] = await Promise.all([sweeping.verifyOrigins(at), sweepOriginVerifications(other, at)]);
    expect(mine.verified + theirs.verified).toBeGreaterThanOrEqual(1);
    expect(shop.requests).toHaveLength(1);
    expect((await verifications(sweeping, secretKey)).data[0]).toMatchObject({ status: 'verified', next_check: at + HOUR });
  });
});

describe("production's address rules (the webhooks' SSRF rules)", () => {
  let production: TestServer;
  beforeAll(async () => {
    // What NODE_ENV=production sets: loopback fetched like any origin, and only https to public addresses.
    production = await startTestServer({ ...PLATFORM, ORIGIN_VERIFICATION_LOOPBACK: 'fetch' }, { originVerification: { ...fetchingAlways, addressPolicy: 'public' } });
  });
  afterAll(() => production.close());

  it('refuses to fetch from a private or loopback address, even where the right file is served, and refuses to take a loopback origin unchecked', async () => {
    const shop = await newSite();
    const port = new URL(shop.origin).port;
    const origins = [shop.origin, `https://127.0.0.1:${port}`, `https://localhost:${port}`, `https://[::1]:${port}`, 'https://10.1.2.3', 'https://[::ffff:192.168.0.1]', 'https://169.254.169.254'];
    const { secretKey } = await platformApp(production, origins);
    const tokens = (await verifications(production, secretKey)).data.map((item) => item.token);
    shop.serve(...tokens);
    const reasons = [];
    for (const origin of origins) {
      const checked = await verifyNow(production, secretKey, origin);
      expect(checked.status).toBe('pending');
      reasons.push(checked.last_failure);
    }
    expect(reasons).toEqual([
      'refused: must be https',
      expect.stringMatching(/^refused: 127\.0\.0\.1 resolves to 127\.0\.0\.1, which is not a public address$/),
      expect.stringMatching(/^refused: (localhost resolves to|the host localhost does not resolve)/),
      expect.stringMatching(/^refused: ::1 resolves to ::1, which is not a public address$/),
      expect.stringMatching(/^refused: 10\.1\.2\.3 resolves to 10\.1\.2\.3/),
      expect.stringMatching(/not a public address$/),
      expect.stringMatching(/^refused: 169\.254\.169\.254 resolves to 169\.254\.169\.254/),
    ]);
    // Nothing was sent to any of them.
    expect(shop.requests).toEqual([]);
    // The loopback origin is not taken unchecked in production: no authJwt.
    await expectNoAuthJwt(await publicView(production, await production.createSession(secretKey), shop.origin));
    // And the sweep refuses the same way.
    await production.verifyOrigins(Date.now() + 100 * HOUR);
    expect(shop.requests).toEqual([]);
  });

  it('resolves a host name and refuses it when any address is not public, in the check and in the connection\'s own lookup', async () => {
    const token = 'wcv_token';
    const options = { addressPolicy: 'public' as const, timeoutMs: 500 };
    const resolving = (...addresses: string[]) => async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    expect(await fetchVerificationFile('https://shop.example', token, { ...options, resolve: resolving('10.0.0.7') })).toEqual({ ok: false, reason: 'refused: shop.example resolves to 10.0.0.7, which is not a public address' });
    expect(await fetchVerificationFile('https://shop.example', token, { ...options, resolve: resolving('93.184.215.14', '127.0.0.1') })).toEqual({ ok: false, reason: 'refused: shop.example resolves to 127.0.0.1, which is not a public address' });
    // DNS rebinding: public when checked, loopback when connecting; the connection's lookup refuses it.
    let lookups = 0;
    const rebinding = async () => [{ address: lookups++ === 0 ? '93.184.215.14' : '127.0.0.1', family: 4 }];
    expect(await fetchVerificationFile('https://shop.example', token, { ...options, resolve: rebinding })).toEqual({ ok: false, reason: expect.stringMatching(/^refused: shop\.example resolves to 127\.0\.0\.1/) });
    expect(lookups).toBe(2);
    expect(await fetchVerificationFile('http://shop.example', token, { ...options, resolve: resolving('93.184.215.14') })).toEqual({ ok: false, reason: 'refused: must be https' });
  });
});

describe('development: loopback origins without a file', () => {
  let development: TestServer;
  beforeAll(async () => {
    development = await startTestServer(PLATFORM);
  });
  afterAll(() => development.close());

  it('takes 127.0.0.0/8, ::1 and localhost without fetching anything, and nothing else', async () => {
    const loopback = ['http://127.0.0.1:1', 'http://127.8.9.10:5173', 'http://[::1]:8080', 'http://localhost:4173', 'https://localhost'];
    // An IPv4-mapped 127.0.0.1 is not in the list (it is written ::ffff:7f00:1 once parsed).
    const others = ['https://shop.example', 'http://localhost.shop.example', new URL('http://[::ffff:127.0.0.1]:8080').origin, 'http://10.0.0.1:8080'];
    const { secretKey } = await platformApp(development, [...loopback, ...others]);
    const session = await development.createSession(secretKey);
    // Nothing listens at 127.0.0.1:1: nothing was fetched.
    for (const origin of loopback) await expectAuthJwtFor(await publicView(development, session, origin), origin);
    for (const origin of others) await expectNoAuthJwt(await publicView(development, session, origin));
    const list = await verifications(development, secretKey);
    expect(list.data.map((item) => [item.origin, item.status, item.next_check])).toEqual([
      ...loopback.map((origin) => [origin, 'loopback', null]),
      ...others.map((origin) => [origin, 'pending', expect.any(Number)]),
    ]);
    expect((await verifyNow(development, secretKey, 'http://127.0.0.1:1')).status).toBe('loopback');
    expect(loopback.every(isLoopbackOrigin) && !others.some(isLoopbackOrigin)).toBe(true);
  });
});

describe('the dashboard', () => {
  it("shows a platform-mode app's origins with the file to publish and its token, and verifies one now", async () => {
    const shop = await newSite();
    const { secretKey } = await platformApp(fetching, [shop.origin]);
    const signIn = await fetch(`${fetching.url}/dashboard/api/session`, { method: 'POST', headers: { origin: fetching.url, 'content-type': 'application/json' }, body: JSON.stringify({ secret_key: secretKey }) });
    const cookie = `wc_dashboard=${/wc_dashboard=([^;]*)/.exec(signIn.headers.get('set-cookie') ?? '')?.[1]}`;
    const { csrf_token: csrf } = (await signIn.json()) as DashboardSignedIn;
    const shown = (await (await fetch(`${fetching.url}/dashboard/api/origins`, { headers: { cookie } })).json()) as OriginVerificationList;
    expect(shown).toMatchObject({ required: true, data: [{ origin: shop.origin, status: 'pending', file_url: `${shop.origin}${ORIGIN_VERIFICATION_PATH}` }] });
    expect(shown.data[0]!.token).toBe(await tokenOf(fetching, secretKey, shop.origin));
    shop.serve(shown.data[0]!.token);
    const verify = (headers: Record<string, string>) =>
      fetch(`${fetching.url}/dashboard/api/origins/verify`, { method: 'POST', headers: { cookie, origin: fetching.url, 'content-type': 'application/json', ...headers }, body: JSON.stringify({ origin: shop.origin }) });
    // A change, so CSRF-checked as every other.
    expect((await verify({})).status).toBe(403);
    const verified = await verify({ 'x-csrf-token': csrf });
    expect(verified.status).toBe(200);
    expect(((await verified.json()) as OriginVerification).status).toBe('verified');
  });
});

describe('npm run app:update: the operator shows and checks the verification', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wallet-checkout-origins-cli-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  /** The command on its own store; only `env` says how it verifies. */
  const update = (env: Record<string, string>, ...args: string[]) => {
    const { DATABASE_URL: _url, DATA_DIR: _dir, ORIGIN_VERIFICATION_LOOPBACK: _loopback, ...inherited } = process.env;
    return promisify(execFile)(process.execPath, ['--import', 'tsx', 'server/apps/update-cli.ts', ...args], { env: { ...inherited, DATA_DIR: dataDir, ORIGIN_VERIFICATION_TIMEOUT_MS: '500', ...env } });
  };
  const failed = (error: unknown) => error as { code: number; stdout: string; stderr: string };

  it('prints each origin with its file and token, checks them now, and exits 1 while one stays unverified', async () => {
    const shop = await newSite();
    const store = await openStore(dataDir);
    const created = await createApp(store, { name: 'CLI Shop', merchant_id: 'cli_shop', allowed_origins: [shop.origin], google_pay_mode: 'platform' });
    if (!created.ok) throw new Error(created.error.message);
    const { id } = created.value.app;
    const [row] = await originVerificationsOf(store, id);
    await store.destroy();
    const fetching = { ORIGIN_VERIFICATION_LOOPBACK: 'fetch' };

    const shown = await update(fetching, '--app', id, '--show-origins');
    expect(shown.stdout).toContain('Origin verification (platform mode: authJwts are signed for verified origins only; docs/platform.md):');
    expect(shown.stdout).toContain(`  ${shop.origin}: pending (verified never, last checked never)\n    file:  ${shop.origin}${ORIGIN_VERIFICATION_PATH}\n    token: ${row!.token}\n`);
    expect(shop.requests).toEqual([]);

    const unverified = failed(await update(fetching, '--app', id, '--verify-origins').catch((error: unknown) => error));
    expect(unverified.code).toBe(1);
    expect(unverified.stdout).toContain('    last failure: the origin answered HTTP 404 (1 failed checks in a row; a verified origin lapses after 3)');

    shop.serve(row!.token);
    const verified = await update(fetching, '--app', id, '--verify-origins');
    expect(verified.stdout).toMatch(new RegExp(`^  ${shop.origin}: verified \\(verified \\d{4}-`, 'm'));
    expect(shop.requests).toHaveLength(2);

    // One more origin, added and checked in one command: nothing listens there.
    const added = failed(await update(fetching, '--app', id, '--origin', 'http://127.0.0.1:1', '--verify-origins').catch((error: unknown) => error));
    expect(added.code).toBe(1);
    expect(added.stdout).toMatch(/^Application updated: .*allowed origins .* http:\/\/127\.0\.0\.1:1$/m);
    expect(added.stdout).toContain('  http://127.0.0.1:1: pending');
    expect(added.stdout).toContain('    last failure: connection refused');
  }, 60_000);
});
