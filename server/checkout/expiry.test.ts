/**
 * Session expiry: expires_at at creation, the 410 an expired session answers
 * the widget with, and the sweep that expires every session past due, once,
 * never one with an attempt in flight. Time is not waited for: a session's
 * expires_at is moved into the past in the store, as the clock would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CreatedSession, Event, type PayReply, SESSION_LIFETIME } from '../../contracts';
import { startTestServer, type TestServer } from '../../testing/harness';
import { expirePastDueSessions } from './expiry';
import { moveSession } from './states';
import { openEventBody } from '../store/events';

let server: TestServer;
let secretKey: string;

beforeAll(async () => {
  // The sweep runs when a test says so, not on a timer.
  server = await startTestServer({ RECONCILE_INTERVAL_MS: '3600000' });
  ({ secretKey } = await server.merchant({ merchant_id: 'expiry' }));
});
afterAll(() => server.close());

const MINUTE = 60_000;

const create = (body: Record<string, unknown>) =>
  fetch(`${server.url}/api/sessions`, { method: 'POST', headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ amount: 2400, currency: 'USD', country_code: 'US', ...body }) });

const merchantView = async (session: CreatedSession) => (await fetch(`${server.url}/api/sessions/${session.id}`, { headers: { authorization: `Bearer ${secretKey}` } })).json();

const publicReply = (session: CreatedSession) => fetch(`${server.url}/api/sessions/${session.id}/public`, { headers: { authorization: `Bearer ${session.client_secret}` } });

/** As the clock would make it: the session's time is up. */
const makePastDue = (session: CreatedSession) => server.store.updateTable('sessions').set({ expires_at: Date.now() - 1 }).where('id', '=', session.id).execute();

const statusOf = async (session: CreatedSession) => (await server.store.selectFrom('sessions').select('status').where('id', '=', session.id).executeTakeFirstOrThrow()).status;

const expiredEvents = async (session: CreatedSession) =>
  (await server.store.selectFrom('events').select('body').where('type', '=', 'session.expired').execute())
    .map((row) => Event.parse(JSON.parse(openEventBody(server.cipher, row.body))))
    .filter((event) => event.data.object.id === session.id);

const refusal = async (reply: Response) => ({ status: reply.status, body: await reply.json() });
const EXPIRED_REFUSAL = { status: 410, body: { error: { code: 'session_expired', message: expect.stringMatching(/expired.*start again/) } } };

describe('expires_at at creation', () => {
  it('is 24 hours after creation by default, and shown to the merchant, in the listing and to the widget', async () => {
    const session = await server.createSession(secretKey);
    expect(session.expires_at).toBe(session.created + SESSION_LIFETIME.defaultMs);
    expect(await merchantView(session)).toMatchObject({ expires_at: session.expires_at });
    const listed = await (await fetch(`${server.url}/api/sessions?limit=1`, { headers: { authorization: `Bearer ${secretKey}` } })).json();
    expect(listed.data[0]).toMatchObject({ id: session.id, expires_at: session.expires_at });
    expect((await server.publicSession(session)).expires_at).toBe(session.expires_at);
  });

  it('takes any time from 30 minutes to 7 days from now', async () => {
    for (const lifetime of [31 * MINUTE, 7 * 24 * 60 * MINUTE - MINUTE]) {
      const expiresAt = Date.now() + lifetime;
      const reply = await create({ expires_at: expiresAt });
      expect(reply.status).toBe(201);
      expect((await reply.json()).expires_at).toBe(expiresAt);
    }
  });

  it.each([
    ['in the past', () => Date.now() - MINUTE],
    ['under 30 minutes away', () => Date.now() + 29 * MINUTE],
    ['over 7 days away', () => Date.now() + 7 * 24 * 60 * MINUTE + MINUTE],
    ['not a whole number of ms', () => Date.now() + 60 * MINUTE + 0.5],
    ['in seconds, not ms', () => Math.floor(Date.now() / 1000) + 3600],
  ])('refuses a time %s, naming expires_at', async (_name, expiresAt) => {
    const reply = await create({ expires_at: expiresAt() });
    expect(reply.status).toBe(400);
    expect((await reply.json()).error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^expires_at: /) });
  });
});

