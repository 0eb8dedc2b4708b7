/**
 * Several instances: what instances on one PostgreSQL database share. A client's rate
 * limit is one budget whichever instance serves it (counted in the database, or in Redis
 * with REDIS_URL); two instances reconciling
 * at once call the payment service once per attempt and once per refund; an
 * instance that starts leaves another live instance's payment in flight to it.
 * The instances use a payment service of their own (a third server's sandbox)
 * through a tap that counts every call it receives.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CreatedSession, PaymentData, Refund } from '../../contracts';
import { outcomeOf } from '../checkout/sessions';
import { findSession } from './sessions';
import { mintPaymentData } from '../../testing/sandbox';
import { startTestServer, type TestServer } from '../../testing/harness';
import { listen, type Listening } from '../../testing/listen';
import { createTestDatabase, type TestDatabase, testDatabaseServer } from '../../testing/postgres';
import { type RedisServer, startRedisServer } from '../../testing/fleet/redis-server';
import { redisServerForTests } from '../../testing/redis';

const redisBinary = redisServerForTests();

// Counted in the database without REDIS_URL, in Redis with it: either way one budget per client.
describe.skipIf(testDatabaseServer === undefined).each([
  { where: 'the database', withRedis: false },
  { where: 'Redis', withRedis: true },
])('rate limits of two instances on one PostgreSQL database, counted in $where', ({ withRedis }) => {
  let database: TestDatabase;
  let redis: RedisServer | undefined;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase(testDatabaseServer!);
    redis = withRedis && redisBinary ? await startRedisServer(redisBinary) : undefined;
    const env = { DATABASE_URL: database.url, DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'), RATE_LIMIT_MERCHANT_PER_MINUTE: '4', ...(redis && { REDIS_URL: redis.url }) };
    a = await startTestServer(env);
    b = await startTestServer(env);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await redis?.remove();
    await database?.drop();
  });

  it.skipIf(withRedis && !redisBinary)('count one budget per client: 2 requests on A and 2 on B, the 5th is 429 on either', async () => {
    const { secretKey } = await a.merchant();
    const list = (server: TestServer) => fetch(`${server.url}/api/sessions`, { headers: { authorization: `Bearer ${secretKey}` } });
    const statuses = [];
    for (const server of [a, a, b, b, a, b]) statuses.push((await list(server)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const refused = await list(b);
    expect(await refused.json()).toEqual({ error: { code: 'rate_limited', message: 'Too many requests; try again in a minute' } });
    const windows = await a.store.selectFrom('rate_limit_windows').select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
    expect(Number(windows.count) > 0).toBe(!withRedis);
  });
});

/** Forwards to the payment service, counting each call by path and idempotency key. */
async function serviceTap(serviceUrl: string): Promise<Listening & { calls(path: string, key: string): number; reset(): void }> {
  const counts = new Map<string, number>();
  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const name = `${req.method} ${req.url} ${req.headers['idempotency-key'] ?? ''}`;
    counts.set(name, (counts.get(name) ?? 0) + 1);
    const headers = Object.entries(req.headers).flatMap(([name, value]) => (value === undefined || name === 'host' || name === 'connection' ? [] : [[name, String(value)] as [string, string]]));
    const reply = await fetch(`${serviceUrl}${req.url}`, { method: req.method, headers, ...(chunks.length > 0 && { body: Buffer.concat(chunks) }) });
    res.writeHead(reply.status, { 'content-type': reply.headers.get('content-type') ?? 'application/json' });
    res.end(Buffer.from(await reply.arrayBuffer()));
  };
  const listening = await listen((req, res) => void handler(req, res));
  return { ...listening, calls: (path, key) => counts.get(`POST ${path} ${key}`) ?? 0, reset: () => counts.clear() };
}

