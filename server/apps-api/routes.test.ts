import { createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { hashSecret } from '../../common/secrets';
import { loadConfig } from '../config';
import { openStore } from '../store';
import { AppRecord } from './app-record';
import { appLookupRoutes } from './routes';
import { GOOGLE_SCOPE_BASE, type LookupServer, startLookupServer } from '../../testing/apps-api';
import { type Listening, listen } from '../../testing/listen';

const allEight = ['docs', 'storage', 'storage.appdata', 'storage.apps.readonly', 'storage.file', 'storage.metadata', 'storage.metadata.readonly', 'storage.readonly'].map((name) => `${GOOGLE_SCOPE_BASE}/${name}`);

interface Reply {
  status: number;
  headers: Headers;
  json: { error: { code: number; status: string; message: string; errors: { domain: string; reason: string; location?: string; locationType?: string }[] } } & Record<string, unknown>;
  text: string;
}

async function call(url: string, init: RequestInit = {}): Promise<Reply> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text && response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : undefined };
}

/** fetch cannot send a GET with a body: node:http can, with a Content-Length or chunked. */
function getWithBody(url: string, headers: Record<string, string>, chunks: string[]): Promise<{ status: number; body: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

const reasonOf = (reply: Reply) => reply.json.error.errors[0]?.reason;

describe('GET {base_url}/v3/apps/{appId} with the development issuer', () => {
  let s: LookupServer;
  let appId: string;
  let secretKey: string;
  let token: string;
  const auth = () => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    s = await startLookupServer();
    ({ id: appId, secretKey } = await s.createApp({
      short_description: 'Coffee, roasted weekly',
      long_description: 'A corner shop that roasts its own beans.',
      product_url: 'https://corner.example/',
      icons: [{ category: 'application', icon_url: 'https://corner.example/icon-128.png', size: 128 }],
    }));
    token = await s.token(['storage.file']);
  });
  afterAll(() => s.close());

  it('returns the App record, under both default base paths, with no secret in it', async () => {
    for (const base of ['', '/drive']) {
      const reply = await call(`${s.url}${base}/v3/apps/${appId}`, { headers: auth() });
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(reply.headers.get('cache-control')).toBe('private, max-age=0');
      const record = AppRecord.parse(reply.json);
      expect(record).toMatchObject({
        kind: 'walletcheckout#app',
        id: appId,
        name: 'Corner Shop',
        shortDescription: 'Coffee, roasted weekly',
        productUrl: 'https://corner.example/',
        icons: [{ category: 'application', iconUrl: 'https://corner.example/icon-128.png', size: 128 }],
        securityAssessmentPassed: false,
        checkout: {
          environment: 'SANDBOX',
          merchantId: 'corner_1',
          tokenizationType: 'PAYMENT_GATEWAY',
          gateway: 'walletcheckout',
          gatewayMerchantId: 'mrchnt_corner_1',
          allowedAuthMethods: ['PAN_ONLY', 'CRYPTOGRAM_3DS'],
          allowedCardNetworks: ['AMEX', 'DISCOVER', 'MASTERCARD', 'VISA'],
          allowedOrigins: ['https://corner.example'],
        },
      });
      expect(reply.text).not.toContain(secretKey);
      expect(reply.text).not.toContain(hashSecret(secretKey));
      expect(reply.text).toContain('\n  "kind"');
    }
  });

  it('describes a direct-mode app without a gateway, and an empty profile when none was given', async () => {
    const direct = await s.createApp({ decryption_mode: 'direct', environment: 'TEST', google_merchant_id: 'BCR2DN4TDIRECT01' });
    const reply = await call(`${s.url}/v3/apps/${direct.id}`, { headers: auth() });
    expect(reply.json.checkout).toEqual({
      environment: 'TEST',
      merchantId: 'corner_1',
      googleMerchantId: 'BCR2DN4TDIRECT01',
      tokenizationType: 'DIRECT',
      allowedAuthMethods: ['PAN_ONLY', 'CRYPTOGRAM_3DS'],
      allowedCardNetworks: ['AMEX', 'DISCOVER', 'MASTERCARD', 'VISA'],
      allowedOrigins: ['https://corner.example'],
    });
    expect(reply.json).toMatchObject({ shortDescription: '', longDescription: '', icons: [] });
    expect(reply.json).not.toHaveProperty('productUrl');
  });

  it('percent-decodes the appId segment', async () => {
    const encoded = [...appId].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    expect((await call(`${s.url}/v3/apps/${encoded}`, { headers: auth() })).json).toMatchObject({ id: appId });
  });

  it('answers 404 for a path that is not one appId segment, and for an unknown app', async () => {
    for (const path of ['/v3/apps', '/v3/apps/', `/v3/apps/${appId}/`, `/v3/apps/${appId}/extra`, `/v3/apps//${appId}`, `/drive/v3/apps/`]) {
      const reply = await call(`${s.url}${path}`, { headers: auth() });
      expect([path, reply.status, reply.json.error.status, reasonOf(reply)]).toEqual([path, 404, 'NOT_FOUND', 'notFound']);
    }
    const unknown = await call(`${s.url}/v3/apps/app_nope`, { headers: auth() });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toMatchObject({ code: 404, message: 'App not found: app_nope', errors: [{ domain: 'global', reason: 'notFound', location: 'appId', locationType: 'parameter' }] });
    expect((await call(`${s.url}/v3/applications/${appId}`)).text).toBe('not the apps router');
  });

  it('refuses an encoded slash, broken percent-encoding and text no store can keep (NUL) in appId with 400', async () => {
    for (const id of [`${appId}%2Fx`, `a%2fb`, '%E0%A4%A', '%zz', `${appId}%00`]) {
      const reply = await call(`${s.url}/v3/apps/${id}`, { headers: auth() });
      expect([id, reply.status, reasonOf(reply), reply.json.error.errors[0]?.location]).toEqual([id, 400, 'invalidParameter', 'appId']);
    }
  });

  it('answers 405 with Allow to other methods, and HEAD like GET without a body', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      const reply = await call(`${s.url}/v3/apps/${appId}`, { method, headers: auth() });
      expect([method, reply.status, reply.headers.get('allow'), reply.json.error.status]).toEqual([method, 405, 'GET, HEAD', 'UNIMPLEMENTED']);
    }
    const head = await call(`${s.url}/v3/apps/${appId}`, { method: 'HEAD', headers: auth() });
    expect([head.status, head.text]).toEqual([200, '']);
  });

  it('refuses a body (Content-Length above 0, or chunked) with 400 before looking at credentials', async () => {
    const url = `${s.url}/v3/apps/${appId}`;
    for (const [headers, chunks] of [
      [{ 'content-length': '5' }, ['hello']],
      [{ 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, ['{"a":', '1}']],
    ] as const) {
      for (const withToken of [true, false]) {
        const reply = await getWithBody(url, { ...headers, ...(withToken ? auth() : {}) }, [...chunks]);
        expect(reply.status).toBe(400);
        expect(JSON.parse(reply.body).error.errors[0].reason).toBe('bodyNotAllowed');
        expect(reply.connection).toBe('close');
      }
    }
    expect((await getWithBody(url, { 'content-length': '0', ...auth() }, [])).status).toBe(200);
  });

  it('supports fields (Google partial-response syntax), prettyPrint and alt=json', async () => {
    const get = (query: string) => call(`${s.url}/v3/apps/${appId}?${query}`, { headers: auth() });
    expect((await get('fields=id,name')).json).toEqual({ id: appId, name: 'Corner Shop' });
    expect((await get('fields=checkout/gatewayMerchantId,checkout/environment,icons(size)')).json).toEqual({
      icons: [{ size: 128 }],
      checkout: { environment: 'SANDBOX', gatewayMerchantId: 'mrchnt_corner_1' },
    });
    expect(Object.keys((await get('fields=checkout/*')).json.checkout as object)).toHaveLength(8);
    expect((await get('fields=kind,checkout(gateway),checkout')).json.checkout).toMatchObject({ allowedOrigins: ['https://corner.example'] });
    const compact = await get('prettyPrint=false&alt=json&fields=id');
    expect(compact.text).toBe(`{"id":"${appId}"}`);
    expect((await get('prettyPrint=true&fields=id')).text).toBe(`{\n  "id": "${appId}"\n}`);

    for (const [query, location] of [
      ['fields=nope', 'fields'],
      ['fields=__proto__', 'fields'],
      ['fields=constructor', 'fields'],
      ['fields=checkout/toString', 'fields'],
      ['fields=checkout(hasOwnProperty)', 'fields'],
      ['fields=id,', 'fields'],
      ['fields=name/first', 'fields'],
      ['fields=checkout(gateway', 'fields'],
      ['fields=icons()', 'fields'],
      ['fields=', 'fields'],
      ['prettyPrint=yes', 'prettyPrint'],
      ['alt=media', 'alt'],
      ['alt=proto', 'alt'],
      ['fields=id&fields=name', 'fields'],
      ['callback=f', 'callback'],
    ]) {
      const reply = await get(query!);
      expect([query, reply.status, reply.json.error.status, reasonOf(reply), reply.json.error.errors[0]?.location]).toEqual([query, 400, 'INVALID_ARGUMENT', 'invalidParameter', location]);
    }
  });

  it('asks for credentials with 401 and a bare Bearer challenge', async () => {
    for (const headers of [{}, { authorization: 'Basic dTpw' }] as Record<string, string>[]) {
      const reply = await call(`${s.url}/v3/apps/${appId}`, { headers });
      expect(reply.status).toBe(401);
      expect(reply.headers.get('www-authenticate')).toBe('Bearer realm="wallet-checkout"');
      expect(reply.json.error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED', errors: [{ domain: 'global', reason: 'required', location: 'Authorization', locationType: 'header' }] });
    }
  });

  it('refuses invalid, expired, foreign and client-less tokens with 401 invalid_token', async () => {
    const foreign = await generateKeyPair('ES256');
    const forged = await new SignJWT({ scope: allEight.join(' '), client_id: 'x' })
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer(s.devIssuer.issuer)
      .setAudience(s.devIssuer.audience)
      .setExpirationTime('5m')
      .sign(foreign.privateKey);
    const expired = await s.token(['storage.file'], { lifetimeSeconds: -60 });
    for (const [bad, description] of [
      ['not-a-jwt', 'The access token is not valid'],
      [forged, 'The access token is not valid'],
      [expired, 'The access token expired'],
    ]) {
      const reply = await call(`${s.url}/v3/apps/${appId}`, { headers: { authorization: `Bearer ${bad}` } });
      expect(reply.status).toBe(401);
      expect(reply.headers.get('www-authenticate')).toBe(`Bearer realm="wallet-checkout", error="invalid_token", error_description="${description}"`);
      expect(reply.json.error).toMatchObject({ status: 'UNAUTHENTICATED', errors: [{ reason: 'authError', location: 'Authorization', locationType: 'header' }] });
    }
    const fromQuery = await call(`${s.url}/v3/apps/${appId}?access_token=nope`);
    expect([fromQuery.status, fromQuery.json.error.errors[0]?.location]).toEqual([401, 'access_token']);
  });

  it('refuses a token issued in the future beyond a minute of clock skew with 401 invalid_token', async () => {
    const tokenIssuedIn = async (seconds: number) => {
      const stored = JSON.parse(readFileSync(join(s.dataDir, 'dev-issuer', 'signing-key.json'), 'utf8')) as { kid: string; private_key_pkcs8: string };
      const key = createPrivateKey({ key: Buffer.from(stored.private_key_pkcs8, 'base64'), format: 'der', type: 'pkcs8' });
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ scope: allEight.join(' '), client_id: 'test-client' })
        .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: stored.kid })
        .setIssuer(s.devIssuer.issuer)
        .setAudience(s.devIssuer.audience)
        .setIssuedAt(now + seconds)
        .setExpirationTime(now + seconds + 3600)
        .sign(key);
    };
    const future = await call(`${s.url}/v3/apps/${appId}`, { headers: { authorization: `Bearer ${await tokenIssuedIn(3600)}` } });
    expect(future.status).toBe(401);
    expect(future.headers.get('www-authenticate')).toBe('Bearer realm="wallet-checkout", error="invalid_token", error_description="The access token was issued in the future"');
    const skewed = await call(`${s.url}/v3/apps/${appId}?fields=id`, { headers: { authorization: `Bearer ${await tokenIssuedIn(30)}` } });
    expect(skewed.status).toBe(200);
  });

  it('accepts the token as the access_token query parameter, but not in two places at once', async () => {
    expect((await call(`${s.url}/v3/apps/${appId}?access_token=${token}&fields=id`)).json).toEqual({ id: appId });
    const both = await call(`${s.url}/v3/apps/${appId}?access_token=${token}`, { headers: auth() });
    expect(both.status).toBe(400);
    expect(both.headers.get('www-authenticate')).toMatch(/^Bearer realm="wallet-checkout", error="invalid_request"/);
  });

  it('refuses a token without an accepted scope with 403 insufficient_scope, listing the eight', async () => {
    for (const scopes of [[], ['drive.file'], ['https://example.com/auth/storage']]) {
      const reply = await call(`${s.url}/v3/apps/${appId}`, { headers: { authorization: `Bearer ${await s.token(scopes)}` } });
      expect(reply.status).toBe(403);
      expect(reply.headers.get('www-authenticate')).toBe(
        `Bearer realm="wallet-checkout", error="insufficient_scope", error_description="Request had insufficient authentication scopes", scope="${allEight.join(' ')}"`,
      );
      expect(reply.json.error).toMatchObject({ code: 403, status: 'PERMISSION_DENIED', errors: [{ reason: 'insufficientPermissions' }] });
    }
    for (const scope of allEight) {
      const assessed = await s.createApp({ security_assessment_passed: true });
      const reply = await call(`${s.url}/v3/apps/${appId}?fields=id`, { headers: { authorization: `Bearer ${await s.token([scope], { clientId: assessed.id })}` } });
      expect([scope, reply.status]).toEqual([scope, 200]);
    }
  });

  it('refuses restricted-only tokens for a client application that has not passed the security assessment', async () => {
    const assessed = await s.createApp({ security_assessment_passed: true });
    const unassessed = await s.createApp();
    const status = async (scopes: string[], clientId: string) => {
      const reply = await call(`${s.url}/v3/apps/${appId}?fields=id`, { headers: { authorization: `Bearer ${await s.token(scopes, { clientId })}` } });
      return reply.status === 403 ? `403 ${reasonOf(reply)} ${reply.headers.get('www-authenticate')?.match(/scope="([^"]*)"/)?.[1]}` : String(reply.status);
    };
    const unrestricted = ['storage.appdata', 'storage.apps.readonly', 'storage.file'].map((n) => `${GOOGLE_SCOPE_BASE}/${n}`).join(' ');
    for (const restricted of ['docs', 'storage', 'storage.readonly', 'storage.metadata', 'storage.metadata.readonly']) {
      expect(await status([restricted], unassessed.id)).toBe(`403 securityAssessmentRequired ${unrestricted}`);
      expect(await status([restricted], 'not-an-app')).toBe(`403 securityAssessmentRequired ${unrestricted}`);
      expect(await status([restricted], assessed.id)).toBe('200');
      expect(await status([restricted, 'storage.file'], unassessed.id)).toBe('200');
    }
    for (const open of ['storage.appdata', 'storage.apps.readonly', 'storage.file']) expect(await status([open], unassessed.id)).toBe('200');
  });
});

