import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandboxService } from './index';
import { mintToken, postCharge, serviceHeaders, startSandbox, walletpayCharge } from '../testing/sandbox';

const publicKeyOf = async (baseUrl: string) => ((await (await fetch(`${baseUrl}/service/keys`)).json()) as { public_key: string }).public_key;

describe('sandbox keys', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'sandbox-keys-test-'));
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('are created once, kept in keys.json (0600), and reused after a restart', async () => {
    const first = await startSandbox({ dataDir });
    const paymentData = await mintToken(first, 'visa-success-3ds');
    const publicKey = await publicKeyOf(first.baseUrl);
    const { serviceSecretKey, rootKeys } = first.service;
    await first.close();

    const file = join(dataDir, 'sandbox', 'keys.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(serviceSecretKey).toMatch(/^sk_sandbox_[A-Za-z0-9_-]{43}$/);

    const second = await startSandbox({ dataDir });
    try {
      expect(await publicKeyOf(second.baseUrl)).toBe(publicKey);
      expect(second.service.serviceSecretKey).toBe(serviceSecretKey);
      expect(second.service.rootKeys).toEqual(rootKeys);
      // A token minted before the restart still opens, and the ledger survived.
      const reply = await postCharge(second, walletpayCharge(paymentData), serviceHeaders(second));
      expect(reply.status).toBe(201);
      expect(await second.service.ledger()).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('refuses to start on a damaged keys file rather than silently replacing it', async () => {
    await (await startSandbox({ dataDir })).close();
    const file = join(dataDir, 'sandbox', 'keys.json');
    writeFileSync(file, readFileSync(file, 'utf8').slice(0, 20));
    await expect(createSandboxService({ dataDir, gatewayName: 'walletcheckout' })).rejects.toThrow(/not a valid sandbox keys file/);
  });
});
