/**
 * Store failures on SQLite: a store that cannot be written (a read-only data
 * directory, a full disk) answers 503 store_unavailable with Retry-After,
 * charges nothing, corrupts nothing, and works again once the fault is gone.
 * Read-only is the store's own fault (`PRAGMA query_only`, SQLITE_READONLY),
 * run everywhere; the full disk is a real one, DATA_DIR on a 4 MB tmpfs (room for the
 * migrated store's write-ahead log, 1.4 MB, to be checkpointed before the disk is filled),
 * where this process may mount one (root), skipped with a notice otherwise.
 * And the store failing after the service charged: reconciliation settles
 * that charge at its next pass, once.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { findSession } from './sessions';
import { startTestServer, type TestServer } from '../../testing/harness';

async function integrity(server: TestServer): Promise<string> {
  const { rows } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(server.store);
  return rows.map((row) => row.integrity_check).join();
}

/** What a shopper and a merchant get while the store cannot be written, then once it can: one charge. */
async function faultThenRecovery(server: TestServer, fault: { on(): Promise<void>; off(): Promise<void> }): Promise<void> {
  const { secretKey } = await server.merchant();
  const session = await server.createSession(secretKey);
  const paymentData = await server.walletPaymentData(session, 'visa-success-3ds');

  await fault.on();
  const refusedPay = await server.pay(session, { payment_data: paymentData });
  expect(refusedPay.status).toBe(503);
  expect(refusedPay.headers.get('retry-after')).toBe('5');
  expect(await refusedPay.json()).toEqual({ error: { code: 'store_unavailable', message: 'The store is unavailable; try again shortly' } });
  const refusedCreate = await server.merchantPost(secretKey, '/api/sessions', { amount: 100, currency: 'USD', country_code: 'US' });
  expect(refusedCreate.status).toBe(503);
  expect(await refusedCreate.json()).toMatchObject({ error: { code: 'store_unavailable' } });
  // Nothing was claimed, so nothing was sent to the service.
  expect(await server.sandbox!.ledger()).toHaveLength(0);
  const metrics = await (await fetch(`${server.url}/metrics`)).text();
  expect(metrics).toMatch(/^wallet_checkout_store_errors_total\{kind="unavailable"\} [1-9]/m);

  await fault.off();
  expect(await integrity(server)).toBe('ok');
  const paid = await server.pay(session, { payment_data: paymentData });
  expect(paid.status).toBe(200);
  expect((await paid.json()).outcome.status).toBe('succeeded');
  expect(await server.sandbox!.ledger()).toHaveLength(1);
  expect(await findSession(server.store, session.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
}

describe('the store failing between the charge and its record', () => {
  it('answers 503, and reconciliation settles the charge the service made at its next pass: one charge, the session paid', async () => {
    // Reconciliation is driven by the test.
    const server = await startTestServer({ RECONCILE_INTERVAL_MS: '3600000' });
    try {
      const { secretKey } = await server.merchant();
      const session = await server.createSession(secretKey);
      const paymentData = await server.walletPaymentData(session, 'visa-success-3ds');
      server.sandbox!.setFaults({ rate: 1, kinds: ['latency'], latencyMs: 300 });
      const paying = server.pay(session, { payment_data: paymentData });
      // Claimed (the attempt is in the store), and now with the service: the store goes read-only.
      await expect.poll(async () => (await findSession(server.store, session.id))?.status).toBe('processing');
      await sql`pragma query_only = 1`.execute(server.store);
      const reply = await paying;
      expect(reply.status).toBe(503);
      expect(await reply.json()).toMatchObject({ error: { code: 'store_unavailable' } });
      const charges = await server.sandbox!.ledger();
      expect(charges.map((entry) => entry.charge.status)).toEqual(['succeeded']);

      await sql`pragma query_only = 0`.execute(server.store);
      server.sandbox!.setFaults({ rate: 0 });
      // The shopper's retry is told the payment is under way (the widget then confirms), never charged again.
      expect((await server.pay(session, { payment_data: paymentData })).status).toBe(409);
      expect(await server.reconcile()).toMatchObject({ settled: 1 });
      expect(await findSession(server.store, session.id)).toMatchObject({ status: 'succeeded', attempts: 1, outcome: expect.stringContaining(charges[0]!.charge.id) });
      expect(await server.sandbox!.ledger()).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe('the SQLite store when it cannot be written', () => {
  const servers: TestServer[] = [];
  const cleanups: (() => void)[] = [];
  afterAll(async () => {
    for (const server of servers) await server.close();
    for (const cleanup of cleanups.reverse()) cleanup();
  });

  it('read-only (SQLITE_READONLY): 503 store_unavailable, nothing charged, then pays once', async () => {
    const server = await startTestServer();
    servers.push(server);
    await faultThenRecovery(server, {
      on: () => sql`pragma query_only = 1`.execute(server.store).then(() => undefined),
      off: () => sql`pragma query_only = 0`.execute(server.store).then(() => undefined),
    });
  });

  const mountPoint = mkdtempSync(join(tmpdir(), 'wallet-checkout-tmpfs-'));
  let mounted = false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mountPoint], { stdio: 'ignore' });
    mounted = true;
  } catch {
    console.warn('\n[sqlite] Cannot mount a tmpfs here (needs root): the full-disk test is SKIPPED; the read-only one runs.\n');
  }
  cleanups.push(() => {
    if (mounted) execFileSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  it.skipIf(!mounted)('disk full (SQLITE_FULL, a real tmpfs): 503 store_unavailable, no corruption, then pays once when space returns', async () => {
    const server = await startTestServer({ DATA_DIR: mountPoint });
    servers.push(server);
    const filler = join(mountPoint, 'filler');
    await faultThenRecovery(server, {
      async on() {
        // An emptied write-ahead log: the next write must grow it, and cannot.
        await sql`pragma wal_checkpoint(TRUNCATE)`.execute(server.store);
        const chunk = Buffer.alloc(64 * 1024);
        let written = 0;
        try {
          for (;;) {
            writeFileSync(filler, chunk, { flag: 'a' });
            written++;
          }
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        }
        expect(written).toBeGreaterThan(0);
      },
      async off() {
        rmSync(filler);
      },
    });
  });
});
