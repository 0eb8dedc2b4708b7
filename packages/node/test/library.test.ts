/**
 * The Node library against a real backend (testing/harness.ts, on a free port): a
 * merchant's day through it (sessions, paging, a payment through the sandbox wallet, holds,
 * refunds, webhook endpoints, events, a key roll), its retries proven by a proxy that breaks
 * requests on purpose (each retry carries the same idempotency key, so money moves once), its
 * errors, and webhooks.verify on real deliveries.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../testing/harness';
import { listen, type Listening } from '../../../testing/listen';
import { FAST_WEBHOOKS, startWebhookReceiver, type WebhookReceiver } from '../../../testing/webhook-receiver';
import { type CreatedSession, SIGNATURE_HEADER, WalletCheckout, WalletCheckoutApiError, WalletCheckoutConnectionError, WebhookVerificationError, webhooks } from '../src';

let server: TestServer;
const closers: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  server = await startTestServer(FAST_WEBHOOKS);
});
afterAll(async () => {
  await Promise.all(closers.map((closer) => closer.close()));
  await server.close();
});

/** Retries in tests wait a millisecond at most; the schedule itself is not what is tested. */
const fast = { retryBaseDelayMs: 1 };

async function merchantClient(baseUrl = server.url): Promise<{ walletCheckout: WalletCheckout; secretKey: string }> {
  const { secretKey } = await server.merchant();
  return { walletCheckout: new WalletCheckout(secretKey, { baseUrl, ...fast }), secretKey };
}

/** The shopper pays with a sandbox wallet's test card, as the widget would. */
async function pay(session: CreatedSession, card = 'visa-success-3ds'): Promise<void> {
  const reply = await server.pay(session, { payment_data: await server.walletPaymentData(session, card) });
  expect(reply.status).toBe(200);
}

async function receiver(): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver();
  closers.push(started);
  return started;
}

