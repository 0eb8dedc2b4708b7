/**
 * How many round trips each of the API's busiest operations makes to PostgreSQL, counted on the
 * wire (testing/postgres-round-trips.ts) through the real HTTP API, each held to its budget
 * (docs/operations.md#round-trips-per-operation) so that a change that adds one fails here.
 * Background work (heartbeats, the reconciler, the webhook worker) shares the pool: its timers are
 * stretched, and each operation is counted three times and its fewest kept, since background
 * statements can only add to a count. The rate limits count in a redis-server of the test's own,
 * as in the reference deployment (without one, off CI: in the database, one round trip more each).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CreatedSession } from '../../contracts';
import { startTestServer, type TestServer } from '../../testing/harness';
import { countRoundTrips, type RoundTripCounter } from '../../testing/postgres-round-trips';
import { createTestDatabase, type TestDatabase, testDatabaseServer } from '../../testing/postgres';
import { type RedisServer, startRedisServer } from '../../testing/fleet/redis-server';
import { redisServerForTests } from '../../testing/redis';
import { mintPaymentData, sandboxWalletUrl } from '../../testing/sandbox';
import { sql } from 'kysely';
import { claimSessionForAttempt, recordClaimedOutcome } from './attempt-moves';
import { findSession } from './sessions';

const redisBinary = redisServerForTests();
/** Each operation passes a rate limiter, which counts in Redis when there is one (REDIS_URL), else one statement more. */
const RATE_LIMIT_HIT = redisBinary ? 0 : 1;

/** The most round trips each operation may make (docs/operations.md#round-trips-per-operation). */
const BUDGETS = {
  'create a session': 1 + RATE_LIMIT_HIT,
  'public view': 1 + RATE_LIMIT_HIT,
  'merchant read': 1 + RATE_LIMIT_HIT,
  'pay (success)': 4 + RATE_LIMIT_HIT,
  'pay (decline)': 4 + RATE_LIMIT_HIT,
  refund: 3 + RATE_LIMIT_HIT,
};
type Operation = keyof typeof BUDGETS;

const RUNS = 3;

/** Whether an instance holds an advisory lock in this database: the sweep lock, the only one the backend takes. */
async function sweepLockHeld(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ held: boolean }>(
      "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS held",
    );
    return rows[0]?.held === true;
  } finally {
    await client.end();
  }
}

