/**
 * Test clocks over real HTTP, on both engines (docs/test-clocks.md): one
 * application's clock (or one session's) moved forward, and what days would do
 * done when the call returns: a session expired, a hold lapsed and released,
 * a webhook retry sent early and the retries ended after 3 days, personal data
 * erased; another application's rows untouched; several instances on one
 * PostgreSQL reading the same clock; and the refusal of a server whose payment
 * service is a real one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CreatedSession, type CreatedWebhookEndpoint, type EventList, HOLD_LIFETIME_MS, MAX_CLOCK_ADVANCE_SECONDS, type PayReply, type Session, type TestClock } from '../../contracts';
import { TYPICAL_ADDRESS_ON_FILE } from '../../sandbox/billing-addresses';
import { startTestServer, type TestServer } from '../../testing/harness';
import { createTestDatabase, type TestDatabase, testDatabaseServer } from '../../testing/postgres';
import { startWebhookReceiver, type WebhookReceiver } from '../../testing/webhook-receiver';

const HOUR = 3600;
const DAY = 24 * HOUR;
const RETENTION_DAYS = 30;

/**
 * Nothing timed runs on its own: reconciliation waits an hour, the delivery worker sends only when asked, and a
 * failed delivery is retried up to an hour later, so what happens is what the clock's move made happen.
 */
const QUIET = {
  RECONCILE_INTERVAL_MS: '3600000',
  PERSONAL_DATA_RETENTION_DAYS: String(RETENTION_DAYS),
  RECONCILE_IDLE_INTERVAL_MS: '3600000',
  WEBHOOK_DELIVERY: 'on-demand',
  WEBHOOK_RETRY_BASE_MS: '3600000',
  WEBHOOK_RETRY_MAX_MS: '3600000',
};

const engines = [
  { name: 'SQLite', available: true },
  { name: 'PostgreSQL', available: testDatabaseServer !== undefined },
];

