/**
 * Two merchant ids: the payment service's (`mrchnt_{merchant_id}`) and the one
 * Google issued (`merchantInfo.merchantId`, the direct-mode recipient). Stores
 * from before they were apart are migrated, and what is still missing stops
 * the server at start with the command that fixes it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, openStore } from '../store';
import { backendMigrations } from '../store/migrations';
import { startTestServer } from '../../testing/harness';
import { getApp, NewApp } from './registry';

const base = { name: 'Shop', merchant_id: 'svc_1', allowed_origins: ['https://shop.example'] };
const issues = (input: Record<string, unknown>) => {
  const parsed = NewApp.safeParse({ ...base, ...input });
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('an application\'s Google merchant id', () => {
  it('has the form Google issues: 16 upper-case letters and digits, or 20 digits', () => {
    for (const id of ['BCR2DN4TWXYZ1234', '01234567890123456789']) expect(issues({ google_merchant_id: id }), id).toEqual([]);
    for (const id of ['bcr2dn4twxyz1234', 'BCR2DN4TWXYZ123', '0123456789012345678', 'mrchnt_4242', 'BCR2DN4T-XYZ1234']) {
      expect(issues({ google_merchant_id: id }), id).toEqual([expect.stringMatching(/^google_merchant_id: a Google merchant id/)]);
    }
  });

  it('is required in PRODUCTION and in direct mode, optional elsewhere', () => {
    expect(issues({ environment: 'PRODUCTION' })).toEqual([expect.stringMatching(/^google_merchant_id: .*PRODUCTION/)]);
    expect(issues({ decryption_mode: 'direct' })).toEqual([expect.stringMatching(/^google_merchant_id: .*merchant:<Google merchant id>/)]);
    expect(issues({ environment: 'TEST' })).toEqual([]);
    expect(issues({ environment: 'PRODUCTION', google_merchant_id: 'BCR2DN4TWXYZ1234' })).toEqual([]);
  });
});

describe('a store from before the two ids were apart', () => {
  let dataDir: string;
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps a merchant_id that was a Google id, and the server names the apps still lacking one until app:update sets it', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'wallet-checkout-two-ids-'));
    const before = Object.fromEntries(Object.entries(backendMigrations).filter(([name]) => name < '0005'));
    const old = await openDatabase<Record<string, never>>(join(dataDir, 'checkout.db'), before);
    const app = (id: string, merchantId: string, environment: string, mode: string) =>
      ({ id, name: id, merchant_id: merchantId, secret_key_hash: `hash_${id}`, allowed_origins: '["https://shop.example"]', auth_methods: '["PAN_ONLY"]', card_networks: '["VISA"]', environment, decryption_mode: mode, created: 1 }) as never;
    await old
      .insertInto('apps' as never)
      .values([
        app('app_live_google', 'BCR2DN4TLIVE0001', 'PRODUCTION', 'gateway'),
        app('app_live_service', 'acct_77', 'PRODUCTION', 'gateway'),
        app('app_direct', 'pci1', 'SANDBOX', 'direct'),
        app('app_test', '4242', 'TEST', 'gateway'),
      ])
      .execute();
    await old.destroy();

    const store = await openStore(dataDir);
    expect((await getApp(store, 'app_live_google'))?.googleMerchantId).toBe('BCR2DN4TLIVE0001');
    expect((await getApp(store, 'app_live_service'))?.googleMerchantId).toBeUndefined();
    expect((await getApp(store, 'app_test'))?.googleMerchantId).toBeUndefined();
    await store.destroy();

    const refused = await startTestServer({ DATA_DIR: dataDir }).catch((error: Error) => error);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toMatch(/app_live_service .*PRODUCTION.*npm run app:update -- --app app_live_service --google-merchant-id ID/);
    expect((refused as Error).message).toMatch(/app_direct .*direct mode/);
    expect((refused as Error).message).not.toMatch(/app_live_google|app_test/);

    const update = (...args: string[]) => promisify(execFile)(process.execPath, ['--import', 'tsx', 'server/apps/update-cli.ts', ...args], { env: { ...process.env, DATA_DIR: dataDir } });
    const bad = await update('--app', 'app_direct', '--google-merchant-id', 'pci1').catch((error: { code: number; stderr: string }) => error);
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringMatching(/a Google merchant id/) });
    expect((await update('--app', 'app_live_service', '--google-merchant-id', 'BCR2DN4TLIVE0002')).stdout).toMatch(/Google merchant BCR2DN4TLIVE0002/);
    await update('--app', 'app_direct', '--google-merchant-id', '01234567890123456789');
    // The same command lets an existing app be embedded on one more site (what the widget's origin_not_allowed help says).
    expect((await update('--app', 'app_test', '--origin', 'https://second.example/')).stdout).toMatch(/allowed origins https:\/\/shop\.example https:\/\/second\.example$/m);
    const nothing = await update('--app', 'app_test').catch((error: { code: number; stderr: string }) => error);
    expect(nothing).toMatchObject({ code: 2, stderr: expect.stringMatching(/nothing to change/) });

    const server = await startTestServer({ DATA_DIR: dataDir });
    await server.close();
  }, 30_000);
});
