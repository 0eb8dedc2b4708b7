/**
 * POST /api/keys/roll over real HTTP: a new secret key at once, the old one
 * alive until it expires. Time is moved with a fake clock (Date only), never waited for.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RolledSecretKey } from '../../contracts';
import { hashSecret } from '../../common/secrets';
import { startTestServer, type TestServer } from '../../testing/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
afterEach(() => vi.useRealTimers());

const roll = (key: string, body?: unknown, headers: Record<string, string> = {}) => server.merchantPost(key, '/api/keys/roll', body, headers);
/** What the merchant's server sees when it uses `key`: 200, or 401 once the key no longer works. */
const statusWith = async (key: string) => (await fetch(`${server.url}/api/sessions?limit=1`, { headers: { authorization: `Bearer ${key}` } })).status;

describe('rolling the secret key', () => {
  it('answers a new key that works at once, and keeps the old one working until it expires, then 401', async () => {
    const { secretKey: oldKey } = await server.merchant();
    const now = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now });
    const reply = await roll(oldKey, { expire_current_in_seconds: 3600 });
    expect(reply.status).toBe(201);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    const rolled = (await reply.json()) as RolledSecretKey;
    expect(rolled).toEqual({ object: 'secret_key', secret: expect.stringMatching(/^sk_test_[A-Za-z0-9_-]{32}$/), created: now, previous_key_expires: now + 3_600_000 });
    expect(rolled.secret).not.toBe(oldKey);

    expect(await statusWith(rolled.secret)).toBe(200);
    expect(await statusWith(oldKey)).toBe(200);
    vi.setSystemTime(now + 3_599_999);
    expect(await statusWith(oldKey)).toBe(200);
    vi.setSystemTime(now + 3_600_000);
    expect(await statusWith(oldKey)).toBe(401);
    expect(await statusWith(rolled.secret)).toBe(200);
  });

  it('keeps the old key a day by default, and stops it at once with 0', async () => {
    const { secretKey: first } = await server.merchant();
    const now = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now });
    const second = (await (await roll(first)).json()) as RolledSecretKey;
    expect(second.previous_key_expires).toBe(now + 86_400_000);

    const third = (await (await roll(second.secret, { expire_current_in_seconds: 0 })).json()) as RolledSecretKey;
    expect(third.previous_key_expires).toBe(now);
    expect(await statusWith(second.secret)).toBe(401);
    // The first key's own day is not cut short by rolling the second.
    expect(await statusWith(first)).toBe(200);
    expect(await statusWith(third.secret)).toBe(200);
  });

  it('never lengthens a key that is already expiring', async () => {
    const { secretKey: oldKey } = await server.merchant();
    const now = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now });
    await roll(oldKey, { expire_current_in_seconds: 60 });
    const again = (await (await roll(oldKey, { expire_current_in_seconds: 604_800 })).json()) as RolledSecretKey;
    expect(again.previous_key_expires).toBe(now + 60_000);
    vi.setSystemTime(now + 60_000);
    expect(await statusWith(oldKey)).toBe(401);
  });

  it('replays the same new key to a retry with the same Idempotency-Key, making one key', async () => {
    const { secretKey: oldKey } = await server.merchant();
    const first = await roll(oldKey, { expire_current_in_seconds: 60 }, { 'idempotency-key': 'roll-1' });
    const retry = await roll(oldKey, { expire_current_in_seconds: 60 }, { 'idempotency-key': 'roll-1' });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const rolled = (await first.json()) as RolledSecretKey;
    expect(await retry.json()).toEqual(rolled);
    const appId = (await server.store.selectFrom('apps').select('id').where('secret_key_hash', '=', hashSecret(rolled.secret)).executeTakeFirstOrThrow()).id;
    expect(await server.store.selectFrom('app_secret_keys').select('hash').where('app_id', '=', appId).execute()).toHaveLength(2);
    expect((await roll(oldKey, { expire_current_in_seconds: 61 }, { 'idempotency-key': 'roll-1' })).status).toBe(409);
  });

  it('keeps only digests: neither key is in the store', async () => {
    const { secretKey: oldKey } = await server.merchant();
    const rolled = (await (await roll(oldKey)).json()) as RolledSecretKey;
    const stored = JSON.stringify([await server.store.selectFrom('apps').selectAll().execute(), await server.store.selectFrom('app_secret_keys').selectAll().execute()]);
    expect(stored).not.toContain(oldKey);
    expect(stored).not.toContain(rolled.secret);
  });

  it.each([
    [{ expire_current_in_seconds: 604_801 }, 'expire_current_in_seconds'],
    [{ expire_current_in_seconds: -1 }, 'expire_current_in_seconds'],
    [{ expire_current_in_seconds: 1.5 }, 'expire_current_in_seconds'],
    [{ expire_current_in_seconds: '60' }, 'expire_current_in_seconds'],
    [{ expire_in: 60 }, 'expire_in'],
  ])('refuses %j naming the field, and the key keeps working', async (body, field) => {
    const { secretKey } = await server.merchant();
    const reply = await roll(secretKey, body);
    expect(reply.status).toBe(400);
    const { error } = await reply.json();
    expect(error.code).toBe('invalid_request');
    expect(error.message).toContain(field);
    expect(await statusWith(secretKey)).toBe(200);
  });

  it('needs a live secret key', async () => {
    const reply = await roll('sk_test_wrong');
    expect(reply.status).toBe(401);
    expect((await reply.json()).error.code).toBe('unauthenticated');
  });
});
