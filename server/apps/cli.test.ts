import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../store';
import { startTestServer } from '../../testing/harness';
import { createTestDatabase, testDatabaseServer } from '../../testing/postgres';
import { findAppBySecretKey } from './registry';

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), 'wallet-checkout-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const cli = (...args: string[]) => cliWith({ DATA_DIR: dataDir }, ...args);
/** Only `env` names the store: whatever the developer's shell says about it is left out. */
function cliWith(env: Record<string, string>, ...args: string[]) {
  const { DATABASE_URL: _url, DATA_DIR: _dir, WALLET_ENVIRONMENT: _environment, ...inherited } = process.env;
  return run(process.execPath, ['--import', 'tsx', 'server/apps/cli.ts', ...args], { env: { ...inherited, ...env } });
}
const shop = ['--name', 'Corner Shop', '--merchant-id', 'corner_1', '--origin', 'https://corner.example/'];

describe('npm run app:create', () => {
  it('creates an application and prints its secret key once, storing only its digest', async () => {
    const { stdout } = await cli('--name', 'Corner Shop', '--merchant-id', 'corner_1', '--origin', 'https://corner.example/', '--auth-method', 'CRYPTOGRAM_3DS');
    const secretKey = /Secret key .*: (sk_test_\S+)/.exec(stdout)?.[1];
    expect(secretKey).toBeDefined();
    const store = await openStore(dataDir);
    try {
      const app = await findAppBySecretKey(store, secretKey!);
      expect(app).toMatchObject({ name: 'Corner Shop', merchantId: 'corner_1', allowedOrigins: ['https://corner.example'], authMethods: ['CRYPTOGRAM_3DS'], environment: 'SANDBOX' });
      const stored = JSON.stringify(await store.selectFrom('apps').selectAll().execute());
      expect(stored).not.toContain(secretKey);
    } finally {
      await store.destroy();
    }
  });

  it('explains what is wrong and exits 2 on bad input', async () => {
    const failed = await cli('--name', 'No origin', '--merchant-id', 'x').catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toMatch(/allowed_origins/);

    const unknown = await cli('--nmae', 'Typo').catch((error: { code: number; stderr: string }) => error);
    expect(unknown).toMatchObject({ code: 2 });
    expect((unknown as { stderr: string }).stderr).toMatch(/Unknown option '--nmae'[\s\S]*Usage: npm run app:create/);
    expect((unknown as { stderr: string }).stderr).not.toMatch(/\bat .*cli\.ts/);
  });

  it('says which store it wrote to and what the application will do, and warns on stderr that no server uses that store', async () => {
    const { stdout, stderr } = await cli(...shop, '--three-ds', 'always_for_pan_only', '--decryption-mode', 'direct', '--google-merchant-id', 'BCR2DN4TCORNER01');
    expect(stdout).toContain(`Store: ${join(dataDir, 'checkout.db')}\n`);
    expect(stdout).toMatch(/^Wallet environment: SANDBOX \(.*WALLET_ENVIRONMENT.*\)$/m);
    expect(stdout).toMatch(/^3-D Secure: always_for_pan_only$/m);
    expect(stdout).toMatch(/^Decryption mode: direct$/m);
    // Both merchant ids, each named for who issued it.
    expect(stdout).toMatch(/payment service merchant corner_1, Google merchant BCR2DN4TCORNER01\)/);
    expect(stderr).toMatch(/^Warning: no running server is using this store .*DATA_DIR/m);
  });

  it('names the servers using the store, and does not warn, when one is running on it', async () => {
    const running = await startTestServer({ DATA_DIR: dataDir });
    try {
      const { stdout, stderr } = await cli(...shop);
      expect(stdout).toContain(`Servers using this store: ${running.url}\n`);
      expect(stderr).toBe('');
    } finally {
      await running.close();
    }
    // Shut down: its heartbeat is gone at once, not when it goes stale.
    expect((await cli(...shop)).stderr).toMatch(/^Warning: no running server is using this store/m);
  });

  it.skipIf(!testDatabaseServer)('on PostgreSQL, prints the database URL without its password', async () => {
    const database = await createTestDatabase(testDatabaseServer!);
    try {
      // The throwaway cluster trusts local connections, so the password is accepted and ignored.
      const url = new URL(database.url);
      url.password = 'hunter2-not-for-logs';
      const { stdout, stderr } = await cliWith({ DATA_DIR: dataDir, DATABASE_URL: url.toString() }, ...shop);
      url.password = '';
      expect(stdout).toContain(`Store: ${url.toString()}\n`);
      expect(stdout + stderr).not.toContain('hunter2');
      expect(stderr).toMatch(/DATABASE_URL/);
    } finally {
      await database.drop();
    }
  });

  it('prints its usage for --help', async () => {
    expect((await cli('--help')).stdout).toMatch(/^Usage: npm run app:create -- --name NAME/);
  });
});

