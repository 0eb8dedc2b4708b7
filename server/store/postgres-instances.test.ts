/**
 * Several backend instances on one PostgreSQL database, as behind a load
 * balancer: a shopper's payment that reaches two instances at once (a
 * double click, a retry through another instance) is charged exactly once.
 * Instance A embeds the sandbox service; B uses A's as its real service.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSession } from './sessions';
import { startTestServer, type TestServer } from '../../testing/harness';
import { createTestDatabase, type TestDatabase, testDatabaseServer } from '../../testing/postgres';

describe.skipIf(testDatabaseServer === undefined)('two instances on one PostgreSQL database', () => {
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase(testDatabaseServer!);
    // Both seal and open the charge requests kept for reconciliation: one key.
    const shared = { DATABASE_URL: database.url, DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
    a = await startTestServer(shared);
    b = await startTestServer({
      ...shared,
      PAYMENT_SERVICE_URL: `${a.url}/sandbox/service`,
      PAYMENT_SERVICE_KEY: a.sandbox!.serviceSecretKey,
      WALLET_ENVIRONMENT: 'TEST',
    });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await database?.drop();
  });

  it('charge a session paid through both at once exactly once', async () => {
    const { secretKey } = await a.merchant();
    // The session is made on A and read on B: they share the store.
    const session = await a.createSession(secretKey);
    const paymentData = await a.walletPaymentData(session, 'visa-success-3ds');
    // The service holds each charge, so both payments are under way together.
    a.sandbox!.setFaults({ rate: 1, kinds: ['latency'], latencyMs: 300 });

    const replies = await Promise.all([a, b, a, b].map((server) => server.pay(session, { payment_data: paymentData })));
    const bodies = await Promise.all(replies.map((reply) => reply.json()));
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409, 409, 409]);
    expect(bodies.filter((body) => body.error).map((body) => body.error.code)).toEqual(['payment_in_progress', 'payment_in_progress', 'payment_in_progress']);

    const charges = (await a.sandbox!.ledger()).filter((entry) => entry.idempotency_key?.startsWith(`${session.id}:`));
    expect(charges).toHaveLength(1);
    for (const server of [a, b]) expect(await findSession(server.store, session.id)).toMatchObject({ status: 'succeeded', attempts: 1, outcome: expect.stringContaining(charges[0]!.charge.id) });

    // And B takes payments on its own: another session, paid only through B.
    a.sandbox!.setFaults({ rate: 0 });
    const second = await a.createSession(secretKey, { amount: 500 });
    const paid = await b.pay(second, { payment_data: await a.walletPaymentData(second, 'visa-success-3ds') });
    expect(paid.status).toBe(200);
    expect((await paid.json()).outcome.status).toBe('succeeded');
  });

  it('expire a past-due session once when both sweep at the same time: one session.expired', async () => {
    const { secretKey } = await a.merchant();
    const sessions = await Promise.all([1, 2, 3].map(() => a.createSession(secretKey)));
    await a.store.updateTable('sessions').set({ expires_at: Date.now() - 1 }).where('id', 'in', sessions.map((session) => session.id)).execute();

    const reports = await Promise.all([a.reconcile(), b.reconcile()]);
    expect(reports[0].expired + reports[1].expired).toBe(3);
    for (const session of sessions) {
      expect(await findSession(b.store, session.id)).toMatchObject({ status: 'expired' });
      const events = await a.store.selectFrom('events').select('id').where('type', '=', 'session.expired').where('body', 'like', `%"id":"${session.id}"%`).execute();
      expect(events).toHaveLength(1);
    }
  });
});