describe("a merchant's day with the library", () => {
  it('creates, reads and lists sessions page by page', async () => {
    const { walletCheckout } = await merchantClient();
    const created: CreatedSession[] = [];
    for (const amount of [1000, 2000, 3000]) created.push(await walletCheckout.sessions.create({ amount, currency: 'usd', country_code: 'us', reference: `order-${amount}` }));
    const [first] = created;
    expect(first).toMatchObject({ object: 'checkout_session', status: 'open', amount: 1000, currency: 'USD', country_code: 'US', intent: 'charge' });
    expect(first!.client_secret).toMatch(/^cs_.+_secret_/);

    const read = await walletCheckout.sessions.retrieve(first!.id);
    expect(read).toMatchObject({ id: first!.id, reference: 'order-1000', status: 'open' });
    expect(read).not.toHaveProperty('client_secret');

    const newestFirst = created.map((session) => session.id).reverse();
    const page1 = await walletCheckout.sessions.list({ limit: 2 });
    expect(page1.data.map((session) => session.id)).toEqual(newestFirst.slice(0, 2));
    expect(page1.has_more).toBe(true);
    const page2 = await walletCheckout.sessions.list({ limit: 2, starting_after: page1.data[1]!.id });
    expect(page2.data.map((session) => session.id)).toEqual(newestFirst.slice(2));
    expect(page2.has_more).toBe(false);

    const all: string[] = [];
    for await (const session of walletCheckout.sessions.listAll({ limit: 1 })) all.push(session.id);
    expect(all).toEqual(newestFirst);
    expect((await walletCheckout.sessions.list({ reference: 'order-2000' })).data.map((session) => session.id)).toEqual([created[1]!.id]);
  });

  it('captures one hold in part, releases another, and refunds a payment', async () => {
    const { walletCheckout } = await merchantClient();
    const hold = await walletCheckout.sessions.create({ amount: 5000, currency: 'EUR', country_code: 'FR', intent: 'hold' });
    await pay(hold);
    expect((await walletCheckout.sessions.retrieve(hold.id)).status).toBe('authorized');
    expect(await walletCheckout.sessions.capture(hold.id, { amount: 3000 })).toMatchObject({ status: 'captured', amount_captured: 3000 });

    const released = await walletCheckout.sessions.create({ amount: 5000, currency: 'EUR', country_code: 'FR', intent: 'hold' });
    await pay(released);
    expect((await walletCheckout.sessions.release(released.id)).status).toBe('released');

    const charge = await walletCheckout.sessions.create({ amount: 2400, currency: 'USD', country_code: 'US' });
    await pay(charge);
    const refund = await walletCheckout.refunds.create(charge.id, { amount: 400, reason: 'requested_by_customer' });
    expect(refund).toMatchObject({ object: 'refund', session_id: charge.id, amount: 400, reason: 'requested_by_customer', status: 'succeeded' });
    const rest = await walletCheckout.refunds.create(charge.id);
    expect(rest.amount).toBe(2000);
    expect(await walletCheckout.sessions.retrieve(charge.id)).toMatchObject({ amount_refunded: 2400, refunds: [{ id: refund.id }, { id: rest.id }] });
  });

  it('registers a webhook endpoint, rolls its secret, lists and redelivers events, and deletes it', async () => {
    const { walletCheckout } = await merchantClient();
    const merchantReceiver = await receiver();
    const endpoint = await walletCheckout.webhookEndpoints.create({ url: merchantReceiver.url, events: ['session.succeeded'] });
    expect(endpoint.secret).toMatch(/^whsec_/);
    merchantReceiver.secrets = [endpoint.secret];
    expect((await walletCheckout.webhookEndpoints.list()).data.map(({ id }) => id)).toEqual([endpoint.id]);

    const session = await walletCheckout.sessions.create({ amount: 1500, currency: 'USD', country_code: 'US' });
    await pay(session);
    await merchantReceiver.waitFor((events) => events.some((event) => event.data.object.id === session.id));

    const rolled = await walletCheckout.webhookEndpoints.rollSecret(endpoint.id, { expire_current_in_seconds: 0 });
    expect(rolled).toMatchObject({ object: 'webhook_endpoint_secret', endpoint: endpoint.id });
    // From now on only the new secret signs: a receiver that kept the old one would refuse the redelivery.
    merchantReceiver.secrets = [rolled.secret];

    const { data: events } = await walletCheckout.events.list({ type: 'session.succeeded' });
    expect(events.map((event) => event.data.object.id)).toEqual([session.id]);
    const event = events[0]!;
    expect(await walletCheckout.events.retrieve(event.id)).toEqual(event);
    expect(await walletCheckout.events.redeliver(event.id)).toEqual({ object: 'event_redelivery', event: event.id, endpoints: [endpoint.id] });
    await expect.poll(() => merchantReceiver.deliveries.filter((delivery) => delivery.event.id === event.id).length).toBe(2);
    expect(merchantReceiver.forged).toBe(0);

    expect(await walletCheckout.webhookEndpoints.delete(endpoint.id)).toEqual({ id: endpoint.id, object: 'webhook_endpoint', deleted: true });
    expect((await walletCheckout.webhookEndpoints.list()).data).toEqual([]);
  });

  it('rolls the secret key: the new key works, the old one is refused with a typed error', async () => {
    const { walletCheckout } = await merchantClient();
    const rolled = await walletCheckout.keys.roll({ expire_current_in_seconds: 0 });
    const next = new WalletCheckout(rolled.secret, { baseUrl: server.url });
    expect((await next.sessions.list()).object).toBe('list');
    const refused = await walletCheckout.sessions.list().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WalletCheckoutApiError);
    expect(refused).toMatchObject({ status: 401, code: 'unauthenticated' });
  });
});

describe('origin verification (platform mode)', () => {
  it("lists the app's origins with the file to publish and its token, and checks one now", async () => {
    const { secretKey } = await server.merchant({ allowed_origins: ['http://127.0.0.1:9', 'https://shop.example'], google_pay_mode: 'platform' });
    const walletCheckout = new WalletCheckout(secretKey, { baseUrl: server.url, ...fast });
    const list = await walletCheckout.originVerifications.list();
    expect(list).toMatchObject({ object: 'list', required: true, data: [{ origin: 'http://127.0.0.1:9', status: 'loopback' }, { origin: 'https://shop.example', status: 'pending' }] });
    expect(list.data[1]!.token).toMatch(/^wcv_/);
    // A development server takes a loopback origin without its file: nothing is fetched.
    expect(await walletCheckout.originVerifications.verify({ origin: 'http://127.0.0.1:9' })).toMatchObject({ status: 'loopback' });
    const refused = await walletCheckout.originVerifications.verify({ origin: 'https://elsewhere.example' }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 400, code: 'invalid_request' });
  });
});

