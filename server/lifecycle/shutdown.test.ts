/**
 * SIGTERM during a payment: the real server as its own process stops taking
 * connections, lets the payment finish and answer, closes the store and exits
 * 0; started again, it shows the outcome, and the service holds one charge.
 */
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, expect, it } from 'vitest';
import { type ChildServer, readLedger, shopClient, startChildServer } from '../../testing/child-server';

let server: ChildServer | undefined;
afterAll(async () => {
  await server?.kill();
  if (server) rmSync(server.dataDir, { recursive: true, force: true });
});

it('finishes a payment in flight at SIGTERM, exits 0, and loses nothing', async () => {
  server = await startChildServer({ env: { SHUTDOWN_GRACE_MS: '15000' } });
  const shop = shopClient(server);
  const session = await shop.createSession();
  const paymentData = await shop.walletPaymentData(session, 'visa-success-3ds');
  // The service holds every charge for a while: the signal arrives while this one is with it.
  await shop.setFaults({ rate: 1, kinds: ['latency'], latencyMs: 1_500 });

  const paying = shop.pay(session, paymentData);
  await sleep(500);
  const stopping = server.stop();
  await sleep(200);
  // No new connection is taken meanwhile.
  await expect(fetch(`${server.url}/healthz`, { headers: { connection: 'close' } })).rejects.toThrow();

  const paid = await paying;
  expect(paid).toMatchObject({ status: 200, body: { outcome: { status: 'succeeded' } } });
  expect(await stopping).toBe(0);

  await server.restart();
  expect(await shop.session(session.id)).toMatchObject({ status: 'succeeded', attempts: 1, outcome: { charge_id: paid.body.outcome?.charge_id } });
  const charges = (await readLedger(server.dataDir)).filter((entry) => entry.idempotency_key?.startsWith(`${session.id}:`));
  expect(charges.map((entry) => entry.charge.id)).toEqual([paid.body.outcome?.charge_id]);
}, 40_000);