describe('configuration of the apps API', () => {
  let s: LookupServer | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it('serves the base paths of APPS_API_BASE_PATHS, with the scope base and realm configured', async () => {
    s = await startLookupServer({ APPS_API_BASE_PATHS: '/api/storage', OAUTH_SCOPE_BASE: 'https://auth.shop.example/scopes/', OAUTH_REALM: 'shop' });
    const { id } = await s.createApp();
    const ours = await s.devIssuer.sign({ scopes: ['https://auth.shop.example/scopes/storage.file'], clientId: 'c', subject: 's', lifetimeSeconds: 60 });
    expect((await call(`${s.url}/api/storage/v3/apps/${id}`, { headers: { authorization: `Bearer ${ours}` } })).status).toBe(200);
    expect((await call(`${s.url}/v3/apps/${id}`, { headers: { authorization: `Bearer ${ours}` } })).text).toBe('not the apps router');
    const google = await call(`${s.url}/api/storage/v3/apps/${id}`, { headers: { authorization: `Bearer ${await s.token(['storage.file'])}` } });
    expect(google.status).toBe(403);
    expect(google.headers.get('www-authenticate')).toMatch(/^Bearer realm="shop", .*scope="https:\/\/auth\.shop\.example\/scopes\/docs /);
  });

  it('refuses incomplete or malformed settings, naming them', () => {
    const problems = (env: Record<string, string>) => {
      const loaded = loadConfig(env);
      return loaded.ok ? [] : loaded.problems;
    };
    expect(problems({ OAUTH_ISSUER: 'https://issuer.example' })).toEqual([expect.stringMatching(/^OAUTH_ISSUER: .*set together/)]);
    expect(problems({ APPS_API_BASE_PATHS: '/,drive' })).toEqual([expect.stringMatching(/^APPS_API_BASE_PATHS/)]);
    expect(problems({ OAUTH_REALM: 'a"b' })).toEqual([expect.stringMatching(/^OAUTH_REALM/)]);
  });

  describe('with a real issuer', () => {
    const issuer = 'https://issuer.example/';
    const audience = 'https://checkout.example/apps';
    let keys: Awaited<ReturnType<typeof generateKeyPair>>;
    let jwksServer: Listening;
    let jwksUrl: string;
    const realToken = () =>
      new SignJWT({ scope: `${GOOGLE_SCOPE_BASE}/storage.file`, client_id: 'partner' })
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setIssuer(issuer)
        .setAudience(audience)
        .setExpirationTime('5m')
        .sign(keys.privateKey);

    beforeAll(async () => {
      keys = await generateKeyPair('ES256');
      const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'ES256' }] });
      jwksServer = await listen((_req, res) => res.setHeader('content-type', 'application/json').end(jwks));
      jwksUrl = `${jwksServer.origin}/jwks.json`;
    });
    afterAll(() => jwksServer.close());

    const statuses = async (server: LookupServer) => {
      const { id } = await server.createApp();
      const get = async (token: string) => (await call(`${server.url}/v3/apps/${id}?fields=id`, { headers: { authorization: `Bearer ${token}` } })).status;
      return { real: await get(await realToken()), dev: await get(await server.token(['storage.file'])) };
    };

    it('verifies against a JWKS URL and no longer trusts the development issuer', async () => {
      s = await startLookupServer({ OAUTH_ISSUER: issuer, OAUTH_AUDIENCE: audience, OAUTH_JWKS: jwksUrl });
      expect(await statuses(s)).toEqual({ real: 200, dev: 401 });
    });

    it('verifies against a JWKS file', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'jwks-'));
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
      const file = join(dir, 'jwks.json');
      writeFileSync(file, await (await fetch(jwksUrl)).text());
      s = await startLookupServer({ OAUTH_ISSUER: issuer, OAUTH_AUDIENCE: audience, OAUTH_JWKS: file });
      expect(await statuses(s)).toEqual({ real: 200, dev: 401 });
    });

    it('answers 503 when the issuer\'s keys cannot be fetched', async () => {
      s = await startLookupServer({ OAUTH_ISSUER: issuer, OAUTH_AUDIENCE: audience, OAUTH_JWKS: 'http://127.0.0.1:9/jwks.json' });
      const { id } = await s.createApp();
      const reply = await call(`${s.url}/v3/apps/${id}`, { headers: { authorization: `Bearer ${await realToken()}` } });
      expect([reply.status, reply.json.error.status, reply.headers.get('www-authenticate')]).toEqual([503, 'UNAVAILABLE', null]);
    });
  });
});

describe('a request that is not for the apps API', () => {
  // Every request of the whole server passes by this middleware first (server/app.ts). Mounted as a router, it handed each
  // one back with setImmediate (a router whose last layer calls next() does), a turn of the event loop per request.
  it('goes on to the next handler in the same turn of the event loop', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'apps-api-turn-'));
    const loaded = loadConfig({ DATA_DIR: dataDir });
    if (!loaded.ok) throw new Error(loaded.problems.join('; '));
    const store = await openStore(dataDir);
    const app = express();
    let turned = false;
    app.use((_req, _res, next) => {
      turned = false;
      setImmediate(() => (turned = true));
      next();
    });
    app.use(appLookupRoutes({ store, dataDir, gatewayName: loaded.config.gatewayName, ...loaded.config.appLookup }));
    app.use((_req, res) => void res.json({ turned }));
    const listening = await listen(app);
    try {
      expect(await (await fetch(`${listening.origin}/api/sessions/cs_1/pay`, { method: 'POST' })).json()).toEqual({ turned: false });
    } finally {
      await listening.close();
      await store.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
