/**
 * Refunds over real HTTP: full, partial and several, their sum capped by what
 * was taken, each once at the service whatever the retries and the faults,
 * pending while unknown and settled by reconciliation, each settled one
 * writing its event.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CreatedSession, Event, type Refund, type Session } from '../../contracts';
import type { FaultKind } from '../../sandbox';
import { startTestServer, type TestServer } from '../../testing/harness';
import { openEventBody } from '../store/events';

let server: TestServer;
let secretKey: string;

beforeAll(async () => {
  // Short service timeout so `timeout` faults are quick; reconciliation is driven by the tests.
  server = await startTestServer({ SERVICE_TIMEOUT_MS: '150', RECONCILE_INTERVAL_MS: '3600000' });
  ({ secretKey } = await server.merchant({ merchant_id: 'refunds' }));
});
afterAll(() => server.close());
beforeEach(() => server.sandbox!.setFaults({ rate: 0 }));

async function paidSession(amount = 2400, card = 'visa-success-3ds'): Promise<CreatedSession> {
  const session = await server.createSession(secretKey, { amount });
  const reply = await server.pay(session, { payment_data: await server.walletPaymentData(session, card) });
  expect(reply.status).toBe(200);
  return session;
}

const refund = (session: CreatedSession, body: unknown = {}, headers: Record<string, string> = {}) => server.merchantPost(secretKey, `/api/sessions/${session.id}/refunds`, body, headers);
const read = async (session: CreatedSession) => (await (await fetch(`${server.url}/api/sessions/${session.id}`, { headers: { authorization: `Bearer ${secretKey}` } })).json()) as Session;
const refundsAtService = async (session: CreatedSession) =>
  (await server.sandbox!.ledger()).filter((entry) => entry.operation === 'refund' && entry.idempotency_key?.startsWith(`${session.id}:refund:`));
const refundEvents = async (session: CreatedSession) =>
  (await server.store.selectFrom('events').select('body').orderBy('created').execute())
    .map((row) => Event.parse(JSON.parse(openEventBody(server.cipher, row.body))))
    .filter((event) => event.data.object.object === 'refund' && event.data.object.session_id === session.id);

describe('a refund', () => {
  it('gives back all of a paid session by default: shown on the session, once at the service, with its event', async () => {
    const session = await paidSession();
    const reply = await refund(session, { reason: 'requested_by_customer' });
    expect(reply.status).toBe(201);
    const created = (await reply.json()) as Refund;
    expect(created).toMatchObject({ object: 'refund', session_id: session.id, amount: 2400, currency: 'USD', reason: 'requested_by_customer', status: 'succeeded', failure_code: null });
    expect(created.id).toMatch(/^re_/);
    expect(await read(session)).toMatchObject({ status: 'succeeded', amount_refunded: 2400, refunds: [created] });
    const atService = await refundsAtService(session);
    expect(atService.map((entry) => entry.refund?.amount)).toEqual([2400]);
    const events = await refundEvents(session);
    expect(events.map((event) => event.type)).toEqual(['refund.succeeded']);
    expect(events[0]?.data.object).toEqual(created);
  });

  it('gives back part, several times, up to what was paid and not a unit more', async () => {
    const session = await paidSession();
    const amounts = [];
    for (const amount of [1000, 400]) {
      const reply = await refund(session, { amount });
      expect(reply.status).toBe(201);
      amounts.push(((await reply.json()) as Refund).amount);
    }
    const over = await refund(session, { amount: 1001 });
    expect(over.status).toBe(409);
    expect((await over.json()).error).toMatchObject({ code: 'amount_exceeds_refundable', message: expect.stringContaining('1000') });
    const rest = await refund(session);
    amounts.push(((await rest.json()) as Refund).amount);
    expect(amounts).toEqual([1000, 400, 1000]);
    const none = await refund(session, { amount: 1 });
    expect(none.status).toBe(409);
    expect((await none.json()).error.code).toBe('amount_exceeds_refundable');
    const view = await read(session);
    expect(view.amount_refunded).toBe(2400);
    expect(view.refunds.map((r) => [r.amount, r.status])).toEqual([
      [1000, 'succeeded'],
      [400, 'succeeded'],
      [1000, 'succeeded'],
    ]);
    expect((await refundsAtService(session)).map((entry) => entry.refund?.amount)).toEqual([1000, 400, 1000]);
  });

  it('of a captured hold gives back at most what was captured', async () => {
    const session = await server.createSession(secretKey, { amount: 5000, intent: 'hold' });
    await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-success-3ds') });
    const early = await refund(session);
    expect(early.status).toBe(409);
    expect((await early.json()).error).toMatchObject({ code: 'invalid_state', message: expect.stringContaining('release') });
    expect((await server.merchantPost(secretKey, `/api/sessions/${session.id}/capture`, { amount: 1250 })).status).toBe(200);
    expect((await refund(session, { amount: 1251 })).status).toBe(409);
    const full = (await (await refund(session)).json()) as Refund;
    expect(full).toMatchObject({ amount: 1250, status: 'succeeded' });
    expect(await read(session)).toMatchObject({ status: 'captured', amount_captured: 1250, amount_refunded: 1250 });
  });

  it('is refused for a session that took no money, and for a bad body, without a call to the service', async () => {
    const open = await server.createSession(secretKey);
    const declined = await server.createSession(secretKey);
    await server.pay(declined, { payment_data: await server.walletPaymentData(declined, 'visa-decline-3ds') });
    for (const session of [open, declined]) {
      const reply = await refund(session);
      expect(reply.status).toBe(409);
      expect((await reply.json()).error.code).toBe('invalid_state');
    }
    const paid = await paidSession();
    for (const body of [{ amount: 0 }, { amount: 10.5 }, { reason: 'because' }, { amount: 100, extra: 1 }]) {
      const reply = await refund(paid, body);
      expect(reply.status).toBe(400);
      expect((await reply.json()).error.code).toBe('invalid_request');
    }
    const other = await server.merchant({ merchant_id: 'other-refunds' });
    expect((await server.merchantPost(other.secretKey, `/api/sessions/${paid.id}/refunds`, {})).status).toBe(404);
    expect(await refundsAtService(paid)).toEqual([]);
    expect((await read(paid)).amount_refunded).toBe(0);
  });

  it('retried with the same Idempotency-Key is the same refund', async () => {
    const session = await paidSession();
    const key = { 'idempotency-key': `refund-${session.id}` };
    const first = (await (await refund(session, { amount: 500 }, key)).json()) as Refund;
    const replay = await refund(session, { amount: 500 }, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(((await replay.json()) as Refund).id).toBe(first.id);
    expect((await (await refund(session, { amount: 600 }, key)).json()).error.code).toBe('idempotency_key_reused');
    expect(await refundsAtService(session)).toHaveLength(1);
    expect((await read(session)).amount_refunded).toBe(500);
  });

  it('retried with the same Idempotency-Key after the first request died before answering is still the same refund', async () => {
    const session = await paidSession();
    const key = { 'idempotency-key': `refund-died-${session.id}` };
    const first = (await (await refund(session, { amount: 700 }, key)).json()) as Refund;
    // The process died after the refund and before the key's reply was stored: the key is free again
    // (an abandoned claim), so the retry runs the request a second time.
    await server.store.deleteFrom('idempotency_keys').where('key', '=', key['idempotency-key']).execute();
    const retry = await refund(session, { amount: 700 }, key);
    expect(retry.status).toBe(201);
    expect(((await retry.json()) as Refund).id).toBe(first.id);
    expect((await refundsAtService(session)).map((entry) => entry.refund?.amount)).toEqual([700]);
    expect(await read(session)).toMatchObject({ amount_refunded: 700, refunds: [first] });
  });

  it('that the service refuses is failed, gives its amount back and says so in an event', async () => {
    const session = await paidSession();
    const chargeId = (await read(session)).outcome?.charge_id;
    // Refunded at the service behind our back: the service now refuses ours.
    const direct = await fetch(`${server.url}/sandbox/service/api/v1/refunds`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.sandbox!.serviceSecretKey}`, 'merchant-account': 'refunds', 'content-type': 'application/json' },
      body: JSON.stringify({ charge: chargeId, amount: 2400 }),
    });
    expect(direct.status).toBe(201);
    const failed = (await (await refund(session, { amount: 100 })).json()) as Refund;
    expect(failed).toMatchObject({ status: 'failed', failure_code: 'amount_too_large' });
    expect(await read(session)).toMatchObject({ amount_refunded: 0, refunds: [failed] });
    expect((await refundEvents(session)).map((event) => [event.type, event.data.object])).toEqual([['refund.failed', failed]]);
  });
});

describe('a refund the service accepts and fails (the refund-fails card: its account closed since the payment)', () => {
  it("is failed with the service's code, gives its amount back, says so in a refund.failed event, and each next one fails too", async () => {
    const session = await paidSession(2400, 'visa-refund-fails-3ds');
    const reply = await refund(session, { amount: 1000 });
    expect(reply.status).toBe(201);
    const failed = (await reply.json()) as Refund;
    expect(failed).toMatchObject({ status: 'failed', amount: 1000, failure_code: 'expired_or_canceled_card', failure_message: expect.stringContaining('(expired_or_canceled_card)') });
    expect(await read(session)).toMatchObject({ status: 'succeeded', amount_refunded: 0, refunds: [failed] });
    expect((await refundEvents(session)).map((event) => [event.type, event.data.object])).toEqual([['refund.failed', failed]]);
    expect((await refundsAtService(session)).map((entry) => entry.refund?.status)).toEqual(['failed']);
    // The whole amount is still refundable, and fails the same way: the merchant pays the shopper back another way.
    expect(await (await refund(session)).json()).toMatchObject({ status: 'failed', amount: 2400, failure_code: 'expired_or_canceled_card' });
    expect((await read(session)).amount_refunded).toBe(0);
  });
});

describe('a refund when the service fails', () => {
  it.each<FaultKind>(['lost_reply', 'timeout', 'error', 'reset'])('%s: pending, its amount reserved, then reconciled to exactly one refund', async (kind) => {
    const session = await paidSession();
    // The hold outlasts every try of the client (3 x 150 ms plus backoff), so its outcome stays unknown.
    server.sandbox!.setFaults({ rate: 1, kinds: [kind], latencyMs: 0, timeoutMs: 1500 });
    const pending = (await (await refund(session, { amount: 700 })).json()) as Refund;
    server.sandbox!.setFaults({ rate: 0 });
    expect(pending.status).toBe('pending');
    expect(await read(session)).toMatchObject({ amount_refunded: 700, refunds: [{ id: pending.id, status: 'pending' }] });
    // The reservation holds while pending: no more than the rest can be asked.
    expect((await refund(session, { amount: 1701 })).status).toBe(409);
    await expect.poll(async () => (await refundsAtService(session)).length, { timeout: 5000 }).toBe(kind === 'lost_reply' || kind === 'timeout' ? 1 : 0);

    const report = await server.reconcile();
    expect(report.refunds).toMatchObject({ settled: 1, stillPending: 0 });
    expect(await read(session)).toMatchObject({ amount_refunded: 700, refunds: [{ id: pending.id, status: 'succeeded' }] });
    expect(await refundsAtService(session)).toHaveLength(1);
    expect((await refundEvents(session)).map((event) => event.type)).toEqual(['refund.succeeded']);
    expect((await server.reconcile()).refunds.examined).toBe(0);
  });

  it('under random faults, many at once: none lost, none doubled, the sum never above the payment', async () => {
    const session = await paidSession(2400);
    server.sandbox!.setFaults({ rate: 0.5, latencyMs: 20, timeoutMs: 400 });
    const replies = await Promise.all(Array.from({ length: 16 }, () => refund(session, { amount: 300 })));
    server.sandbox!.setFaults({ rate: 0 });
    const created = replies.filter((reply) => reply.status === 201).length;
    // 2400 / 300: eight reservations fit, whatever the service did with them.
    expect(created).toBe(8);
    expect(replies.filter((reply) => reply.status === 409)).toHaveLength(8);
    // A refund still held by a timeout fault answers idempotency_key_in_use: pending until it has committed.
    await expect.poll(async () => (await server.reconcile()).refunds.stillPending, { timeout: 5000 }).toBe(0);
    const view = await read(session);
    expect(view.refunds.every((r) => r.status === 'succeeded')).toBe(true);
    expect(view.amount_refunded).toBe(2400);
    const atService = await refundsAtService(session);
    expect(atService.map((entry) => entry.idempotency_key).sort()).toEqual(view.refunds.map((r) => `${session.id}:refund:${r.id}`).sort());
    expect(atService.reduce((sum, entry) => sum + (entry.refund?.amount ?? 0), 0)).toBe(2400);
    expect(await refundEvents(session)).toHaveLength(8);
  });
});
