/**
 * Files at rest: everything the server keeps under DATA_DIR (the SQLite store
 * and its WAL and SHM files, the sandbox's database and keys, the data key,
 * direct-mode keys, the development issuer's key, the demo's credentials) is
 * readable by its own user only, whatever the umask.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness';

let parent: string;
let dataDir: string;
let server: TestServer;
beforeAll(async () => {
  parent = mkdtempSync(join(tmpdir(), 'wallet-checkout-modes-'));
  dataDir = join(parent, 'data');
  server = await startTestServer({ DATA_DIR: dataDir, DEMO: 'on' });
  // A payment in direct mode: the store and the sandbox write their WAL (direct-mode keys live sealed in the store).
  const { secretKey } = await server.merchant({ decryption_mode: 'direct', google_merchant_id: '01234567890123456789' });
  const session = await server.createSession(secretKey);
  expect((await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-success-3ds') })).status).toBe(200);
});
afterAll(async () => {
  await server.close();
  rmSync(parent, { recursive: true, force: true });
});

/** Every directory and file under `dir`, with its permission bits. */
function modes(dir: string): Record<string, string> {
  const found: Record<string, string> = { '.': (statSync(dir).mode & 0o777).toString(8) };
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) found[entry] = (statSync(join(dir, entry)).mode & 0o777).toString(8);
  return found;
}

describe('DATA_DIR', () => {
  it('is 0700, its directories 0700 and its files 0600', () => {
    const found = modes(dataDir);
    expect(Object.keys(found)).toEqual(
      expect.arrayContaining(['checkout.db', 'checkout.db-wal', 'checkout.db-shm', 'sandbox/sandbox.db', 'sandbox/sandbox.db-wal', 'sandbox/keys.json', 'secrets/data.key', 'dev-issuer', 'demo-merchant.json']),
    );
    for (const [path, mode] of Object.entries(found)) expect(mode, path).toBe(statSync(join(dataDir, path)).isDirectory() ? '700' : '600');
  });

  it('an existing store left readable by others is tightened on open', async () => {
    const dir = join(parent, 'old');
    const old = await startTestServer({ DATA_DIR: dir });
    await old.close();
    chmodSync(dir, 0o755);
    chmodSync(join(dir, 'checkout.db'), 0o644);
    writeFileSync(join(dir, 'checkout.db-wal'), '', { mode: 0o644 });
    const reopened = await startTestServer({ DATA_DIR: dir });
    try {
      expect(modes(dir)).toMatchObject({ '.': '700', 'checkout.db': '600', 'checkout.db-wal': '600', 'checkout.db-shm': '600' });
    } finally {
      await reopened.close();
    }
  });
});