describe.skipIf(testDatabaseServer === undefined)('reconciliation by two instances on one PostgreSQL database', () => {
  let database: TestDatabase;
  let service: TestServer;
  let tap: Awaited<ReturnType<typeof serviceTap>>;
  let env: Record<string, string>;
  let a: TestServer;
  let b: TestServer;
  let secretKey: string;

  beforeAll(async () => {
    database = await createTestDatabase(testDatabaseServer!);
    service = await startTestServer();
    tap = await serviceTap(`${service.url}/sandbox/service`);
    env = {
      DATABASE_URL: database.url,
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      PAYMENT_SERVICE_URL: tap.origin,
      PAYMENT_SERVICE_KEY: service.sandbox!.serviceSecretKey,
      WALLET_ENVIRONMENT: 'TEST',
      // Passes are driven by the tests.
      RECONCILE_INTERVAL_MS: '3600000',
    };
    a = await startTestServer(env);
    b = await startTestServer(env);
    ({ secretKey } = await a.merchant());
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await tap?.close();
    await service?.close();
    await database?.drop();
  });
  beforeEach(() => service.sandbox!.setFaults({ rate: 0 }));

  const paymentData = async (server: TestServer, session: CreatedSession): Promise<PaymentData> =>
    mintPaymentData(`${service.url}/sandbox/wallet`, 'visa-success-3ds', (await server.publicSession(session)).payment_data_request);
  const attemptKey = (session: CreatedSession) => `${session.id}:attempt:1`;

  /** Sessions whose payment the service failed (a 5xx): pending, to be reconciled. */
  async function pendingPayments(count: number): Promise<CreatedSession[]> {
    const sessions = await Promise.all(Array.from({ length: count }, () => a.createSession(secretKey)));
    const payments = await Promise.all(sessions.map((session) => paymentData(a, session)));
    service.sandbox!.setFaults({ rate: 1, kinds: ['error'] });
    for (const [i, session] of sessions.entries()) expect((await (await a.pay(session, { payment_data: payments[i] })).json()).outcome.status).toBe('pending');
    // The service now answers, slowly enough that the two passes overlap.
    service.sandbox!.setFaults({ rate: 1, kinds: ['latency'], latencyMs: 200 });
    tap.reset();
    return sessions;
  }

  it('call the service once per pending attempt, and settle each', async () => {
    const sessions = await pendingPayments(3);
    const reports = await Promise.all([a.reconcile(), b.reconcile()]);
    expect(reports[0].examined + reports[1].examined).toBe(3);
    for (const session of sessions) {
      expect(tap.calls('/api/v1/charges', attemptKey(session))).toBe(1);
      expect(await findSession(a.store, session.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
    }
  });

  it('call the service once per pending refund, and settle each', async () => {
    const sessions = await Promise.all([1, 2, 3].map(() => a.createSession(secretKey)));
    for (const session of sessions) expect((await (await a.pay(session, { payment_data: await paymentData(a, session) })).json()).outcome.status).toBe('succeeded');
    service.sandbox!.setFaults({ rate: 1, kinds: ['error'] });
    const refunds: Refund[] = [];
    for (const session of sessions) refunds.push((await (await a.merchantPost(secretKey, `/api/sessions/${session.id}/refunds`, { amount: 100 })).json()) as Refund);
    expect(refunds.map((refund) => refund.status)).toEqual(['pending', 'pending', 'pending']);
    service.sandbox!.setFaults({ rate: 1, kinds: ['latency'], latencyMs: 200 });
    tap.reset();

    const reports = await Promise.all([a.reconcile(), b.reconcile()]);
    expect(reports[0].refunds.examined + reports[1].refunds.examined).toBe(3);
    for (const refund of refunds) {
      expect(tap.calls('/api/v1/refunds', `${refund.session_id}:refund:${refund.id}`)).toBe(1);
      expect(await a.store.selectFrom('refunds').select('status').where('id', '=', refund.id).executeTakeFirst()).toEqual({ status: 'succeeded' });
    }
  });

  it('an instance that starts leaves another live instance\'s payment in flight to it', async () => {
    const session = await a.createSession(secretKey);
    const payment = await paymentData(a, session);
    // A's call is held at the service while B restarts.
    service.sandbox!.setFaults({ rate: 1, kinds: ['latency'], latencyMs: 1500 });
    tap.reset();
    const paid = a.pay(session, { payment_data: payment });
    while (tap.calls('/api/v1/charges', attemptKey(session)) === 0) await sleep(10);

    await b.close();
    b = await startTestServer(env);
    // Its start pass, under way or done: the pass B ran when it started.
    await b.reconcile();
    expect(tap.calls('/api/v1/charges', attemptKey(session))).toBe(1);
    expect(await findSession(b.store, session.id)).toMatchObject({ status: 'processing' });

    expect((await (await paid).json()).outcome.status).toBe('succeeded');
    expect(tap.calls('/api/v1/charges', attemptKey(session))).toBe(1);
    expect(await findSession(b.store, session.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
  });

  it('captures of one hold sent to both instances at once: one 200, the rest 409 invalid_state, one capture at the service', async () => {
    const session = await a.createSession(secretKey, { intent: 'hold' });
    expect((await (await a.pay(session, { payment_data: await paymentData(a, session) })).json()).outcome.status).toBe('authorized');
    const chargeId = outcomeOf((await findSession(a.store, session.id))!)!.charge_id!;
    // The winner's capture is held at the service while the others arrive.
    service.sandbox!.setFaults({ rate: 1, kinds: ['latency'], latencyMs: 300 });
    tap.reset();
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).merchantPost(secretKey, `/api/sessions/${session.id}/capture`)));
    const answers = await Promise.all(replies.map(async (reply) => (reply.status === 200 ? 'captured' : `${reply.status} ${((await reply.json()) as { error: { code: string } }).error.code}`)));
    expect(answers.filter((answer) => answer === 'captured')).toHaveLength(1);
    expect(answers.filter((answer) => answer !== 'captured')).toEqual(Array.from({ length: 19 }, () => '409 invalid_state'));
    expect(tap.calls(`/api/v1/charges/${chargeId}/capture`, `${session.id}:capture`)).toBe(1);
    expect(await findSession(b.store, session.id)).toMatchObject({ status: 'captured' });
  });
});