describe.skipIf(testDatabaseServer === undefined)('round trips to PostgreSQL per operation', () => {
  let database: TestDatabase;
  let counter: RoundTripCounter;
  let server: TestServer;
  let redis: RedisServer | undefined;
  let secretKey: string;
  const counted = new Map<Operation, string[]>();

  beforeAll(async () => {
    database = await createTestDatabase(testDatabaseServer!);
    counter = await countRoundTrips(database.url);
    redis = redisBinary ? await startRedisServer(redisBinary) : undefined;
    server = await startTestServer({
      DATABASE_URL: counter.url,
      ...(redis && { REDIS_URL: redis.url }),
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      RECONCILE_INTERVAL_MS: '3600000',
      RECONCILE_IDLE_INTERVAL_MS: '3600000',
      WEBHOOK_DELIVERY: 'on-demand',
    });
    ({ secretKey } = await server.merchant());
    // A merchant with a webhook endpoint: each payment's event is delivered to it, so its delivery row is written too.
    const endpoint = await fetch(`${server.url}/api/webhook_endpoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/webhooks' }),
    });
    expect(endpoint.status).toBe(201);
    // Soon after it starts, the instance takes the sweep lock and runs a reconciliation pass of a dozen statements on
    // its own schedule (server/lifecycle/work-wakes.ts): on a slow machine that pass ran through all three counts of the
    // first operation. Counting starts once the lock is taken and the pass is over (reconcile() waits for a pass under way).
    await vi.waitFor(async () => expect(await sweepLockHeld(database.url)).toBe(true), { timeout: 10_000, interval: 20 });
    await server.reconcile();
  });
  afterAll(async () => {
    await server?.close();
    await redis?.remove();
    await counter?.close();
    await database?.drop();
    // Printed for whoever tunes the store: what each operation sent.
    for (const [operation, statements] of counted) console.log(`${operation}: ${statements.length} round trips (budget ${BUDGETS[operation]})\n  ${statements.join('\n  ')}`);
  });

  /** `operation`'s round trips, the fewest of RUNS: `prepare` makes what it needs uncounted, `act` is counted. */
  async function count<T>(operation: Operation, prepare: () => Promise<T>, act: (prepared: T) => Promise<Response>): Promise<number> {
    let fewest: string[] | undefined;
    for (let run = 0; run < RUNS; run++) {
      const prepared = await prepare();
      counter.take();
      const response = await act(prepared);
      const statements = counter.take();
      expect(response.ok, `${operation} answered ${response.status}: ${await response.text()}`).toBe(true);
      if (!fewest || statements.length < fewest.length) fewest = statements;
    }
    counted.set(operation, fewest!);
    return fewest!.length;
  }

  const merchantCall = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' } });
  const paymentFor = async (card: string): Promise<{ session: CreatedSession; paymentData: unknown }> => {
    const session = await server.createSession(secretKey);
    const view = await server.publicSession(session);
    return { session, paymentData: await mintPaymentData(sandboxWalletUrl(view.wallet), card, view.payment_data_request) };
  };
  const pay = ({ session, paymentData }: { session: CreatedSession; paymentData: unknown }) => server.pay(session, { payment_data: paymentData });

  it('creating a session', async () => {
    const body = JSON.stringify({ amount: 2400, currency: 'USD', country_code: 'US' });
    expect(await count('create a session', async () => undefined, () => merchantCall('/api/sessions', { method: 'POST', body }))).toBeLessThanOrEqual(BUDGETS['create a session']);
  });

  it("the widget's public view", async () => {
    const read = (session: CreatedSession) => fetch(`${server.url}/api/sessions/${session.id}/public`, { headers: { authorization: `Bearer ${session.client_secret}` } });
    expect(await count('public view', () => server.createSession(secretKey), read)).toBeLessThanOrEqual(BUDGETS['public view']);
  });

  it("the merchant's read", async () => {
    expect(await count('merchant read', () => server.createSession(secretKey), (session) => merchantCall(`/api/sessions/${session.id}`))).toBeLessThanOrEqual(BUDGETS['merchant read']);
  });

  it('a payment that succeeds, and one the issuer declines', async () => {
    expect(await count('pay (success)', () => paymentFor('visa-success-pan'), pay)).toBeLessThanOrEqual(BUDGETS['pay (success)']);
    expect(await count('pay (decline)', () => paymentFor('visa-decline-pan'), pay)).toBeLessThanOrEqual(BUDGETS['pay (decline)']);
  });

  it("writes a one-statement outcome's event and its delivery, and writes nothing when the row changed since the claim", async () => {
    const { store } = server;
    const claim = async () => {
      const session = await server.createSession(secretKey);
      const move = { sessionId: session.id, from: ['open'], to: 'processing', changes: { attempts: sql<number>`attempts + 1` }, expected: {}, now: Date.now() };
      const claimed = await claimSessionForAttempt(store, move, { id: `att_${session.id}`, sourceType: 'walletpay', requestSealed: 'sealed', instanceId: 'test' });
      if (!claimed?.version) throw new Error('no claim, or no version: not PostgreSQL');
      return { claimed: { ...claimed, version: claimed.version }, attemptId: `att_${session.id}` };
    };
    const outcome = { status: 'declined', chargeId: null, outcome: '{}', settled: true };
    const settle = ({ claimed, attemptId }: Awaited<ReturnType<typeof claim>>) => {
      const now = Date.now();
      const event = { id: `evt_${attemptId}`, app_id: claimed.row.app_id, type: 'session.payment_failed', created: now, body: '{}', personal_data: 0, session_id: claimed.row.id };
      const move = { sessionId: claimed.row.id, from: ['processing'], to: 'declined', changes: { outcome: '{}' }, expected: {}, now };
      return recordClaimedOutcome(store, { claimed, attemptId, attempt: outcome, move, event });
    };
    const attemptStatus = async (attemptId: string) => (await store.selectFrom('charge_attempts').select('status').where('id', '=', attemptId).executeTakeFirstOrThrow()).status;
    const deliveriesOf = (eventId: string) => store.selectFrom('webhook_deliveries').select(['id', 'status']).where('event_id', '=', eventId).execute();

    const untouched = await claim();
    expect((await settle(untouched))?.status).toBe('declined');
    expect(await attemptStatus(untouched.attemptId)).toBe('declined');
    const deliveries = await deliveriesOf(`evt_${untouched.attemptId}`);
    expect(deliveries).toEqual([{ id: expect.stringMatching(/^whd_[A-Za-z0-9_-]{22}$/), status: 'pending' }]);

    const written = await claim();
    await store.updateTable('sessions').set({ updated: Date.now() }).where('id', '=', written.claimed.row.id).execute();
    expect(await settle(written)).toBeUndefined();
    expect(await attemptStatus(written.attemptId)).toBe('in_flight');
    expect((await findSession(store, written.claimed.row.id))?.status).toBe('processing');
    expect(await store.selectFrom('events').select('id').where('id', '=', `evt_${written.attemptId}`).execute()).toEqual([]);
  });

  it('a refund', async () => {
    const paid = async () => {
      const payment = await paymentFor('visa-success-pan');
      expect((await pay(payment)).status).toBe(200);
      return payment.session;
    };
    const refund = (session: CreatedSession) => merchantCall(`/api/sessions/${session.id}/refunds`, { method: 'POST', body: '{}' });
    expect(await count('refund', paid, refund)).toBeLessThanOrEqual(BUDGETS.refund);
  });
});
