/**
 * Three instances on one PostgreSQL database, with their shipped timings, as
 * an idle fleet: the statements they send in all are counted on the wire
 * (testing/postgres-round-trips.ts), and must stay under one a second, since
 * nothing polls the store (server/lifecycle/work-wakes.ts). Then work: a
 * delivery written by instance A is sent at once by some instance, woken by
 * its notification (the sweeps' clock is a minute); and a delivery made due
 * while every LISTEN connection is cut, whose notification nobody hears, is
 * sent all the same by the catch-up pass of the reconnect.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedWebhookEndpoint } from '../../contracts';
import { startTestServer, type TestServer } from '../../testing/harness';
import { countRoundTrips, type RoundTripCounter } from '../../testing/postgres-round-trips';
import { createTestDatabase, type TestDatabase, testDatabaseServer } from '../../testing/postgres';
import { startWebhookReceiver, type WebhookReceiver } from '../../testing/webhook-receiver';
import { LISTENER_APPLICATION_NAME } from '../store/work-notifications';

const IDLE_SECONDS = 20;

describe.skipIf(testDatabaseServer === undefined)('an idle fleet of three instances on PostgreSQL', () => {
  let database: TestDatabase;
  let counter: RoundTripCounter;
  let instances: TestServer[] = [];
  let receiver: WebhookReceiver;
  let admin: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase(testDatabaseServer!);
    counter = await countRoundTrips(database.url);
    // Every connection, the LISTEN ones too, goes through the counter; all three open the endpoints' sealed secrets.
    const shared = { DATABASE_URL: counter.url, DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
    instances = [await startTestServer(shared), await startTestServer(shared), await startTestServer(shared)];
    receiver = await startWebhookReceiver();
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  }, 60_000);
  afterAll(async () => {
    await admin?.end();
    await Promise.all(instances.map((instance) => instance.close()));
    await receiver?.close();
    await counter?.close();
    await database?.drop();
  });

  const listeners = async () =>
    Number((await admin.query<{ count: string }>('SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1', [LISTENER_APPLICATION_NAME])).rows[0]!.count);

  it(`sends fewer than one statement a second in all over ${IDLE_SECONDS} s`, async () => {
    // Each has started, run its start-up passes and is listening; one holds the sweep lock.
    await expect.poll(listeners, { timeout: 10_000 }).toBe(3);
    await sleep(2_000);
    counter.take();
    await sleep(IDLE_SECONDS * 1_000);
    const statements = counter.take();
    expect(statements.length, statements.join('\n')).toBeLessThan(IDLE_SECONDS);
  }, 60_000);

  it('sends a delivery written on one instance at once, woken by its notification', async () => {
    const [a] = instances;
    const { secretKey } = await a!.merchant();
    const endpoint = (await (await a!.merchantPost(secretKey, '/api/webhook_endpoints', { url: receiver.url })).json()) as CreatedWebhookEndpoint;
    receiver.secrets = [endpoint.secret];
    const session = await a!.createSession(secretKey);
    const paid = Date.now();
    await a!.pay(session, { payment_data: await a!.walletPaymentData(session, 'visa-success-3ds') });
    // The sweeps run once a minute here: only the notification can have sent it this soon.
    await receiver.waitFor((events) => events.some((event) => event.data.object.id === session.id), 3_000);
    expect(Date.now() - paid).toBeLessThan(3_000);
    // Recorded once the receiver's 2xx is back.
    await expect.poll(async () => (await admin.query("SELECT status FROM webhook_deliveries WHERE status = 'delivered'")).rowCount).toBe(1);
  }, 30_000);

  it('sends a delivery made due while every LISTEN connection was cut, by the catch-up on reconnect', async () => {
    const delivered = await admin.query<{ id: string }>("SELECT id FROM webhook_deliveries WHERE status = 'delivered' LIMIT 1");
    expect(delivered.rows).toHaveLength(1);
    const before = receiver.deliveries.length;

    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1', [LISTENER_APPLICATION_NAME]);
    await expect.poll(listeners, { interval: 5 }).toBe(0);
    // Made due again (as a redelivery does) in a transaction that sees no listener: its NOTIFY reaches nobody.
    await admin.query('BEGIN');
    const listening = await listeners();
    await admin.query("UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt = $1 WHERE id = $2", [Date.now(), delivered.rows[0]!.id]);
    await admin.query('COMMIT');
    expect(listening).toBe(0);

    await expect.poll(() => receiver.deliveries.length, { timeout: 10_000 }).toBe(before + 1);
    await expect.poll(listeners, { timeout: 10_000 }).toBe(3);
  }, 30_000);
});
