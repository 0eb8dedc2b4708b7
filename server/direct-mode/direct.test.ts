import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../apps';
import { chargeSourceFor, type DirectDecryption } from '../checkout/charge-source';
import type { CardDetails, RootSigningKey } from '../../contracts';
import { createDataCipher } from '../lib/data-cipher';
import { ok } from '../../common/result';
import { openStore, type Store } from '../store';
import { createIntermediateSigningKey, generateRecipientKeyPair, generateSigningKey, publicKeyToUncompressedBase64, rootKeyEntry, sealToken } from '../../common/ecv2';
import { createDirectKeys, createDirectMode, createRootKeySource } from '.';

const dataDir = mkdtempSync(join(tmpdir(), 'wallet-checkout-direct-'));
let store: Store;
beforeAll(async () => {
  store = await openStore(dataDir);
});
afterAll(async () => {
  await store.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

const newDirectApp = async (): Promise<App> => {
  const created = await createApp(store, { name: 'PCI shop', merchant_id: 'pci1', google_merchant_id: '01234567890123456789', allowed_origins: ['https://shop.example'], decryption_mode: 'direct' });
  if (!created.ok) throw new Error(created.error.message);
  return created.value.app;
};

describe('direct-mode keys', () => {
  const cipher = createDataCipher(randomBytes(32));

  it('puts no key in requests until one is registered, and never makes one by itself', async () => {
    const keys = createDirectKeys(store, cipher);
    const app = await newDirectApp();
    expect(await keys.publicKeyFor(app)).toMatchObject({ ok: false, error: { code: 'direct_key_not_registered' } });
    const pending = await keys.create(app.id);
    expect(pending).toMatchObject({ status: 'pending', registered: null });
    expect(Buffer.from(pending.publicKey, 'base64')).toHaveLength(65);
    expect(await keys.publicKeyFor(app)).toMatchObject({ ok: false, error: { code: 'direct_key_not_registered' } });
    expect(await keys.openingKeysFor(app)).toMatchObject({ ok: false, error: { code: 'direct_key_not_registered' } });

    expect(await keys.register(app.id, pending.id)).toMatchObject({ ok: true, value: { status: 'registered' } });
    expect(await keys.publicKeyFor(app)).toEqual(ok(pending.publicKey));
    expect(await keys.list(app.id)).toHaveLength(1);
  });

  it('keeps only the sealed private key in the store, and another DATA_ENCRYPTION_KEY cannot use it', async () => {
    const keys = createDirectKeys(store, cipher);
    const app = await newDirectApp();
    const key = await keys.create(app.id);
    await keys.register(app.id, key.id);
    const row = await store.selectFrom('direct_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(row.private_key_sealed).toMatch(/^v1\./);
    const opening = await keys.openingKeysFor(app);
    expect(opening.ok && opening.value.map((k) => publicKeyToUncompressedBase64(k))).toEqual([key.publicKey]);
    const pkcs8 = opening.ok ? opening.value[0]!.export({ format: 'der', type: 'pkcs8' }).toString('base64') : '';
    expect(row.private_key_sealed).not.toContain(pkcs8);

    const otherInstance = createDirectKeys(store, createDataCipher(randomBytes(32)));
    expect(await otherInstance.openingKeysFor(app)).toMatchObject({ ok: false, error: { code: 'direct_mode_unavailable' } });
  });

  it('rotates: the newest registered key goes into requests, the old one opens tokens until it is retired', async () => {
    const keys = createDirectKeys(store, cipher);
    const app = await newDirectApp();
    const old = await keys.create(app.id);
    await keys.register(app.id, old.id);
    const next = await keys.create(app.id);
    // Created but not registered yet: requests keep the old key.
    expect(await keys.publicKeyFor(app)).toEqual(ok(old.publicKey));
    await keys.register(app.id, next.id);
    expect(await keys.publicKeyFor(app)).toEqual(ok(next.publicKey));
    const opening = async () => {
      const result = await keys.openingKeysFor(app);
      return result.ok ? result.value.map((k) => publicKeyToUncompressedBase64(k)) : [];
    };
    expect(await opening()).toEqual([next.publicKey, old.publicKey]);

    expect(await keys.retire(app.id, old.id)).toMatchObject({ ok: true, value: { status: 'retired' } });
    expect(await opening()).toEqual([next.publicKey]);
    expect(await keys.register(app.id, old.id)).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await keys.retire('app_other', next.id)).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});

describe("Google's root keys", () => {
  const GOOGLE = 'https://payments.example/keys.json';
  const HOUR = 3_600_000;
  const rootKey = (expiresAt?: number): RootSigningKey => rootKeyEntry(generateSigningKey(), expiresAt);

  /** keys.json as Google serves it; each fetch takes the next reply (or hangs, or fails) and is counted. */
  function fakeGoogle(start: number) {
    let clock = start;
    const replies: (() => Promise<Response>)[] = [];
    const fetched: string[] = [];
    return {
      now: () => clock,
      advance: (ms: number) => (clock += ms),
      fetched,
      serve: (keys: RootSigningKey[], maxAgeSeconds: number) =>
        replies.push(async () => new Response(JSON.stringify({ keys }), { headers: { 'cache-control': `public, max-age=${maxAgeSeconds}` } })),
      fail: () => replies.push(async () => new Response('unavailable', { status: 503 })),
      /** A refresh that never answers: nothing may wait for it. */
      hang: () => replies.push(() => new Promise<Response>(() => {})),
      fetch: (async (url: string | URL | Request) => {
        fetched.push(String(url));
        const reply = replies.shift();
        if (!reply) throw new Error('unexpected fetch');
        return reply();
      }) as typeof fetch,
    };
  }

  it('fetches keys.json once, serves it for its Cache-Control max-age, and refreshes in the background before it ends', async () => {
    const google = fakeGoogle(Date.UTC(2026, 0, 1));
    const [first, second] = [rootKey(), rootKey()];
    google.serve([first], 3600);
    const source = createRootKeySource({ location: GOOGLE, fetch: google.fetch, now: google.now });
    expect(await source.keys()).toEqual(ok([first]));
    google.advance(0.5 * HOUR);
    expect(await source.keys()).toEqual(ok([first]));
    expect(google.fetched).toEqual([GOOGLE]);

    // Past 80% of the hour: the payment gets the cached keys now, the new ones come in behind it.
    google.advance(0.35 * HOUR);
    google.serve([second], 3600);
    expect(await source.keys()).toEqual(ok([first]));
    await source.settled();
    expect(await source.keys()).toEqual(ok([second]));
    expect(google.fetched).toHaveLength(2);
  });

  it('keeps serving the cached keys when a refresh fails or hangs, without making the payment wait, until they expire', async () => {
    const google = fakeGoogle(Date.UTC(2026, 0, 1));
    const key = rootKey(Date.UTC(2026, 0, 1) + 10 * HOUR);
    google.serve([key], 60);
    const source = createRootKeySource({ location: GOOGLE, fetch: google.fetch, now: google.now });
    expect(await source.keys()).toEqual(ok([key]));

    google.advance(2 * 60_000);
    google.fail();
    expect(await source.keys()).toEqual(ok([key]));
    await source.settled();
    google.advance(60_000);
    google.hang();
    // Nothing answers this refresh: the payment still has its keys at once.
    expect(await source.keys()).toEqual(ok([key]));

    const fresh = createRootKeySource({ location: GOOGLE, fetch: google.fetch, now: google.now });
    google.serve([key], 60);
    await fresh.keys();
    google.advance(10 * HOUR);
    google.fail();
    // Every cached key is past its keyExpiration: there is nothing left to verify with.
    expect(await fresh.keys()).toMatchObject({ ok: false, error: { code: 'root_keys_unavailable' } });
  });

  it('says root_keys_unavailable when keys.json never loaded, and only fetches over https', async () => {
    const google = fakeGoogle(Date.UTC(2026, 0, 1));
    google.fail();
    expect(await createRootKeySource({ location: GOOGLE, fetch: google.fetch, now: google.now }).keys()).toMatchObject({ ok: false, error: { code: 'root_keys_unavailable' } });
    const plain = await createRootKeySource({ location: 'http://payments.example/keys.json', fetch: google.fetch }).keys();
    expect(plain).toMatchObject({ ok: false, error: { code: 'root_keys_unavailable', message: expect.stringContaining('https') } });
    expect(google.fetched).toEqual([GOOGLE]);
  });

  it('reads a keys.json file given as a path', async () => {
    const file = join(dataDir, 'keys.json');
    const key = rootKey();
    writeFileSync(file, JSON.stringify({ keys: [key] }));
    expect(await createRootKeySource({ location: file }).keys()).toEqual(ok([key]));
  });
});

describe("each app's root keys", () => {
  it("come from keys.json of the app's own environment; a SANDBOX app's follow the server's wallet", async () => {
    const [sandboxRoot, testRoot, productionRoot] = [rootKeyEntry(generateSigningKey()), rootKeyEntry(generateSigningKey()), rootKeyEntry(generateSigningKey())];
    // The sandbox's keys.json comes over plain http, as a sandbox on loopback serves it.
    const served: Record<string, RootSigningKey> = { 'http://sandbox.example/sandbox/wallet/root-keys.json': sandboxRoot, 'https://google.example/test/keys.json': testRoot, 'https://google.example/keys.json': productionRoot };
    const fetchKeys = (async (url: string | URL | Request) => new Response(JSON.stringify({ keys: [served[String(url)]] }), { headers: { 'cache-control': 'max-age=3600' } })) as typeof fetch;
    const directMode = (walletEnvironment: 'SANDBOX' | 'TEST') =>
      createDirectMode({
        store,
        keys: createDirectKeys(store, createDataCipher(randomBytes(32))),
        walletEnvironment,
        rootKeys: { SANDBOX: 'http://sandbox.example/sandbox/wallet/root-keys.json', TEST: 'https://google.example/test/keys.json', PRODUCTION: 'https://google.example/keys.json' },
        fetch: fetchKeys,
      });
    const app = (environment: App['environment']) => ({ id: 'app_env', environment }) as App;
    expect(await directMode('SANDBOX').rootKeys(app('SANDBOX'))).toEqual(ok([sandboxRoot]));
    expect(await directMode('SANDBOX').rootKeys(app('PRODUCTION'))).toEqual(ok([productionRoot]));
    expect(await directMode('TEST').rootKeys(app('SANDBOX'))).toEqual(ok([testRoot]));
    expect(await directMode('TEST').rootKeys(app('TEST'))).toEqual(ok([testRoot]));
  });
});

describe('the network_token of a CRYPTOGRAM_3DS token', () => {
  const app = { id: 'app_eci', merchantId: 'pci1', googleMerchantId: '01234567890123456789', decryptionMode: 'direct', environment: 'TEST' } as App;
  const root = generateSigningKey();
  const recipient = generateRecipientKeyPair();
  const direct: DirectDecryption = {
    openingKeysFor: async () => ok([recipient.privateKey]),
    rootKeys: async () => ok([rootKeyEntry(root)]),
    firstUse: async () => true,
  };
  const tokenFor = (details: Partial<CardDetails>) =>
    sealToken(
      {
        messageExpiration: String(Date.now() + 3_600_000),
        messageId: randomBytes(8).toString('hex'),
        paymentMethod: 'CARD',
        paymentMethodDetails: { pan: '5105105105105100', expirationMonth: 4, expirationYear: 2031, authMethod: 'CRYPTOGRAM_3DS', cryptogram: 'AgAAAAAAAIR8CQrXcIhbQAAAAAA=', ...details },
      },
      { recipientId: 'merchant:01234567890123456789', recipientPublicKey: recipient.publicKey, intermediate: createIntermediateSigningKey(root.privateKey, Date.now() + 3_600_000) },
    );

  it("carries the token's eciIndicator as three_ds.eci", async () => {
    const source = await chargeSourceFor(app, tokenFor({ eciIndicator: '02' }), direct);
    expect(source).toEqual(ok({ type: 'network_token', network_token: expect.objectContaining({ three_ds: { eci: '02', cryptogram: 'AgAAAAAAAIR8CQrXcIhbQAAAAAA=' } }) }));
  });

  it('sends the cryptogram without an eci when the token has no eciIndicator: never an empty or invented one', async () => {
    const source = await chargeSourceFor(app, tokenFor({}), direct);
    expect(source).toEqual(ok({ type: 'network_token', network_token: expect.objectContaining({ three_ds: { cryptogram: 'AgAAAAAAAIR8CQrXcIhbQAAAAAA=' } }) }));
  });
});