describe('a session past its expires_at', () => {
  it('refuses payment with 410 session_expired, is expired by that request, and tells the merchant once', async () => {
    const session = await server.createSession(secretKey);
    const paymentData = await server.walletPaymentData(session, 'visa-success-3ds');
    await makePastDue(session);

    expect(await refusal(await server.pay(session, { payment_data: paymentData }))).toEqual(EXPIRED_REFUSAL);
    expect(await merchantView(session)).toMatchObject({ status: 'expired', outcome: null });
    // Asked again (the widget, the merchant, the sweep): the same answer, and still one event.
    expect(await refusal(await server.pay(session, { payment_data: paymentData }))).toEqual(EXPIRED_REFUSAL);
    expect(await refusal(await publicReply(session))).toEqual(EXPIRED_REFUSAL);
    expect(await expirePastDueSessions(server)).toBe(0);
    const events = await expiredEvents(session);
    expect(events).toHaveLength(1);
    expect(events[0]?.data.object).toEqual(await merchantView(session));
    expect((await server.sandbox!.ledger()).filter((entry) => entry.idempotency_key?.startsWith(`${session.id}:`))).toEqual([]);
  });

  it("answers the widget's public view with 410 session_expired", async () => {
    const session = await server.createSession(secretKey);
    await makePastDue(session);
    expect(await refusal(await publicReply(session))).toEqual(EXPIRED_REFUSAL);
    expect(await statusOf(session)).toBe('expired');
  });

  it('shows the merchant its read as expired at once, before any sweep', async () => {
    const session = await server.createSession(secretKey);
    await makePastDue(session);
    expect(await merchantView(session)).toMatchObject({ status: 'expired' });
    expect(await expiredEvents(session)).toHaveLength(1);
  });

  it('refuses to finish a 3-D Secure challenge: the shopper starts again from the store', async () => {
    const session = await server.createSession(secretKey);
    const reply = await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-3ds-required-pan') });
    expect(((await reply.json()) as PayReply).outcome.status).toBe('requires_authentication');
    await makePastDue(session);
    expect(await refusal(await server.authenticate(session))).toEqual(EXPIRED_REFUSAL);
    expect(await statusOf(session)).toBe('expired');
  });

  it('stays paid: a session paid before its time is never expired', async () => {
    const session = await server.createSession(secretKey);
    await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-success-3ds') });
    await makePastDue(session);
    await expirePastDueSessions(server);
    expect(await merchantView(session)).toMatchObject({ status: 'succeeded' });
    expect((await server.publicSession(session)).status).toBe('succeeded');
  });
});

describe('the sweep', () => {
  it('expires every unpaid session past due exactly once, however many sweeps run at once', async () => {
    const open = await server.createSession(secretKey);
    const declined = await server.createSession(secretKey);
    await server.pay(declined, { payment_data: await server.walletPaymentData(declined, 'visa-decline-3ds') });
    const notDue = await server.createSession(secretKey);
    for (const session of [open, declined]) await makePastDue(session);

    const counts = await Promise.all([expirePastDueSessions(server), expirePastDueSessions(server), server.reconcile().then((report) => report.expired)]);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(2);
    expect(await expirePastDueSessions(server)).toBe(0);

    for (const session of [open, declined]) {
      expect(await statusOf(session)).toBe('expired');
      expect((await expiredEvents(session)).map((event) => event.data.object.status)).toEqual(['expired']);
    }
    expect(await statusOf(notDue)).toBe('open');
    expect(await expiredEvents(notDue)).toEqual([]);
  });

  it('leaves a session with an attempt in flight until it settles, then expires it if unpaid', async () => {
    const session = await server.createSession(secretKey);
    // An attempt under way, its outcome not known yet: the card may be charged.
    for (const step of ['processing', 'pending'] as const) {
      await server.store.transaction().execute((trx) => moveSession(trx, server.cipher, session.id, step === 'processing' ? ['open'] : ['processing'], step));
      await makePastDue(session);
      expect(await expirePastDueSessions(server)).toBe(0);
      expect(await merchantView(session)).toMatchObject({ status: step });
    }
    // It settles unpaid (declined): now it expires.
    await server.store.transaction().execute((trx) => moveSession(trx, server.cipher, session.id, ['pending'], 'declined'));
    expect(await expirePastDueSessions(server)).toBe(1);
    expect(await statusOf(session)).toBe('expired');
    expect(await expiredEvents(session)).toHaveLength(1);
  });
});
