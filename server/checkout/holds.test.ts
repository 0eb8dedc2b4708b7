/**
 * Holds over real HTTP: a session with intent `hold` is authorized by the
 * shopper's payment, then captured (all or part) or released by the merchant,
 * each once, whatever the retries; the sandbox ledger shows each operation once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CreatedSession, HOLD_LIFETIME_MS, type PayReply, type Session } from '../../contracts';
import { startTestServer, type TestServer } from '../../testing/harness';
import { createServiceClient } from '../service-client';
import { releaseLapsedHolds } from './holds';
import { openEventBody } from '../store/events';

let server: TestServer;
let secretKey: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ secretKey } = await server.merchant({ merchant_id: 'holds' }));
});
afterAll(() => server.close());

/** A hold the shopper paid: the session is authorized. */
async function authorizedHold(amount = 5000, card = 'visa-success-3ds'): Promise<CreatedSession> {
  const session = await server.createSession(secretKey, { amount, intent: 'hold' });
  const reply = await server.pay(session, { payment_data: await server.walletPaymentData(session, card) });
  const { outcome } = (await reply.json()) as PayReply;
  expect(outcome.status).toBe('authorized');
  return session;
}

const capture = (session: CreatedSession, body: unknown = {}, headers: Record<string, string> = {}) => server.merchantPost(secretKey, `/api/sessions/${session.id}/capture`, body, headers);
const release = (session: CreatedSession, headers: Record<string, string> = {}) => server.merchantPost(secretKey, `/api/sessions/${session.id}/release`, {}, headers);
const ledgerFor = async (session: CreatedSession) => (await server.sandbox!.ledger()).filter((entry) => entry.idempotency_key?.startsWith(`${session.id}:`));

