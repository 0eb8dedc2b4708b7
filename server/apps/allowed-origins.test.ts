/**
 * Allowed origins as the operator's commands take them: `npm run app:create --origin`
 * (createApp) and `npm run app:update --origin` (updateApp) refuse what the dashboard
 * refuses, by the one rule (contracts.test.ts, "allowed origins"): nothing that is not an
 * http(s) origin is stored, where it would have been kept as "null" and ended every widget call.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../store';
import { createApp, getApp, updateApp } from './registry';

let dataDir: string;
let store: Store;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'wallet-checkout-origins-'));
  store = await openStore(dataDir);
});
afterAll(async () => {
  await store.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

const REFUSED = ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,x', 'https://*.shop.example', 'https://shop.example/checkout', 'https://user:pw@shop.example'];

describe('allowed origins given to the operator commands', () => {
  it.each(REFUSED)('app:create refuses %j, naming the rule', async (origin) => {
    const created = await createApp(store, { name: 'Shop', merchant_id: 'm_origins', allowed_origins: ['https://shop.example', origin] });
    expect(created.ok).toBe(false);
    expect(!created.ok && created.error.message).toMatch(/^allowed_origins\.1: must be an http\(s\) origin/);
  });

  it('app:update refuses each, and leaves the origins as they were', async () => {
    const created = await createApp(store, { name: 'Shop', merchant_id: 'm_origins', allowed_origins: ['https://shop.example/'] });
    if (!created.ok) throw new Error(created.error.message);
    for (const origin of REFUSED) {
      const updated = await updateApp(store, created.value.app.id, { add_origins: [origin] });
      expect(!updated.ok && updated.error.message, origin).toMatch(/^add_origins\.0: must be an http\(s\) origin/);
    }
    expect((await getApp(store, created.value.app.id))?.allowedOrigins).toEqual(['https://shop.example']);
    expect((await updateApp(store, created.value.app.id, { add_origins: ['https://Second.example:443'] })).ok).toBe(true);
    expect((await getApp(store, created.value.app.id))?.allowedOrigins).toEqual(['https://shop.example', 'https://second.example']);
  });
});
