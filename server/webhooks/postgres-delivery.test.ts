/**
 * Two instances on one PostgreSQL database, both running the delivery
 * worker and both woken by each delivery's notification: each delivery is
 * leased by one of them (FOR UPDATE SKIP LOCKED), so the receiver gets each
 * event once, not once per instance.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedWebhookEndpoint } from '../../contracts';
import { startTestServer, type TestServer } from '../../testing/harness';
import { createTestDatabase, type TestDatabase, testDatabaseServer } from '../../testing/postgres';
import { FAST_WEBHOOKS, startWebhookReceiver, type WebhookReceiver } from '../../testing/webhook-receiver';

describe.skipIf(testDatabaseServer === undefined)('webhooks from two instances on one PostgreSQL database', () => {
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    database = await createTestDatabase(testDatabaseServer!);
    // Both open the endpoints' sealed secrets: one key. Both are notified of each delivery, so they race for each.
    const shared = { ...FAST_WEBHOOKS, DATABASE_URL: database.url, DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
    a = await startTestServer(shared);
    b = await startTestServer(shared);
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await receiver?.close();
    await database?.drop();
  });

  it('deliver each event once', async () => {
    const { secretKey } = await a.merchant();
    const endpoint = (await (await b.merchantPost(secretKey, '/api/webhook_endpoints', { url: receiver.url })).json()) as CreatedWebhookEndpoint;
    receiver.secrets = [endpoint.secret];
    const sessions = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const session = await a.createSession(secretKey);
        await a.pay(session, { payment_data: await a.walletPaymentData(session, 'visa-success-3ds') });
        return session;
      }),
    );
    await receiver.waitFor((got) => got.length === sessions.length);
    // Both have had every chance to send any delivery twice.
    await Promise.all([a.deliverWebhooks(), b.deliverWebhooks()]);
    expect(receiver.deliveries.map((delivery) => delivery.event.data.object.id).sort()).toEqual(sessions.map((session) => session.id).sort());
    const sent = await a.store.selectFrom('webhook_deliveries').select(['status', 'attempts']).where('endpoint_id', '=', endpoint.id).execute();
    expect(sent).toEqual(sessions.map(() => ({ status: 'delivered', attempts: 1 })));
  });
});
