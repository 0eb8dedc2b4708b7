/**
 * What ends a dashboard session besides idle and age: the
 * key that opened it stopping (a roll with 0 through the API, the dashboard or
 * the operator's command, or the end of a roll's overlap, with no sweep), and
 * "sign out everywhere"; the key roll's re-authentication; and the merchant's
 * rate budget, which every signed-in route shares with the secret-key API.
 * Over real HTTP, each browser its own cookie jar.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardSignedIn, RolledSecretKey } from '../../contracts';
import { hashSecret } from '../../common/secrets';
import { startTestServer, type TestServer } from '../../testing/harness';
import { CSRF_HEADER } from './session';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** A browser signed in on the dashboard page: its own cookie, our Origin, and the CSRF token on a change. */
interface Browser {
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
}

async function signIn(key: string, on: TestServer = server): Promise<Browser> {
  const reply = await fetch(`${on.url}/dashboard/api/session`, { method: 'POST', headers: { origin: on.url, 'content-type': 'application/json' }, body: JSON.stringify({ secret_key: key }) });
  expect(reply.status).toBe(201);
  const cookie = `wc_dashboard=${/wc_dashboard=([^;]*)/.exec(reply.headers.get('set-cookie') ?? '')?.[1] ?? ''}`;
  const { csrf_token: csrf } = (await reply.json()) as DashboardSignedIn;
  return {
    call: (method, path, body, headers = {}) =>
      fetch(`${on.url}${path}`, {
        method,
        headers: { cookie, origin: on.url, [CSRF_HEADER]: csrf, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
  };
}

const payments = async (browser: Browser) => (await browser.call('GET', '/dashboard/api/payments')).status;
const apiStatus = async (key: string) => (await fetch(`${server.url}/api/sessions?limit=1`, { headers: { authorization: `Bearer ${key}` } })).status;
const codeOf = async (reply: Response) => ((await reply.json()) as { error: { code: string } }).error.code;

async function apiRoll(key: string, expire: number): Promise<string> {
  const reply = await server.merchantPost(key, '/api/keys/roll', { expire_current_in_seconds: expire });
  expect(reply.status).toBe(201);
  return ((await reply.json()) as RolledSecretKey).secret;
}

describe('a dashboard session ends with the key that opened it', () => {
  it('a roll with 0 through the API: the sessions that key opened answer 401 at once, read nothing and cannot roll the key again', async () => {
    const { secretKey: leaked } = await server.merchant({ merchant_id: 'dash-leak-api' });
    const attacker = await signIn(leaked);
    expect(await payments(attacker)).toBe(200);

    const fresh = await apiRoll(leaked, 0);
    const refused = await attacker.call('GET', '/dashboard/api/payments');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('set-cookie')).toMatch(/^wc_dashboard=;.*Max-Age=0/);
    // The lock-out to prevent: the old session rolling the key again, with the leaked key as its proof.
    expect((await attacker.call('POST', '/dashboard/api/keys/roll', { expire_current_in_seconds: 0, secret_key: leaked })).status).toBe(401);
    expect(await apiStatus(fresh)).toBe(200);
    expect(await payments(await signIn(fresh))).toBe(200);
  });

  it('the API roll expires the calling key only: a session opened with another live key of the app goes on', async () => {
    const { secretKey: first } = await server.merchant({ merchant_id: 'dash-two-keys' });
    const second = await apiRoll(first, 3600);
    const onFirst = await signIn(first);
    const onSecond = await signIn(second);
    await apiRoll(first, 0);
    expect(await payments(onFirst)).toBe(401);
    expect(await payments(onSecond)).toBe(200);
  });

  it("an operator's roll with 0 (npm run app:roll-key) ends every session of the app, on the running server", async () => {
    const { appId, secretKey } = await server.merchant({ merchant_id: 'dash-leak-operator' });
    const { secretKey: otherKey } = await server.merchant({ merchant_id: 'dash-operator-other' });
    const first = await signIn(secretKey);
    const second = await signIn(secretKey);
    const otherApp = await signIn(otherKey);
    const { DATABASE_URL: _url, DATA_DIR: _dir, ...inherited } = process.env;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'server/apps/roll-key-cli.ts', '--app', appId, '--expire-current-in-seconds', '0'], {
      env: { ...inherited, DATA_DIR: server.dataDir },
    });
    const newKey = /New secret key .*: (sk_test_\S+)/.exec(stdout)![1]!;
    expect(await payments(first)).toBe(401);
    expect(await payments(second)).toBe(401);
    expect(await payments(otherApp)).toBe(200);
    expect(await payments(await signIn(newKey))).toBe(200);
  }, 60_000); // a child process of its own: seconds on a loaded machine

  it("a key that expires after its overlap ends its sessions then, at their next request, with no sweep; the new key's go on", async () => {
    const { secretKey: old } = await server.merchant({ merchant_id: 'dash-overlap' });
    const onOld = await signIn(old);
    const fresh = await apiRoll(old, 3600);
    const onFresh = await signIn(fresh);
    expect(await payments(onOld)).toBe(200);
    // The hour passes: the key's own expiry, nothing else, is moved.
    await server.store.updateTable('app_secret_keys').set({ expires: Date.now() - 1 }).where('hash', '=', hashSecret(old)).execute();
    expect(await apiStatus(old)).toBe(401);
    expect(await payments(onOld)).toBe(401);
    expect(await payments(onFresh)).toBe(200);
  });

  it("the dashboard's roll with 0 ends every other session of the app's keys; the session that rolled moves to the new key", async () => {
    const { secretKey: key } = await server.merchant({ merchant_id: 'dash-roll-zero' });
    const merchant = await signIn(key);
    const attacker = await signIn(key);
    const rolled = await merchant.call('POST', '/dashboard/api/keys/roll', { expire_current_in_seconds: 0, secret_key: key }, { 'idempotency-key': 'roll-zero-1' });
    expect(rolled.status).toBe(201);
    const { secret } = (await rolled.json()) as RolledSecretKey;
    expect(await payments(attacker)).toBe(401);
    expect(await payments(merchant)).toBe(200);
    expect(await apiStatus(key)).toBe(401);
    expect(await apiStatus(secret)).toBe(200);
    // Its new key's session ends when that key does, as any other.
    await apiRoll(secret, 0);
    expect(await payments(merchant)).toBe(401);
  });
});

