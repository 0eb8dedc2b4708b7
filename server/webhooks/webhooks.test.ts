/**
 * Webhooks end to end: a merchant's receiver (testing/webhook-receiver.ts,
 * plain node:http and node:crypto) registered with the API gets, signed,
 * every event of what the merchant's shoppers and server do; retries reach a
 * receiver that was down; a secret roll signs with both; redelivery and
 * deletion do what they say. Retries are fast here (WEBHOOK_RETRY_BASE_MS).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedSession, CreatedWebhookEndpoint, Event, EventType, Session } from '../../contracts';
import { startTestServer, type TestServer } from '../../testing/harness';
import { FAST_WEBHOOKS, startWebhookReceiver, type WebhookReceiver } from '../../testing/webhook-receiver';

let server: TestServer;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  server = await startTestServer(FAST_WEBHOOKS);
});
afterAll(async () => {
  await server.close();
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

const call = (secretKey: string, path: string, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json', ...init.headers } });

/** A merchant with a receiver registered for `events` (every type when absent). */
async function merchantWithReceiver(events?: EventType[]): Promise<{ secretKey: string; receiver: WebhookReceiver; endpoint: CreatedWebhookEndpoint }> {
  const { secretKey } = await server.merchant();
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  const reply = await call(secretKey, '/api/webhook_endpoints', { method: 'POST', body: JSON.stringify({ url: receiver.url, ...(events ? { events } : {}) }) });
  expect(reply.status).toBe(201);
  const endpoint = (await reply.json()) as CreatedWebhookEndpoint;
  receiver.secrets = [endpoint.secret];
  return { secretKey, receiver, endpoint };
}

/** The events about a session: its own, and its refunds'. */
const about = (session: { id: string }) => (events: Event[]) =>
  events.filter(({ data: { object } }) => (object.object === 'refund' ? object.session_id : object.id) === session.id);
const typesAbout = (events: Event[], session: { id: string }) => about(session)(events).map((event) => event.type);

async function paid(secretKey: string, card: string, body: Record<string, unknown> = {}): Promise<CreatedSession> {
  const session = await server.createSession(secretKey, body);
  const reply = await server.pay(session, { payment_data: await server.walletPaymentData(session, card) });
  expect(reply.status).toBe(200);
  return session;
}

/**
 * What a merchant's lifecycle sends, one row per flow: what the merchant and
 * its shopper do, and the events the receiver must get about that session,
 * in order of the changes. A new flow (a refund, an expiry) is one more row.
 */
const LIFECYCLE: { flow: string; run(secretKey: string): Promise<CreatedSession>; events: EventType[] }[] = [
  { flow: 'a payment', run: (secretKey) => paid(secretKey, 'visa-success-3ds'), events: ['session.succeeded'] },
  { flow: 'a declined payment', run: (secretKey) => paid(secretKey, 'visa-decline-3ds'), events: ['session.payment_failed'] },
  {
    flow: 'a hold, then its capture',
    async run(secretKey) {
      const hold = await paid(secretKey, 'visa-success-3ds', { intent: 'hold' });
      expect((await server.merchantPost(secretKey, `/api/sessions/${hold.id}/capture`, { amount: 1000 })).status).toBe(200);
      return hold;
    },
    events: ['session.authorized', 'session.captured'],
  },
  {
    flow: 'a hold, then its release',
    async run(secretKey) {
      const hold = await paid(secretKey, 'visa-success-3ds', { intent: 'hold' });
      expect((await server.merchantPost(secretKey, `/api/sessions/${hold.id}/release`)).status).toBe(200);
      return hold;
    },
    events: ['session.authorized', 'session.released'],
  },
  {
    flow: 'a payment refunded in part, then in full',
    async run(secretKey) {
      const session = await paid(secretKey, 'visa-success-3ds');
      for (const body of [{ amount: 1000 }, {}]) expect((await server.merchantPost(secretKey, `/api/sessions/${session.id}/refunds`, body)).status).toBe(201);
      return session;
    },
    events: ['session.succeeded', 'refund.succeeded', 'refund.succeeded'],
  },
  {
    flow: 'a hold captured in part, then refunded',
    async run(secretKey) {
      const hold = await paid(secretKey, 'visa-success-3ds', { intent: 'hold' });
      expect((await server.merchantPost(secretKey, `/api/sessions/${hold.id}/capture`, { amount: 1000 })).status).toBe(200);
      expect((await server.merchantPost(secretKey, `/api/sessions/${hold.id}/refunds`, {})).status).toBe(201);
      return hold;
    },
    events: ['session.authorized', 'session.captured', 'refund.succeeded'],
  },
  {
    flow: 'a session left unpaid until it expired',
    async run(secretKey) {
      const session = await server.createSession(secretKey);
      // Its time is up (the shortest a merchant may set is 30 minutes); the merchant's next read expires it.
      await server.store.updateTable('sessions').set({ expires_at: Date.now() - 1 }).where('id', '=', session.id).execute();
      expect((await (await call(secretKey, `/api/sessions/${session.id}`)).json()).status).toBe('expired');
      return session;
    },
    events: ['session.expired'],
  },
];