for (const engine of engines) {
  describe.skipIf(!engine.available)(`test clocks on ${engine.name}`, () => {
    let server: TestServer;
    let database: TestDatabase | undefined;
    let receiver: WebhookReceiver;

    beforeAll(async () => {
      database = engine.name === 'PostgreSQL' ? await createTestDatabase(testDatabaseServer!) : undefined;
      server = await startTestServer({ ...QUIET, ...(database && { DATABASE_URL: database.url }) });
      receiver = await startWebhookReceiver();
    });
    afterAll(async () => {
      await receiver?.close();
      await server?.close();
      await database?.drop();
    });

    const call = (secretKey: string, path: string, init: RequestInit = {}) =>
      fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json', ...init.headers } });
    const read = async <T>(secretKey: string, path: string): Promise<T> => (await call(secretKey, path)).json() as Promise<T>;
    const advance = (secretKey: string, body: unknown) => call(secretKey, '/api/test_helpers/advance_clock', { method: 'POST', body: JSON.stringify(body) });
    async function advanced(secretKey: string, body: unknown): Promise<TestClock> {
      const reply = await advance(secretKey, body);
      expect(reply.status, await reply.clone().text()).toBe(200);
      return (await reply.json()) as TestClock;
    }
    const session = (secretKey: string, created: CreatedSession) => read<Session>(secretKey, `/api/sessions/${created.id}`);
    async function paid(created: CreatedSession, status: PayReply['outcome']['status']): Promise<CreatedSession> {
      const reply = await server.pay(created, { payment_data: await server.walletPaymentData(created, 'visa-success-3ds') });
      expect(((await reply.json()) as PayReply).outcome.status).toBe(status);
      return created;
    }

    it("moves only the calling application's clock: its unpaid session expires, another application's stays open", async () => {
      const mine = await server.merchant({ merchant_id: 'clock_shared' });
      const theirs = await server.merchant({ merchant_id: 'clock_shared' });
      const [myOpen, theirOpen] = [await server.createSession(mine.secretKey), await server.createSession(theirs.secretKey)];
      const before = Date.now();
      const clock = await advanced(mine.secretKey, { seconds: DAY + HOUR });
      expect(clock).toMatchObject({ object: 'test_clock', offset_seconds: DAY + HOUR, session: null });
      expect(clock.now).toBeGreaterThanOrEqual(before + (DAY + HOUR) * 1000);
      expect(await session(mine.secretKey, myOpen)).toMatchObject({ status: 'expired', expires_at: myOpen.expires_at - (DAY + HOUR) * 1000, created: myOpen.created - (DAY + HOUR) * 1000 });
      const events = await read<EventList>(mine.secretKey, '/api/events?type=session.expired');
      expect(events.data.map((event) => event.data.object.id)).toContain(myOpen.id);
      expect(await session(theirs.secretKey, theirOpen)).toMatchObject({ status: 'open', expires_at: theirOpen.expires_at, created: theirOpen.created });
      expect(await read<TestClock>(theirs.secretKey, '/api/test_helpers/clock')).toMatchObject({ offset_seconds: 0 });
      // `to`: a time on the application's clock, reached (rounded up to the second) by moving the time between.
      const to = clock.now + HOUR * 1000;
      const again = await advanced(mine.secretKey, { to });
      expect(again.now).toBeGreaterThanOrEqual(to);
      expect(again.offset_seconds).toBeLessThanOrEqual(DAY + 2 * HOUR);
      expect(again.offset_seconds).toBeGreaterThan(DAY + 2 * HOUR - 5);
      expect((await read<TestClock>(mine.secretKey, '/api/test_helpers/clock')).offset_seconds).toBe(again.offset_seconds);
    });

    it('moves one session alone when asked: the other sessions and the clock stay', async () => {
      const { secretKey } = await server.merchant({ merchant_id: 'clock_one_session' });
      const [moved, kept] = [await server.createSession(secretKey), await server.createSession(secretKey)];
      expect(await advanced(secretKey, { seconds: 2 * DAY, session: moved.id })).toMatchObject({ offset_seconds: 0, session: moved.id });
      expect((await session(secretKey, moved)).status).toBe('expired');
      expect((await session(secretKey, kept)).status).toBe('open');
    });

    it('lapses a hold 7 days after it was placed: released with the service, and a capture refused; a day before, it is captured', async () => {
      const { secretKey } = await server.merchant({ merchant_id: 'clock_holds' });
      const early = await paid(await server.createSession(secretKey, { intent: 'hold', amount: 5000 }), 'authorized');
      const lapsing = await paid(await server.createSession(secretKey, { intent: 'hold', amount: 5000 }), 'authorized');
      await advanced(secretKey, { seconds: HOLD_LIFETIME_MS / 1000 - DAY });
      expect((await session(secretKey, lapsing)).status).toBe('authorized');
      expect((await server.merchantPost(secretKey, `/api/sessions/${early.id}/capture`)).status).toBe(200);

      await advanced(secretKey, { seconds: DAY });
      expect(await session(secretKey, lapsing)).toMatchObject({ status: 'released', amount_captured: null });
      const capture = await server.merchantPost(secretKey, `/api/sessions/${lapsing.id}/capture`);
      expect([capture.status, ((await capture.json()) as { error: { code: string } }).error.code]).toEqual([409, 'invalid_state']);
      const operations = (await server.sandbox!.ledger()).filter((entry) => entry.idempotency_key?.startsWith(`${lapsing.id}:`)).map((entry) => [entry.operation, entry.charge.status]);
      expect(operations).toEqual([
        ['charge', 'held'],
        ['release', 'released'],
      ]);
      expect((await session(secretKey, early)).status).toBe('captured');
    });

    it("sends a webhook's retry when the clock reaches it, not an hour later", async () => {
      const { secretKey } = await server.merchant({ merchant_id: 'clock_webhooks' });
      const endpoint = (await (await call(secretKey, '/api/webhook_endpoints', { method: 'POST', body: JSON.stringify({ url: receiver.url, events: ['session.succeeded'] }) })).json()) as CreatedWebhookEndpoint;
      receiver.secrets = [endpoint.secret];
      receiver.answer = 500;
      const created = await paid(await server.createSession(secretKey), 'succeeded');
      // The receiver keeps what it accepted; the store says how many times it was tried.
      const accepted = () => receiver.deliveries.filter((delivery) => delivery.event.data.object.id === created.id);
      const tries = async () =>
        (await server.store.selectFrom('webhook_deliveries').select(['attempts', 'status']).where('endpoint_id', '=', endpoint.id).executeTakeFirstOrThrow());
      await server.deliverWebhooks();
      expect(await tries()).toEqual({ attempts: 1, status: 'pending' });
      receiver.answer = 200;
      await server.deliverWebhooks();
      expect(accepted()).toHaveLength(0);

      await advanced(secretKey, { seconds: HOUR });
      expect(accepted().map((delivery) => delivery.event.type)).toEqual(['session.succeeded']);
      expect(await tries()).toEqual({ attempts: 2, status: 'delivered' });
    });

    it('ends the retries of a failing delivery once the clock passes 3 days from its event: failed', async () => {
      const { secretKey } = await server.merchant({ merchant_id: 'clock_retry_window' });
      const endpoint = (await (await call(secretKey, '/api/webhook_endpoints', { method: 'POST', body: JSON.stringify({ url: receiver.url, events: ['session.succeeded'] }) })).json()) as CreatedWebhookEndpoint;
      receiver.secrets = [endpoint.secret];
      receiver.answer = 500;
      try {
        await paid(await server.createSession(secretKey), 'succeeded');
        const tries = async () => server.store.selectFrom('webhook_deliveries').select(['attempts', 'status']).where('endpoint_id', '=', endpoint.id).executeTakeFirstOrThrow();
        await server.deliverWebhooks();
        expect(await tries()).toEqual({ attempts: 1, status: 'pending' });
        await advanced(secretKey, { seconds: DAY });
        expect(await tries()).toEqual({ attempts: 2, status: 'pending' });
        await advanced(secretKey, { seconds: 2 * DAY + HOUR });
        expect(await tries()).toEqual({ attempts: 3, status: 'failed' });
      } finally {
        receiver.answer = 200;
      }
    });

    it(`erases the personal data of the application's sessions ${RETENTION_DAYS} days on`, async () => {
      const { secretKey } = await server.merchant({ merchant_id: 'clock_retention' });
      const created = await server.createSession(secretKey, { billing_address_on_file: TYPICAL_ADDRESS_ON_FILE });
      await advanced(secretKey, { seconds: (RETENTION_DAYS - 1) * DAY });
      expect((await session(secretKey, created)).billing_address_on_file).toEqual(TYPICAL_ADDRESS_ON_FILE);
      await advanced(secretKey, { seconds: DAY + 60 });
      expect((await session(secretKey, created)).billing_address_on_file).toMatchObject({ erased: true });
    });

    it('refuses a move that is not forward, too far, both ways at once, or of a session not the caller\'s, and moves nothing', async () => {
      const mine = await server.merchant({ merchant_id: 'clock_refusals' });
      const theirs = await server.merchant({ merchant_id: 'clock_refusals' });
      const theirSession = await server.createSession(theirs.secretKey);
      const clock = await read<TestClock>(mine.secretKey, '/api/test_helpers/clock');
      const refusals: [unknown, number, string][] = [
        [{ seconds: 0 }, 400, 'invalid_request'],
        [{ seconds: -60 }, 400, 'invalid_request'],
        [{ seconds: MAX_CLOCK_ADVANCE_SECONDS + 1 }, 400, 'invalid_request'],
        [{ seconds: 1.5 }, 400, 'invalid_request'],
        [{}, 400, 'invalid_request'],
        [{ seconds: 60, to: clock.now + 60_000 }, 400, 'invalid_request'],
        [{ to: clock.now - 60_000 }, 400, 'invalid_request'],
        [{ seconds: 60, days: 1 }, 400, 'invalid_request'],
        [{ seconds: 60, session: theirSession.id }, 404, 'not_found'],
      ];
      for (const [body, status, code] of refusals) {
        const reply = await advance(mine.secretKey, body);
        expect([reply.status, ((await reply.json()) as { error: { code: string } }).error.code], JSON.stringify(body)).toEqual([status, code]);
      }
      expect((await read<TestClock>(mine.secretKey, '/api/test_helpers/clock')).offset_seconds).toBe(0);
      expect((await session(theirs.secretKey, theirSession)).status).toBe('open');
      expect((await advance('sk_test_not_a_key', { seconds: 60 })).status).toBe(401);
    });

    it.skipIf(engine.name !== 'PostgreSQL')('reads the same clock on every instance of one PostgreSQL', async () => {
      const { secretKey } = await server.merchant({ merchant_id: 'clock_fleet' });
      const other = await startTestServer({ ...QUIET, DATABASE_URL: database!.url });
      try {
        await advanced(secretKey, { seconds: 3 * HOUR });
        const clock = await (await fetch(`${other.url}/api/test_helpers/clock`, { headers: { authorization: `Bearer ${secretKey}` } })).json();
        expect(clock).toMatchObject({ offset_seconds: 3 * HOUR });
      } finally {
        await other.close();
      }
    });
  });
}

describe('a server with a real payment service', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Never called: the refusal comes first.
    server = await startTestServer({ PAYMENT_SERVICE_URL: 'http://127.0.0.1:9', PAYMENT_SERVICE_KEY: 'sk_live_unused' });
  });
  afterAll(() => server?.close());

  it('refuses to read or move a test clock: 403 test_helpers_unavailable', async () => {
    const { secretKey } = await server.merchant();
    const created = await server.createSession(secretKey);
    const headers = { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' };
    for (const reply of [
      await fetch(`${server.url}/api/test_helpers/clock`, { headers }),
      await fetch(`${server.url}/api/test_helpers/advance_clock`, { method: 'POST', headers, body: JSON.stringify({ seconds: 2 * DAY }) }),
    ]) {
      expect(reply.status).toBe(403);
      expect(((await reply.json()) as { error: { code: string } }).error.code).toBe('test_helpers_unavailable');
    }
    const read = (await (await fetch(`${server.url}/api/sessions/${created.id}`, { headers })).json()) as Session;
    expect(read).toMatchObject({ status: 'open', expires_at: created.expires_at });
  });
});