describe("the dashboard's key roll asks for the secret key again", () => {
  it('refuses a roll without a key (400), with a wrong one, an expired one or another app\'s (403 reauthentication_failed); nothing is rolled', async () => {
    const { secretKey: key } = await server.merchant({ merchant_id: 'dash-reauth' });
    const { secretKey: theirs } = await server.merchant({ merchant_id: 'dash-reauth-other' });
    const browser = await signIn(key);
    const roll = (body: Record<string, unknown>) => browser.call('POST', '/dashboard/api/keys/roll', { expire_current_in_seconds: 0, ...body });

    const missing = await roll({});
    expect(missing.status).toBe(400);
    expect(await codeOf(missing)).toBe('invalid_request');
    for (const wrong of ['sk_test_not-a-key', theirs, 'x'.repeat(200)]) {
      const refused = await roll({ secret_key: wrong });
      expect(refused.status).toBe(403);
      expect(await codeOf(refused)).toBe('reauthentication_failed');
    }
    expect(await apiStatus(key)).toBe(200);
    expect(await apiStatus(theirs)).toBe(200);
    expect(await payments(browser)).toBe(200);

    // A key of this app that no longer works is no proof either.
    const next = await apiRoll(key, 3600);
    await server.store.updateTable('app_secret_keys').set({ expires: Date.now() - 1 }).where('hash', '=', hashSecret(key)).execute();
    const onNext = await signIn(next);
    const expired = await onNext.call('POST', '/dashboard/api/keys/roll', { expire_current_in_seconds: 0, secret_key: key });
    expect(expired.status).toBe(403);
    expect(await codeOf(expired)).toBe('reauthentication_failed');
    expect(await apiStatus(next)).toBe(200);
  });

  it('takes any live key of the signed-in app, not only the one that opened the session', async () => {
    const { secretKey: first } = await server.merchant({ merchant_id: 'dash-reauth-any' });
    const second = await apiRoll(first, 3600);
    const browser = await signIn(first);
    const rolled = await browser.call('POST', '/dashboard/api/keys/roll', { expire_current_in_seconds: 0, secret_key: second });
    expect(rolled.status).toBe(201);
    expect(await apiStatus(first)).toBe(401);
    expect(await apiStatus(second)).toBe(401);
  });
});

describe('sign out everywhere', () => {
  it("ends every dashboard session of the app (another browser's too), not another app's; a change, so CSRF-checked", async () => {
    const { secretKey: key } = await server.merchant({ merchant_id: 'dash-everywhere' });
    const { secretKey: otherKey } = await server.merchant({ merchant_id: 'dash-everywhere-other' });
    const here = await signIn(key);
    const elsewhere = await signIn(key);
    const otherApp = await signIn(otherKey);

    expect((await here.call('DELETE', '/dashboard/api/sessions', undefined, { [CSRF_HEADER]: '' })).status).toBe(403);
    expect(await payments(elsewhere)).toBe(200);

    const out = await here.call('DELETE', '/dashboard/api/sessions');
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^wc_dashboard=;.*Max-Age=0/);
    expect(await payments(here)).toBe(401);
    expect(await payments(elsewhere)).toBe(401);
    expect(await payments(otherApp)).toBe(200);
    // The key is untouched: signing in again works.
    expect(await apiStatus(key)).toBe(200);
    expect(await payments(await signIn(key))).toBe(200);
  });
});

describe("signed-in dashboard routes share the merchant's rate budget", () => {
  it('counts every signed-in request in the budget of the secret-key API, and answers 429 rate_limited when it is spent', async () => {
    const limited = await startTestServer({ RATE_LIMIT_MERCHANT_PER_MINUTE: '5' });
    try {
      const { secretKey } = await limited.merchant();
      const browser = await signIn(secretKey, limited); // 1
      expect((await browser.call('GET', '/dashboard/api/payments')).status).toBe(200); // 2
      expect((await browser.call('GET', '/dashboard/api/settings')).status).toBe(200); // 3
      expect((await fetch(`${limited.url}/api/sessions`, { headers: { authorization: `Bearer ${secretKey}` } })).status).toBe(200); // 4: the API, same budget
      expect((await browser.call('GET', '/dashboard/api/webhook_endpoints')).status).toBe(200); // 5
      const spent = await browser.call('GET', '/dashboard/api/payments');
      expect(spent.status).toBe(429);
      expect(await codeOf(spent)).toBe('rate_limited');
      expect(spent.headers.get('ratelimit-policy')).toBeTruthy();
      expect((await browser.call('POST', '/dashboard/api/keys/roll', { expire_current_in_seconds: 0, secret_key: secretKey })).status).toBe(429);
      expect((await fetch(`${limited.url}/api/sessions`, { headers: { authorization: `Bearer ${secretKey}` } })).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