describe('a merchant receiving webhooks', () => {
  it.each(LIFECYCLE)('gets every event of $flow, signed, the session as GET /api/sessions/{id} shows it', async ({ run, events }) => {
    const { secretKey, receiver } = await merchantWithReceiver();
    const session = await run(secretKey);
    const received = about(session)(await receiver.waitFor((got) => about(session)(got).length >= events.length));
    expect(received.map((event) => event.type).sort()).toEqual([...events].sort());
    expect(receiver.forged).toBe(0);
    const last = received.sort((a, b) => a.created - b.created).at(-1)!;
    const now = (await (await call(secretKey, `/api/sessions/${session.id}`)).json()) as Session;
    expect(last.data.object).toEqual(last.data.object.object === 'refund' ? now.refunds.find((refund) => refund.id === last.data.object.id) : now);
    // Byte for byte what the events API shows, with the headers the docs promise.
    const delivery = receiver.deliveries.find((candidate) => candidate.event.id === last.id)!;
    expect(JSON.parse(delivery.body)).toEqual(await (await call(secretKey, `/api/events/${last.id}`)).json());
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(delivery.headers['user-agent']).toMatch(/^WalletCheckout-Webhooks\//);
    expect(delivery.headers['wallet-checkout-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it('gets only the types it listens to', async () => {
    const { secretKey, receiver } = await merchantWithReceiver(['session.captured']);
    const hold = await LIFECYCLE[2]!.run(secretKey);
    await receiver.waitFor((got) => got.length >= 1);
    await server.deliverWebhooks();
    expect(typesAbout(receiver.events(), hold)).toEqual(['session.captured']);
  });

  it('gets every event once it is back up after being down for a while', async () => {
    const { secretKey, receiver } = await merchantWithReceiver();
    await receiver.down();
    const sessions = [await paid(secretKey, 'visa-success-3ds'), await paid(secretKey, 'visa-decline-3ds')];
    // Several attempts meet a refused connection, each recorded.
    const refused = async () => server.store.selectFrom('webhook_deliveries').select(['attempts', 'last_error', 'status']).where('last_error', '=', 'connection refused').execute();
    await expect.poll(async () => (await refused()).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    await receiver.up();
    const received = await receiver.waitFor((got) => sessions.every((session) => about(session)(got).length === 1));
    expect(received.map((event) => event.type).sort()).toEqual(['session.payment_failed', 'session.succeeded']);
    expect(receiver.forged).toBe(0);
  });

  it('gets each event again when the receiver answers an error, until a 2xx', async () => {
    const { secretKey, receiver } = await merchantWithReceiver();
    receiver.answer = 503;
    const session = await paid(secretKey, 'visa-success-3ds');
    await expect
      .poll(async () => (await server.store.selectFrom('webhook_deliveries').select(['last_status_code']).where('last_status_code', '=', 503).execute()).length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(1);
    receiver.answer = 204;
    expect(typesAbout(await receiver.waitFor((got) => about(session)(got).length === 1), session)).toEqual(['session.succeeded']);
  });

  it('verifies deliveries by either secret while one is rolled, and by the new one alone after', async () => {
    const { secretKey, receiver, endpoint } = await merchantWithReceiver();
    const roll = async (seconds: number) => {
      const reply = await call(secretKey, `/api/webhook_endpoints/${endpoint.id}/roll_secret`, { method: 'POST', body: JSON.stringify({ expire_current_in_seconds: seconds }) });
      expect(reply.status).toBe(201);
      return (await reply.json()) as { secret: string; previous_secret_expires: number };
    };
    const rolled = await roll(3600);
    expect(rolled.secret).toMatch(/^whsec_/);
    // A receiver still on the old secret, and one already on the new, both accept.
    for (const secrets of [[endpoint.secret], [rolled.secret]]) {
      receiver.secrets = secrets;
      const session = await paid(secretKey, 'visa-success-3ds');
      const [event] = about(session)(await receiver.waitFor((got) => about(session)(got).length === 1));
      const header = receiver.deliveries.find((delivery) => delivery.event.id === event!.id)!.headers['wallet-checkout-signature'];
      expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    }
    const final = await roll(0);
    receiver.secrets = [rolled.secret];
    const session = await paid(secretKey, 'visa-success-3ds');
    await expect.poll(() => receiver.forged, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    expect(about(session)(receiver.events())).toEqual([]);
    receiver.secrets = [final.secret];
    await receiver.waitFor((got) => about(session)(got).length === 1);
  });

  it('gets an event again on redelivery, and a receiver added since gets it too', async () => {
    const { secretKey, receiver } = await merchantWithReceiver();
    const session = await paid(secretKey, 'visa-success-3ds');
    const [event] = about(session)(await receiver.waitFor((got) => about(session)(got).length === 1));
    const later = await startWebhookReceiver();
    receivers.push(later);
    const added = (await (await call(secretKey, '/api/webhook_endpoints', { method: 'POST', body: JSON.stringify({ url: later.url }) })).json()) as CreatedWebhookEndpoint;
    later.secrets = [added.secret];

    const reply = await call(secretKey, `/api/events/${event!.id}/redeliver`, { method: 'POST' });
    expect(reply.status).toBe(202);
    expect((await reply.json()).endpoints).toHaveLength(2);
    await expect.poll(() => receiver.deliveries.filter((delivery) => delivery.event.id === event!.id).length, { timeout: 10_000 }).toBe(2);
    expect((await later.waitFor((got) => got.length === 1)).map((got) => got.id)).toEqual([event!.id]);
  });

  it('sends nothing more to a deleted endpoint, pending deliveries included', async () => {
    const { secretKey, receiver, endpoint } = await merchantWithReceiver();
    await receiver.down();
    await paid(secretKey, 'visa-success-3ds');
    await expect.poll(async () => (await server.store.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpoint.id).where('attempts', '>', 0).execute()).length, { timeout: 10_000 }).toBe(1);

    const deleted = await call(secretKey, `/api/webhook_endpoints/${endpoint.id}`, { method: 'DELETE' });
    expect(await deleted.json()).toEqual({ id: endpoint.id, object: 'webhook_endpoint', deleted: true });
    await receiver.up();
    await paid(secretKey, 'visa-success-3ds');
    await server.deliverWebhooks();
    await server.deliverWebhooks();
    expect(receiver.deliveries).toEqual([]);
    expect((await call(secretKey, '/api/webhook_endpoints')).status).toBe(200);
    expect((await (await call(secretKey, '/api/webhook_endpoints')).json()).data).toEqual([]);
    expect((await call(secretKey, `/api/webhook_endpoints/${endpoint.id}`, { method: 'DELETE' })).status).toBe(404);
  });
});

describe('the webhook API', () => {
  it('shows a secret once: the list never has it', async () => {
    const { secretKey, endpoint } = await merchantWithReceiver(['session.succeeded', 'session.succeeded']);
    expect(endpoint).toMatchObject({ id: expect.stringMatching(/^we_/), object: 'webhook_endpoint', events: ['session.succeeded'], secret: expect.stringMatching(/^whsec_/) });
    const listed = await (await call(secretKey, '/api/webhook_endpoints')).json();
    expect(listed).toEqual({ object: 'list', data: [{ id: endpoint.id, object: 'webhook_endpoint', url: endpoint.url, events: ['session.succeeded'], created: endpoint.created }], has_more: false });
    expect(JSON.stringify(listed)).not.toContain('whsec_');
    // Kept sealed: the store never holds the secret itself.
    const row = await server.store.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpoint.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(endpoint.secret);
  });

  it('refuses an unknown event type, a URL that is not http(s), and more endpoints than the limit', async () => {
    const { secretKey } = await server.merchant();
    const create = (body: unknown) => call(secretKey, '/api/webhook_endpoints', { method: 'POST', body: JSON.stringify(body) });
    const refusal = async (reply: Response) => [reply.status, ((await reply.json()) as { error: { code: string } }).error.code];
    expect(await refusal(await create({ url: 'https://shop.example/hooks', events: ['session.paid'] }))).toEqual([400, 'invalid_request']);
    expect(await refusal(await create({ url: 'ftp://shop.example/hooks' }))).toEqual([400, 'invalid_request']);
    expect(await refusal(await create({ url: 'https://user:pw@shop.example/hooks' }))).toEqual([400, 'invalid_request']);
    for (let i = 0; i < 16; i++) expect((await create({ url: `https://shop.example/hooks/${i}` })).status).toBe(201);
    expect(await refusal(await create({ url: 'https://shop.example/hooks/16' }))).toEqual([409, 'too_many_endpoints']);
    expect((await call('sk_test_wrong', '/api/webhook_endpoints')).status).toBe(401);
  });

  it('refuses a URL that does not parse, a relative one and one over 2,048 characters: 400 invalid_request naming url, never a 500', async () => {
    const { secretKey } = await server.merchant();
    const create = (body: unknown) => call(secretKey, '/api/webhook_endpoints', { method: 'POST', body: JSON.stringify(body) });
    const long = `https://shop.example/${'a'.repeat(2049 - 'https://shop.example/'.length)}`;
    expect(long).toHaveLength(2049);
    for (const url of ['not a uri', '/hooks', 'shop.example/hooks', 'http://[::1', 'https://exa mple.com/', `not a uri ${'x'.repeat(2040)}`, long]) {
      const reply = await create({ url });
      expect(reply.status, url.slice(0, 40)).toBe(400);
      const { error } = (await reply.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('invalid_request');
      expect(error.message).toMatch(/^url: /);
      expect(error.message).not.toContain(url);
    }
    expect((await create({ url: long.slice(0, 2048) })).status).toBe(201);
  });

  it('lists events newest first, a page at a time, filtered by type, and reads one', async () => {
    const { secretKey } = await server.merchant();
    const sessions = [await paid(secretKey, 'visa-success-3ds'), await paid(secretKey, 'visa-decline-3ds'), await paid(secretKey, 'visa-success-3ds')];
    const page = async (query: string) => (await (await call(secretKey, `/api/events${query}`)).json()) as { data: Event[]; has_more: boolean };
    const first = await page('?limit=2');
    expect(first.has_more).toBe(true);
    const second = await page(`?limit=2&starting_after=${first.data[1]!.id}`);
    expect(second.has_more).toBe(false);
    expect([...first.data, ...second.data].map((event) => event.data.object.id)).toEqual([...sessions].reverse().map((session) => session.id));
    expect((await page('?type=session.payment_failed')).data.map((event) => event.data.object.id)).toEqual([sessions[1]!.id]);
    expect((await call(secretKey, '/api/events?limit=101')).status).toBe(400);
    expect((await call(secretKey, '/api/events?starting_after=evt_0000000000000000000000')).status).toBe(400);
    expect(await (await call(secretKey, `/api/events/${first.data[0]!.id}`)).json()).toEqual(first.data[0]);
    // Another merchant's event is no event of this one.
    const { secretKey: stranger } = await server.merchant();
    expect((await call(stranger, `/api/events/${first.data[0]!.id}`)).status).toBe(404);
    expect((await call(stranger, `/api/events/${first.data[0]!.id}/redeliver`, { method: 'POST' })).status).toBe(404);
  });

  it('lists only the events of a time window (created_gte, created_lt), as a follower of new events asks', async () => {
    const { secretKey } = await server.merchant();
    const page = async (query: string) => (await (await call(secretKey, `/api/events${query}`)).json()) as { data: Event[]; has_more: boolean };
    const before = await paid(secretKey, 'visa-success-3ds');
    const [older] = (await page('?limit=1')).data;
    // The next event is recorded at a later millisecond than `older`, so the window's edge falls between them.
    while (Date.now() <= older!.created) await new Promise((resolve) => setTimeout(resolve, 1));
    const after = await paid(secretKey, 'visa-decline-3ds');
    const [newer] = (await page('?limit=1')).data;
    expect(newer!.created).toBeGreaterThan(older!.created);
    expect((await page(`?created_gte=${newer!.created}`)).data.map((event) => event.data.object.id)).toEqual([after.id]);
    expect((await page(`?created_gte=${older!.created}`)).data.map((event) => event.data.object.id)).toEqual([after.id, before.id]);
    expect((await page(`?created_lt=${newer!.created}`)).data.map((event) => event.data.object.id)).toEqual([before.id]);
    expect((await page(`?created_gte=${newer!.created + 1}`)).data).toEqual([]);
    expect((await call(secretKey, '/api/events?created_gte=1e3')).status).toBe(400);
  });
});

describe('a burst of events', () => {
  let slowPoll: TestServer;
  beforeAll(async () => {
    // Sends only when asked: only the pass started on demand sends anything in this test.
    slowPoll = await startTestServer({ ...FAST_WEBHOOKS, WEBHOOK_DELIVERY: 'on-demand' });
  });
  afterAll(() => slowPoll.close());

  it('is sent at the receiver\'s pace, not a batch per pass: freed slots take the next deliveries at once', async () => {
    const { secretKey } = await slowPoll.merchant();
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    const endpoint = (await (await slowPoll.merchantPost(secretKey, '/api/webhook_endpoints', { url: receiver.url })).json()) as CreatedWebhookEndpoint;
    receiver.secrets = [endpoint.secret];
    const sessions = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const session = await slowPoll.createSession(secretKey);
        await slowPoll.pay(session, { payment_data: await slowPoll.walletPaymentData(session, 'visa-success-3ds') });
        return session;
      }),
    );
    // One pass takes 8 (the worker's concurrency); each delivery done starts the next.
    await slowPoll.deliverWebhooks();
    expect((await receiver.waitFor((got) => got.length === sessions.length, 10_000)).length).toBe(20);
  });
});

describe('a delivery that keeps failing', () => {
  let shortWindow: TestServer;
  beforeAll(async () => {
    shortWindow = await startTestServer({ ...FAST_WEBHOOKS, WEBHOOK_RETRY_WINDOW_MS: '400' });
  });
  afterAll(() => shortWindow.close());

  it('is failed after the retry window, with why, and redelivery starts it again', async () => {
    const { secretKey } = await shortWindow.merchant();
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    const endpoint = (await (await shortWindow.merchantPost(secretKey, '/api/webhook_endpoints', { url: receiver.url })).json()) as CreatedWebhookEndpoint;
    receiver.secrets = [endpoint.secret];
    await receiver.down();
    const session = await shortWindow.createSession(secretKey);
    await shortWindow.pay(session, { payment_data: await shortWindow.walletPaymentData(session, 'visa-success-3ds') });
    const delivery = () => shortWindow.store.selectFrom('webhook_deliveries').select(['status', 'last_error', 'event_id']).where('endpoint_id', '=', endpoint.id).executeTakeFirstOrThrow();
    await expect.poll(async () => (await delivery()).status, { timeout: 10_000 }).toBe('failed');
    expect((await delivery()).last_error).toBe('connection refused');

    await receiver.up();
    expect((await shortWindow.merchantPost(secretKey, `/api/events/${(await delivery()).event_id}/redeliver`)).status).toBe(202);
    expect(typesAbout(await receiver.waitFor((got) => got.length === 1), session)).toEqual(['session.succeeded']);
    // Recorded once the receiver's 200 is back.
    await expect.poll(async () => (await delivery()).status).toBe('delivered');
  });
});
