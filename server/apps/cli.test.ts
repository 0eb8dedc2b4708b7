import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../store';
import { findAppBySecretKey } from './registry';

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), 'wallet-checkout-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const cli = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'server/apps/cli.ts', ...args], { env: { ...process.env, DATA_DIR: dataDir } });

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

  it('prints its usage for --help', async () => {
    expect((await cli('--help')).stdout).toMatch(/^Usage: npm run app:create -- --name NAME/);
  });
});