describe('errors', () => {
  it("carry the API's status, code, message and request id, and a 4xx is not retried", async () => {
    const proxy = await faultyProxy();
    const { walletCheckout } = await merchantClient(proxy.origin);
    const missing = await walletCheckout.sessions.retrieve('cs_AAAAAAAAAAAAAAAAAAAAAA').catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(WalletCheckoutApiError);
    expect(missing).toMatchObject({ status: 404, code: 'not_found', message: 'No such checkout session' });
    expect((missing as WalletCheckoutApiError).requestId).toMatch(/^req_[0-9a-f-]{36}$/);
    expect(proxy.seen).toHaveLength(1);

    const { walletCheckout: direct } = await merchantClient();
    const session = await direct.sessions.create({ amount: 1000, currency: 'USD', country_code: 'US' });
    await pay(session);
    await direct.refunds.create(session.id);
    await expect(direct.refunds.create(session.id)).rejects.toMatchObject({ status: 409, code: 'amount_exceeds_refundable' });
    await expect(direct.sessions.create({ amount: -1, currency: 'USD', country_code: 'US' })).rejects.toMatchObject({ status: 400, code: 'invalid_request' });
  });

  it('never show the secret key: not in the client, nor in an error', async () => {
    const { walletCheckout, secretKey } = await merchantClient();
    expect(inspect(walletCheckout, { depth: 10, showHidden: true })).not.toContain(secretKey);
    const error = await walletCheckout.sessions.retrieve('cs_AAAAAAAAAAAAAAAAAAAAAA').catch((caught: unknown) => caught);
    expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(secretKey);
    expect(() => new WalletCheckout('cs_x_secret_y', { baseUrl: server.url })).toThrow(/secret key \(sk_test_\.\.\. or sk_live_\.\.\.\)/);
    expect(() => new WalletCheckout(secretKey, { baseUrl: 'checkout.example.com' })).toThrow(/baseUrl/);
  });
});

/**
 * What the proxy does to each request it receives, in order (then it forwards): forward it and
 * lose the reply (`lost_reply`, answering 502 instead), cut the connection before forwarding
 * (`disconnect`), answer 429 with Retry-After: 0 or 503 without forwarding, or never answer (`hang`).
 */
type Fault = 'lost_reply' | 'disconnect' | '429' | '503' | 'hang';

interface FaultyProxy extends Listening {
  /** What it does to the next requests, in order; once empty, it forwards. */
  faults: Fault[];
  /** Every request that reached the proxy: method, path and idempotency key. */
  seen: { method: string; path: string; idempotencyKey: string | undefined }[];
}

/** A proxy in front of the test server that breaks requests as its `faults` say. */
async function faultyProxy(): Promise<FaultyProxy> {
  const seen: FaultyProxy['seen'] = [];
  const faults: Fault[] = [];
  const forward = async (req: IncomingMessage, body: Buffer) => {
    const headers = Object.fromEntries(['authorization', 'content-type', 'accept', 'idempotency-key'].flatMap((name) => (typeof req.headers[name] === 'string' ? [[name, req.headers[name]]] : [])));
    return fetch(`${server.url}${req.url}`, { method: req.method, headers, body: req.method === 'GET' || req.method === 'DELETE' ? undefined : body.toString('utf8') });
  };
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      seen.push({ method: req.method ?? '', path: req.url ?? '', idempotencyKey: req.headers['idempotency-key'] as string | undefined });
      const fault = faults.shift();
      const body = Buffer.concat(chunks);
      if (fault === 'hang') return;
      if (fault === 'disconnect') return req.socket.destroy();
      if (fault === '429' || fault === '503') {
        const code = fault === '429' ? 'rate_limited' : 'store_unavailable';
        return res.writeHead(Number(fault), { 'content-type': 'application/json', ...(fault === '429' && { 'retry-after': '0' }) }).end(JSON.stringify({ error: { code, message: code } }));
      }
      const reply = await forward(req, body);
      const text = await reply.text();
      if (fault === 'lost_reply') return res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>');
      res.writeHead(reply.status, { 'content-type': reply.headers.get('content-type') ?? 'application/json', 'request-id': reply.headers.get('request-id') ?? '' }).end(text);
    });
  };
  const listening = await listen(handler);
  closers.push(listening);
  return { ...listening, faults, seen };
}

