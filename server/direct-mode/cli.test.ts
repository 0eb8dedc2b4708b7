import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../apps';
import { createDataCipher } from '../lib/data-cipher';
import { openStore } from '../store';
import { createDirectKeys } from '.';

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), 'wallet-checkout-direct-cli-'));
const dataKey = randomBytes(32).toString('base64');
let appId: string;

beforeAll(async () => {
  const store = await openStore(dataDir);
  const created = await createApp(store, { name: 'PCI shop', merchant_id: 'pci1', google_merchant_id: '01234567890123456789', allowed_origins: ['https://shop.example'], decryption_mode: 'direct' });
  await store.destroy();
  if (!created.ok) throw new Error(created.error.message);
  appId = created.value.app.id;
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const cli = (...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'server/direct-mode/cli.ts', ...args], { env: { ...process.env, DATA_DIR: dataDir, DATA_ENCRYPTION_KEY: dataKey } });
const failure = (...args: string[]) => cli(...args).then(() => undefined, (error: { code: number; stderr: string }) => error);

/** What the server sees: the keys as an instance sharing DATA_ENCRYPTION_KEY reads them from the store. */
async function serverView() {
  const store = await openStore(dataDir);
  try {
    const keys = createDirectKeys(store, createDataCipher(Buffer.from(dataKey, 'base64')));
    const app = { id: appId } as Parameters<typeof keys.publicKeyFor>[0];
    const opening = await keys.openingKeysFor(app);
    return { inRequests: await keys.publicKeyFor(app), opening: opening.ok ? opening.value.length : 0 };
  } finally {
    await store.destroy();
  }
}

describe('npm run direct-keys', () => {
  it('creates a pending key and prints its public key to register, then registers, rotates and retires', async () => {
    const created = await cli('create', '--app', appId);
    const [, keyId, publicKey] = /Key (dk_\S+) created[\s\S]*Console[^\n]*\n(\S+)\n/.exec(created.stdout) ?? [];
    expect(Buffer.from(publicKey ?? '', 'base64')).toHaveLength(65);
    expect((await serverView()).inRequests).toMatchObject({ ok: false, error: { code: 'direct_key_not_registered' } });

    await cli('register', '--app', appId, '--key', keyId!);
    expect(await serverView()).toEqual({ inRequests: { ok: true, value: publicKey }, opening: 1 });
    expect(await failure('retire', '--app', appId, '--key', keyId!)).toMatchObject({ code: 2, stderr: expect.stringMatching(/only registered key/) });

    const next = /Key (dk_\S+) created/.exec((await cli('create', '--app', appId)).stdout)?.[1];
    await cli('register', '--app', appId, '--key', next!);
    expect((await serverView()).opening).toBe(2);
    await cli('retire', '--app', appId, '--key', keyId!);
    expect((await serverView()).opening).toBe(1);
    const listed = (await cli('list', '--app', appId)).stdout;
    expect(listed).toMatch(new RegExp(`${keyId}\\s+retired`));
    expect(listed).toMatch(new RegExp(`${next}\\s+registered`));
  });

  it('prints its usage for --help, and with it says what is wrong, exiting 2', async () => {
    expect((await cli('--help')).stdout).toMatch(/^Usage: npm run direct-keys -- COMMAND --app APP_ID/);
    expect(await failure('rotate', '--app', appId)).toMatchObject({ code: 2, stderr: expect.stringMatching(/Unknown command: rotate\nUsage:/) });
    expect(await failure('create', '--ap', appId)).toMatchObject({ code: 2, stderr: expect.stringMatching(/Unknown option '--ap'[\s\S]*Usage:/) });
    expect(await failure('register', '--app', appId)).toMatchObject({ code: 2, stderr: expect.stringMatching(/needs --key/) });
    expect(await failure('list', '--app', 'app_missing')).toMatchObject({ code: 2, stderr: expect.stringMatching(/No application app_missing/) });
  });
});