describe('a hold', () => {
  it('is placed instead of a charge: authorized, nothing captured, held at the service', async () => {
    const session = await authorizedHold();
    const read = (await (await fetch(`${server.url}/api/sessions/${session.id}`, { headers: { authorization: `Bearer ${secretKey}` } })).json()) as Session;
    expect(read).toMatchObject({ status: 'authorized', intent: 'hold', amount_captured: null, outcome: { status: 'authorized' } });
    const [entry] = await ledgerFor(session);
    expect(entry).toMatchObject({ operation: 'charge', charge: { status: 'held', amount: 5000, amount_captured: 0 } });
  });

  it('is captured in full, after which a release (or another capture) is refused', async () => {
    const session = await authorizedHold();
    const captured = await capture(session);
    expect(captured.status).toBe(200);
    expect(await captured.json()).toMatchObject({ status: 'captured', amount_captured: 5000 });
    for (const again of [await release(session), await capture(session)]) {
      expect(again.status).toBe(409);
      expect((await again.json()).error.code).toBe('invalid_state');
    }
    const entries = await ledgerFor(session);
    expect(entries.map((entry) => [entry.operation, entry.charge.status, entry.charge.amount_captured])).toEqual([
      ['charge', 'held', 0],
      ['capture', 'succeeded', 5000],
    ]);
  });

  it("whose capture the card's issuer refuses: 402 capture_declined naming its code, kept against the key, the session still authorized, then released", async () => {
    const session = await authorizedHold(5000, 'visa-capture-declined-3ds');
    const key = { 'idempotency-key': `capture-${session.id}` };
    const refused = await capture(session, {}, key);
    expect(refused.status).toBe(402);
    const body = await refused.json();
    expect(body.error).toMatchObject({ code: 'capture_declined', message: expect.stringContaining('(card_declined)') });
    // The same refusal to a retry under its key, and to a new request: the issuer refuses again, nothing is captured.
    const retried = await capture(session, {}, key);
    expect([retried.status, retried.headers.get('idempotent-replayed')]).toEqual([402, 'true']);
    expect((await capture(session)).status).toBe(402);
    const read = (await (await fetch(`${server.url}/api/sessions/${session.id}`, { headers: { authorization: `Bearer ${secretKey}` } })).json()) as Session;
    expect(read).toMatchObject({ status: 'authorized', amount_captured: null });
    expect(await (await release(session)).json()).toMatchObject({ status: 'released' });
    expect((await ledgerFor(session)).map((entry) => [entry.operation, entry.charge.status])).toEqual([
      ['charge', 'held'],
      ['release', 'released'],
    ]);
  });

  it('is captured in part: the rest is released', async () => {
    const session = await authorizedHold();
    const captured = await capture(session, { amount: 1250 });
    expect(await captured.json()).toMatchObject({ status: 'captured', amount: 5000, amount_captured: 1250 });
    expect((await ledgerFor(session)).at(-1)?.charge).toMatchObject({ status: 'succeeded', amount: 5000, amount_captured: 1250 });
  });

  it('refuses to capture more than it holds, or a bad amount, and stays authorized', async () => {
    const session = await authorizedHold();
    for (const body of [{ amount: 5001 }, { amount: 0 }, { amount: 10.5 }, { amount: 100, extra: 1 }]) {
      const reply = await capture(session, body);
      expect(reply.status).toBe(400);
      expect((await reply.json()).error.code).toBe('invalid_request');
    }
    expect(await ledgerFor(session)).toHaveLength(1);
    expect((await capture(session)).status).toBe(200);
  });

  it('is released, after which a capture is refused', async () => {
    const session = await authorizedHold();
    const released = await release(session);
    expect(released.status).toBe(200);
    expect(await released.json()).toMatchObject({ status: 'released', amount_captured: null });
    const refused = await capture(session);
    expect(refused.status).toBe(409);
    expect((await refused.json()).error).toMatchObject({ code: 'invalid_state', message: expect.stringContaining('released') });
    expect((await ledgerFor(session)).map((entry) => [entry.operation, entry.charge.status])).toEqual([
      ['charge', 'held'],
      ['release', 'released'],
    ]);
  });

  it('replays a capture retried with the same Idempotency-Key: one capture at the service', async () => {
    const session = await authorizedHold();
    const key = { 'idempotency-key': `order-${session.id}-capture` };
    const [first, second] = await Promise.all([capture(session, { amount: 4000 }, key), capture(session, { amount: 4000 }, key)]);
    const replies = [first, second].filter((reply) => reply.status === 200);
    // Two at once: one runs, the other is told so (409 idempotency_key_in_use) or replays it.
    expect(replies.length).toBeGreaterThanOrEqual(1);
    const replay = await capture(session, { amount: 4000 }, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toMatchObject({ status: 'captured', amount_captured: 4000 });
    const reused = await capture(session, { amount: 3000 }, key);
    expect((await reused.json()).error.code).toBe('idempotency_key_reused');
    expect((await ledgerFor(session)).filter((entry) => entry.operation === 'capture')).toHaveLength(1);
  });

  it('is captured once by a burst of 20 concurrent captures: one 200, the rest 409 invalid_state, one capture at the service', async () => {
    const session = await authorizedHold();
    const replies = await Promise.all(Array.from({ length: 20 }, () => capture(session)));
    const answers = await Promise.all(replies.map(async (reply) => [reply.status, reply.status === 200 ? 'captured' : ((await reply.json()) as { error: { code: string } }).error.code]));
    expect(answers.filter(([status]) => status === 200)).toHaveLength(1);
    expect(answers.filter(([status]) => status !== 200)).toEqual(Array.from({ length: 19 }, () => [409, 'invalid_state']));
    expect((await ledgerFor(session)).filter((entry) => entry.operation === 'capture')).toHaveLength(1);
    // A retry afterwards is refused the same way, the hold captured.
    const again = await capture(session);
    expect([again.status, ((await again.json()) as { error: { code: string } }).error.code]).toEqual([409, 'invalid_state']);
  });

  it('is captured or released, not both, by a capture and a release at once', async () => {
    const session = await authorizedHold();
    const replies = await Promise.all([capture(session), release(session), capture(session), release(session)]);
    expect(replies.filter((reply) => reply.status === 200)).toHaveLength(1);
    expect(replies.filter((reply) => reply.status === 409)).toHaveLength(3);
    expect((await ledgerFor(session)).filter((entry) => entry.operation !== 'charge')).toHaveLength(1);
  });

  it('cannot be captured or released by another application, nor before the shopper paid', async () => {
    const session = await server.createSession(secretKey, { intent: 'hold' });
    const early = await capture(session);
    expect(early.status).toBe(409);
    expect((await early.json()).error.code).toBe('invalid_state');
    const other = await server.merchant({ merchant_id: 'other-holds' });
    expect((await server.merchantPost(other.secretKey, `/api/sessions/${session.id}/release`)).status).toBe(404);
    expect((await server.merchantPost('sk_test_nope', `/api/sessions/${session.id}/release`)).status).toBe(401);
  });

  it('is not what a charge session is: capturing a paid charge is refused', async () => {
    const session = await server.createSession(secretKey);
    await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-success-3ds') });
    const reply = await capture(session);
    expect(reply.status).toBe(409);
    expect((await reply.json()).error.message).toContain('not a hold');
  });
});

describe('a hold left uncaptured', () => {
  it('is released once it lapses at the service, 7 days after it was placed: one release, one session.released', async () => {
    const lapsed = await authorizedHold();
    const recent = await authorizedHold();
    // As the clock would make it: authorized a week ago (and a second ago).
    await server.store.updateTable('sessions').set({ updated: Date.now() - HOLD_LIFETIME_MS - 1000 }).where('id', '=', lapsed.id).execute();

    // This instance's pass and two more releasers, as other instances would run them, at once.
    const anotherInstance = { store: server.store, cipher: server.cipher, service: createServiceClient({ baseUrl: `${server.url}/sandbox/service`, secretKey: server.sandbox!.serviceSecretKey, timeoutMs: 5000 }) };
    await Promise.all([server.reconcile(), releaseLapsedHolds(anotherInstance), releaseLapsedHolds(anotherInstance)]);
    await server.reconcile();

    const read = async (session: CreatedSession) => (await (await fetch(`${server.url}/api/sessions/${session.id}`, { headers: { authorization: `Bearer ${secretKey}` } })).json()) as Session;
    expect(await read(lapsed)).toMatchObject({ status: 'released', amount_captured: null });
    expect((await ledgerFor(lapsed)).map((entry) => entry.operation)).toEqual(['charge', 'release']);
    // Its events are sealed (the session carries the wallet's billing address): opened as the API opens them.
    const events = (await server.store.selectFrom('events').select(['type', 'body']).orderBy('created').execute()).filter((event) => openEventBody(server.cipher, event.body).includes(`"id":"${lapsed.id}"`));
    expect(events.map((event) => event.type)).toEqual(['session.authorized', 'session.released']);
    expect(await read(recent)).toMatchObject({ status: 'authorized' });
    expect((await capture(lapsed)).status).toBe(409);
  });
});