describe('npm run app:roll-key', () => {
  const rollKey = (...args: string[]) => {
    const { DATABASE_URL: _url, DATA_DIR: _dir, ...inherited } = process.env;
    return run(process.execPath, ['--import', 'tsx', 'server/apps/roll-key-cli.ts', ...args], { env: { ...inherited, DATA_DIR: dataDir } });
  };
  const failure = (error: { code: number; stderr: string }) => error;

  it('prints a new key that works, and stops the app\'s keys at the time given (0: now)', async () => {
    const { stdout } = await cli(...shop);
    const appId = /Application created: (app_\S+)/.exec(stdout)![1]!;
    const oldKey = /Secret key .*: (sk_test_\S+)/.exec(stdout)![1]!;

    const kept = await rollKey('--app', appId, '--expire-current-in-seconds', '600');
    const keptKey = /New secret key .*: (sk_test_\S+)/.exec(kept.stdout)?.[1];
    const stopsAt = Date.parse(/^Previous keys stop working at (\S+)$/m.exec(kept.stdout)![1]!);
    expect(stopsAt - Date.now()).toBeGreaterThan(590_000);
    expect(stopsAt - Date.now()).toBeLessThanOrEqual(600_000);

    const stopped = await rollKey('--app', appId, '--expire-current-in-seconds', '0');
    const newKey = /New secret key .*: (sk_test_\S+)/.exec(stopped.stdout)?.[1];
    const store = await openStore(dataDir);
    try {
      expect(await findAppBySecretKey(store, newKey!)).toMatchObject({ id: appId });
      // Every key of the app live until then, not only the newest.
      expect(await findAppBySecretKey(store, oldKey)).toBeUndefined();
      expect(await findAppBySecretKey(store, keptKey!)).toBeUndefined();
      expect(JSON.stringify(await store.selectFrom('app_secret_keys').selectAll().execute())).not.toContain(newKey);
    } finally {
      await store.destroy();
    }
  });

  it('explains what is wrong and exits 2', async () => {
    expect(await rollKey('--expire-current-in-seconds', '5').catch(failure)).toMatchObject({ code: 2, stderr: expect.stringMatching(/--app is required/) });
    expect(await rollKey('--app', 'app_missing').catch(failure)).toMatchObject({ code: 2, stderr: expect.stringMatching(/No application app_missing/) });
    expect(await rollKey('--app', 'app_x', '--expire-current-in-seconds', '604801').catch(failure)).toMatchObject({ code: 2, stderr: expect.stringMatching(/--expire-current-in-seconds: .*604800/) });
    expect(await rollKey('--app', 'app_x', '--expire-current-in-seconds', 'soon').catch(failure)).toMatchObject({ code: 2, stderr: expect.stringMatching(/--expire-current-in-seconds/) });
    expect((await rollKey('--help')).stdout).toMatch(/^Usage: npm run app:roll-key -- --app APP_ID/);
  });
});