describe('retries', () => {
  it('a refund whose reply was lost is sent again under the same key: exactly one refund', async () => {
    const proxy = await faultyProxy();
    const { walletCheckout } = await merchantClient(proxy.origin);
    const session = await walletCheckout.sessions.create({ amount: 2400, currency: 'USD', country_code: 'US' });
    await pay(session);
    proxy.seen.length = 0;

    // The first attempt reaches the API and refunds; its reply is lost on the way back (a 502 from the proxy).
    proxy.faults.push('lost_reply');
    const refund = await walletCheckout.refunds.create(session.id, { amount: 1000 });

    expect(proxy.seen.map(({ method, path }) => `${method} ${path}`)).toEqual([`POST /api/sessions/${session.id}/refunds`, `POST /api/sessions/${session.id}/refunds`]);
    expect(proxy.seen[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(proxy.seen[1]!.idempotencyKey).toBe(proxy.seen[0]!.idempotencyKey);
    const after = await walletCheckout.sessions.retrieve(session.id);
    expect(after.refunds.map(({ id }) => id)).toEqual([refund.id]);
    expect(after.amount_refunded).toBe(1000);
  });

  it('a session whose reply was lost, then rate limited, is created once, answered on the third attempt, under one key', async () => {
    const proxy = await faultyProxy();
    const { walletCheckout } = await merchantClient(proxy.origin);
    proxy.faults.push('lost_reply', '429');
    const session = await walletCheckout.sessions.create({ amount: 1200, currency: 'USD', country_code: 'US', reference: 'order-once' });
    expect(new Set(proxy.seen.map(({ idempotencyKey }) => idempotencyKey)).size).toBe(1);
    expect(proxy.seen).toHaveLength(3);
    expect((await walletCheckout.sessions.list({ reference: 'order-once' })).data.map(({ id }) => id)).toEqual([session.id]);
  });

  it("a cut connection and a reply that never comes are retried; the caller's key is the one sent", async () => {
    const proxy = await faultyProxy();
    const { walletCheckout } = await merchantClient(proxy.origin);
    proxy.faults.push('disconnect', 'hang');
    const session = await walletCheckout.sessions.create({ amount: 1200, currency: 'USD', country_code: 'US' }, { idempotencyKey: 'order-77', timeoutMs: 1000 });
    expect(proxy.seen.map(({ idempotencyKey }) => idempotencyKey)).toEqual(['order-77', 'order-77', 'order-77']);
    // The caller's key makes a later call of its own replay the same session.
    expect((await walletCheckout.sessions.create({ amount: 1200, currency: 'USD', country_code: 'US' }, { idempotencyKey: 'order-77' })).id).toBe(session.id);
  });

  it('gives up after the bounded number of attempts with the last error, typed', async () => {
    const proxy = await faultyProxy();
    const { walletCheckout } = await merchantClient(proxy.origin);
    // Three failures: a fourth attempt would be forwarded and succeed.
    proxy.faults.push('503', '503', '503');
    await expect(walletCheckout.sessions.list()).rejects.toMatchObject({ name: 'WalletCheckoutApiError', status: 503, code: 'store_unavailable' });
    expect(proxy.seen).toHaveLength(3);

    proxy.seen.length = 0;
    proxy.faults.push('disconnect');
    const cut = await walletCheckout.sessions.list({}, { maxRetries: 0 }).catch((error: unknown) => error);
    expect(cut).toBeInstanceOf(WalletCheckoutConnectionError);
    expect(cut).toMatchObject({ code: 'connection_error' });
    expect(proxy.seen).toHaveLength(1);
  });

  it("stops at once when the caller's signal aborts, without retrying", async () => {
    const proxy = await faultyProxy();
    const { walletCheckout } = await merchantClient(proxy.origin);
    proxy.faults.push('hang');
    const controller = new AbortController();
    const call = walletCheckout.sessions.list({}, { signal: controller.signal });
    await expect.poll(() => proxy.seen.length).toBe(1);
    controller.abort(new Error('the shopper left'));
    await expect(call).rejects.toThrow('the shopper left');
    expect(proxy.seen).toHaveLength(1);

    // And while it waits to retry (a minute's backoff here), with the same reason.
    const { secretKey } = await server.merchant();
    // Every attempt fails, so however short a random wait happens to be, the call is still waiting when aborted.
    const patient = new WalletCheckout(secretKey, { baseUrl: proxy.origin, retryBaseDelayMs: 60_000, maxRetries: 20 });
    proxy.faults.push(...Array.from({ length: 21 }, () => '503' as const));
    const waiting = new AbortController();
    const retried = patient.sessions.list({}, { signal: waiting.signal });
    await expect.poll(() => proxy.seen.length).toBeGreaterThanOrEqual(2);
    waiting.abort(new Error('the job was cancelled'));
    await expect(retried).rejects.toThrow('the job was cancelled');
    proxy.faults.length = 0;
  });
});

describe('webhooks.verify', () => {
  /** A real delivery, as the merchant's receiver got it, and the endpoint's secret. */
  let delivery: { body: string; header: string; secret: string; eventId: string; sessionId: string };

  beforeAll(async () => {
    const { walletCheckout } = await merchantClient();
    const merchantReceiver = await receiver();
    const endpoint = await walletCheckout.webhookEndpoints.create({ url: merchantReceiver.url });
    merchantReceiver.secrets = [endpoint.secret];
    const session = await walletCheckout.sessions.create({ amount: 900, currency: 'USD', country_code: 'US' });
    await pay(session);
    const [event] = await merchantReceiver.waitFor((events) => events.length > 0);
    const received = merchantReceiver.deliveries[0]!;
    delivery = { body: received.body, header: String(received.headers[SIGNATURE_HEADER.toLowerCase()]), secret: endpoint.secret, eventId: event!.id, sessionId: session.id };
  });

  const refusal = (verify: () => unknown) => {
    try {
      verify();
    } catch (error) {
      expect(error).toBeInstanceOf(WebhookVerificationError);
      return (error as WebhookVerificationError).code;
    }
    throw new Error('the delivery verified');
  };

  it('returns the typed event of a real delivery, from a string or the raw bytes', () => {
    const event = webhooks.verify(delivery.body, delivery.header, delivery.secret);
    expect(event).toMatchObject({ id: delivery.eventId, object: 'event', type: 'session.succeeded', data: { object: { id: delivery.sessionId, status: 'succeeded' } } });
    expect(webhooks.verify(Buffer.from(delivery.body), [delivery.header], delivery.secret)).toEqual(event);
  });

  it('refuses a tampered body, a wrong secret, an old timestamp and a malformed header, saying which', () => {
    const tampered = delivery.body.replace('"amount":900', '"amount":9');
    expect(tampered).not.toBe(delivery.body);
    expect(refusal(() => webhooks.verify(tampered, delivery.header, delivery.secret))).toBe('no_matching_signature');
    // Parsed and serialized again, the same JSON signs differently: verify the raw body.
    expect(refusal(() => webhooks.verify(JSON.stringify(JSON.parse(delivery.body), null, 1), delivery.header, delivery.secret))).toBe('no_matching_signature');
    expect(refusal(() => webhooks.verify(delivery.body, delivery.header, 'whsec_not_the_endpoints'))).toBe('no_matching_signature');
    const signedAt = Number(/t=(\d+)/.exec(delivery.header)![1]);
    expect(refusal(() => webhooks.verify(delivery.body, delivery.header, delivery.secret, { now: signedAt + 301 }))).toBe('stale_timestamp');
    expect(webhooks.verify(delivery.body, delivery.header, delivery.secret, { now: signedAt + 301, toleranceSeconds: 600 }).id).toBe(delivery.eventId);
    expect(refusal(() => webhooks.verify(delivery.body, undefined, delivery.secret))).toBe('malformed_header');
    expect(refusal(() => webhooks.verify(delivery.body, delivery.header.replace(/t=\d+/, 't=soon'), delivery.secret))).toBe('malformed_header');
  });

  it('accepts a delivery while the merchant holds either secret of a roll', () => {
    expect(webhooks.verify(delivery.body, delivery.header, ['whsec_the_new_one_not_deployed_yet', delivery.secret]).id).toBe(delivery.eventId);
  });
});
