import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { App } from '../apps';
import { exportPrivateKeyPkcs8, generateRecipientKeyPair, generateSigningKey, publicKeyToUncompressedBase64, rootKeyEntry } from '../wallet';
import { createDirectMode } from '.';

const dataDir = mkdtempSync(join(tmpdir(), 'wallet-checkout-direct-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const app = { id: 'app_direct', merchantId: 'pci1', decryptionMode: 'direct' } as App;

describe('direct mode keys', () => {
  it('creates the merchant key on first use, keeps it private, and publishes its public half', () => {
    const direct = createDirectMode({ dataDir, rootKeys: [] });
    const publicKey = direct.publicKeyFor(app);
    expect(Buffer.from(publicKey, 'base64')).toHaveLength(65);
    expect(createDirectMode({ dataDir, rootKeys: [] }).publicKeyFor(app)).toBe(publicKey);
    expect(readFileSync(join(dataDir, 'direct-keys', 'app_direct.json'), 'utf8')).not.toContain(publicKey);
  });

  it('reads root keys from a file, refreshes them, and keeps the last good ones if a refresh fails', async () => {
    const file = join(dataDir, 'keys.json');
    const first = rootKeyEntry(generateSigningKey());
    const second = rootKeyEntry(generateSigningKey());
    writeFileSync(file, JSON.stringify({ keys: [first] }));
    const direct = createDirectMode({ dataDir, rootKeys: file, refreshMs: 0 });
    expect(await direct.rootKeys()).toEqual({ ok: true, value: [first] });
    writeFileSync(file, JSON.stringify({ keys: [second] }));
    expect(await direct.rootKeys()).toEqual({ ok: true, value: [second] });
    writeFileSync(file, 'not json');
    expect(await direct.rootKeys()).toEqual({ ok: true, value: [second] });
  });

  it('says so when root keys were never loaded', async () => {
    const direct = createDirectMode({ dataDir, rootKeys: join(dataDir, 'missing.json') });
    const result = await direct.rootKeys();
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('root_keys_unavailable');
  });

  it('loads every key of the file for rotation, the first being the one the wallet encrypts to', () => {
    const rotated = { ...app, id: 'app_rotated' };
    const [newer, older] = [generateRecipientKeyPair(), generateRecipientKeyPair()];
    mkdirSync(join(dataDir, 'direct-keys'), { recursive: true });
    writeFileSync(join(dataDir, 'direct-keys', 'app_rotated.json'), JSON.stringify({ private_keys: [exportPrivateKeyPkcs8(newer.privateKey), exportPrivateKeyPkcs8(older.privateKey)] }));
    const direct = createDirectMode({ dataDir, rootKeys: [] });
    expect(direct.privateKeysFor(rotated).map((key) => publicKeyToUncompressedBase64(key))).toEqual([newer.publicKey, older.publicKey].map((key) => publicKeyToUncompressedBase64(key)));
    expect(direct.publicKeyFor(rotated)).toBe(publicKeyToUncompressedBase64(newer.publicKey));
  });
});
