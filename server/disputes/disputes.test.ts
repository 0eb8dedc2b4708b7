/**
 * Disputes over real HTTP (docs/disputes.md): a dispute the sandbox's bank opens (the dispute test card, or on demand)
 * reaches the merchant through reconciliation as a signed `dispute.created`, the API lists and reads it for its own
 * application only, its evidence is taken once, before the due date, idempotently, with the payment's address checks
 * attached (and shipping proof for an express checkout only), and the issuer's decision closes it (`dispute.closed`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CreatedSession, type DashboardDisputeList, type DashboardDisputePage, type DashboardSignedIn, type Dispute, type DisputeList, Event, type Session, type SessionList } from '../../contracts';
import { CSRF_HEADER } from '../dashboard/session';
import { startTestServer, type TestServer } from '../../testing/harness';
import { FAST_WEBHOOKS, startWebhookReceiver, type WebhookReceiver } from '../../testing/webhook-receiver';
import { disputedSessions, disputeSummary, isSessionDisputed } from '../store/disputes';
import { openEventBody } from '../store/events';

let server: TestServer;
let secretKey: string;
let appId: string;
let receiver: WebhookReceiver;
const MERCHANT = 'disputes';
const DISPUTE_CARD = 'visa-dispute-fraudulent-3ds';

beforeAll(async () => {
  // Reconciliation, which reads the service's disputes, is driven by the tests.
  server = await startTestServer({ ...FAST_WEBHOOKS, RECONCILE_INTERVAL_MS: '3600000' });
  ({ secretKey, appId } = await server.merchant({ merchant_id: MERCHANT }));
  receiver = await startWebhookReceiver();
  const endpoint = await server.merchantPost(secretKey, '/api/webhook_endpoints', { url: receiver.url, events: ['dispute.created', 'dispute.updated', 'dispute.closed'] });
  receiver.secrets = [((await endpoint.json()) as { secret: string }).secret];
});
afterAll(async () => {
  await receiver.close();
  await server.close();
});

const get = (path: string, key = secretKey) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
const errorOf = async (response: Response) => [response.status, ((await response.json()) as { error: { code: string } }).error.code];
const submit = (id: string, body: unknown, headers: Record<string, string> = {}) => server.merchantPost(secretKey, `/api/disputes/${id}/evidence`, body, headers);

async function paid(card = 'visa-success-3ds', body: Record<string, unknown> = {}, shippingAddressId?: string): Promise<CreatedSession> {
  const session = await server.createSession(secretKey, body);
  const reply = await server.pay(session, { payment_data: await server.walletPaymentData(session, card, undefined, shippingAddressId) });
  expect(reply.status).toBe(200);
  return session;
}

/** The dispute of `session` once reconciliation read the service's feed. */
async function disputeOf(session: CreatedSession): Promise<Dispute> {
  await server.reconcile();
  const list = (await (await get('/api/disputes?limit=100')).json()) as DisputeList;
  const dispute = list.data.find((one) => one.session_id === session.id);
  expect(dispute, 'the dispute reached the merchant').toBeDefined();
  return dispute!;
}

/** A paid session disputed on demand through the sandbox's test helper, as its cardholder's bank would. */
async function disputedOnDemand(session: CreatedSession, request: Record<string, unknown> = {}): Promise<Dispute> {
  const attempt = await server.store.selectFrom('charge_attempts').select('charge_id').where('session_id', '=', session.id).executeTakeFirstOrThrow();
  const opened = await fetch(`${server.url}/sandbox/service/test_helpers/disputes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.sandbox!.serviceSecretKey}`, 'merchant-account': MERCHANT, 'content-type': 'application/json' },
    body: JSON.stringify({ charge: attempt.charge_id, ...request }),
  });
  expect(opened.status).toBe(201);
  return disputeOf(session);
}

const eventsOf = async (dispute: Dispute) =>
  (await server.store.selectFrom('events').select('body').where('app_id', '=', appId).orderBy('created').execute())
    .map((row) => Event.parse(JSON.parse(openEventBody(server.cipher, row.body))))
    .filter((event) => event.data.object.object === 'dispute' && event.data.object.id === dispute.id);

describe('a dispute', () => {
  it("reaches the merchant from the dispute card's charge: listed, read, its event delivered signed; the session is disputed", async () => {
    const session = await paid(DISPUTE_CARD);
    expect(await isSessionDisputed(server.store, session.id)).toBe(false);
    const dispute = await disputeOf(session);
    expect(dispute).toMatchObject({ object: 'dispute', session_id: session.id, amount: 2400, currency: 'USD', reason: 'fraudulent', status: 'needs_response', evidence: null, evidence_submitted: null });
    expect(dispute.id).toMatch(/^dp_/);
    // Due a week after the bank opened it, which reached the checkout within the second.
    expect(Math.abs(dispute.evidence_due_by - dispute.created - 7 * 24 * 3600 * 1000)).toBeLessThan(2000);
    expect(await (await get(`/api/disputes/${dispute.id}`)).json()).toEqual(dispute);
    expect(await isSessionDisputed(server.store, session.id)).toBe(true);
    // A second pass reads nothing new: one dispute, one event.
    await server.reconcile();
    expect((await eventsOf(dispute)).map((event) => event.type)).toEqual(['dispute.created']);
    const delivered = await receiver.waitFor((events) => events.some((event) => event.type === 'dispute.created' && event.data.object.id === dispute.id));
    expect(delivered.find((event) => event.data.object.id === dispute.id)?.data.object).toEqual(dispute);
  });

  it("is another application's secret: unknown to it, and to a caller without a key", async () => {
    const dispute = await disputedOnDemand(await paid());
    const other = await server.merchant({ merchant_id: 'someone_else' });
    expect(await errorOf(await get(`/api/disputes/${dispute.id}`, other.secretKey))).toEqual([404, 'not_found']);
    expect(((await (await get('/api/disputes', other.secretKey)).json()) as DisputeList).data).toEqual([]);
    expect((await fetch(`${server.url}/api/disputes`)).status).toBe(401);
    expect(await errorOf(await get('/api/disputes/dp_nope'))).toEqual([404, 'not_found']);
  });

  it('lists newest first a page at a time, and by status', async () => {
    const first = await disputedOnDemand(await paid(), { reason: 'duplicate' });
    const second = await disputedOnDemand(await paid(), { reason: 'product_unacceptable', amount: 1000 });
    const page = (await (await get('/api/disputes?limit=1')).json()) as DisputeList;
    expect(page).toMatchObject({ has_more: true, data: [{ id: second.id, amount: 1000, reason: 'product_unacceptable' }] });
    const next = (await (await get(`/api/disputes?limit=1&starting_after=${second.id}`)).json()) as DisputeList;
    expect(next.data.map((one) => one.id)).toEqual([first.id]);
    const open = (await (await get('/api/disputes?status=needs_response&limit=100')).json()) as DisputeList;
    expect(open.data.every((one) => one.status === 'needs_response')).toBe(true);
    for (const query of ['status=open', 'limit=0', 'starting_after=dp_unknownunknownunknown1', 'colour=red']) {
      expect(await errorOf(await get(`/api/disputes?${query}`)), query).toEqual([400, 'invalid_request']);
    }
  });

  it("makes its payment `disputed` in the merchant API while it is open, found by that status alone, and the payment it was once won", async () => {
    const session = await paid();
    const refunded = await server.merchantPost(secretKey, `/api/sessions/${session.id}/refunds`, { amount: 400 });
    expect(refunded.status).toBe(201);
    const paymentStatus = async () => ((await (await get(`/api/sessions/${session.id}`)).json()) as Session).payment_status;
    const listed = async (status: string) => ((await (await get(`/api/sessions?payment_status=${status}&limit=100`)).json()) as SessionList).data;
    expect(await paymentStatus()).toBe('partially_refunded');

    const dispute = await disputedOnDemand(session);
    // A dispute outweighs the refund: it is what the merchant must answer.
    expect(await paymentStatus()).toBe('disputed');
    expect((await listed('disputed')).find((one) => one.id === session.id)?.payment_status).toBe('disputed');
    expect((await listed('disputed')).every((one) => one.payment_status === 'disputed')).toBe(true);
    expect((await listed('partially_refunded')).map((one) => one.id)).not.toContain(session.id);

    expect((await submit(dispute.id, { explanation: 'winning_evidence' })).status).toBe(200);
    await server.reconcile();
    expect(await paymentStatus()).toBe('partially_refunded');
    expect((await listed('disputed')).map((one) => one.id)).not.toContain(session.id);
  });

  it("takes evidence once, with the payment's address checks, replayed under its key, and is won when the issuer decides", async () => {
    const session = await paid(DISPUTE_CARD);
    const dispute = await disputeOf(session);
    for (const body of [{}, { explanation: ' ' }, { explanation: 'x', colour: 'red' }, { explanation: 'x', shipping: { carrier: 'UPS' } }]) {
      expect(await errorOf(await submit(dispute.id, body)), JSON.stringify(body)).toEqual([400, 'invalid_request']);
    }
    // This payment shipped nothing: no shipping proof.
    expect(await errorOf(await submit(dispute.id, { explanation: 'x', shipping: { carrier: 'UPS', tracking_number: '1Z999' } }))).toEqual([400, 'invalid_request']);
    const key = { 'idempotency-key': `evidence-${dispute.id}` };
    const reply = await submit(dispute.id, { explanation: 'The shopper received the goods. winning_evidence' }, key);
    expect(reply.status).toBe(200);
    const reviewed = (await reply.json()) as Dispute;
    expect(reviewed).toMatchObject({ id: dispute.id, status: 'under_review', evidence: { explanation: 'The shopper received the goods. winning_evidence', address_verification: { line1: 'match', postal_code: 'match' }, shipping: null } });
    expect(reviewed.evidence_submitted).toBeGreaterThan(0);
    const replay = await submit(dispute.id, { explanation: 'The shopper received the goods. winning_evidence' }, key);
    expect([replay.status, replay.headers.get('idempotent-replayed'), await replay.json()]).toEqual([200, 'true', reviewed]);
    expect(await errorOf(await submit(dispute.id, { explanation: 'Another account.' }))).toEqual([409, 'evidence_already_submitted']);

    await server.reconcile();
    const won = (await (await get(`/api/disputes/${dispute.id}`)).json()) as Dispute;
    expect(won).toMatchObject({ status: 'won', evidence: reviewed.evidence });
    expect((await eventsOf(dispute)).map((event) => event.type)).toEqual(['dispute.created', 'dispute.updated', 'dispute.closed']);
    expect(await isSessionDisputed(server.store, session.id)).toBe(false);
    const delivered = await receiver.waitFor((events) => events.some((event) => event.type === 'dispute.closed' && event.data.object.id === dispute.id));
    expect(delivered.filter((event) => event.data.object.id === dispute.id).map((event) => event.type).sort()).toEqual(['dispute.closed', 'dispute.created', 'dispute.updated']);
  });

  it('is lost on losing evidence, and the session stays disputed', async () => {
    const session = await paid();
    const dispute = await disputedOnDemand(session);
    expect((await submit(dispute.id, { explanation: 'losing_evidence' })).status).toBe(200);
    await server.reconcile();
    expect(((await (await get(`/api/disputes/${dispute.id}`)).json()) as Dispute).status).toBe('lost');
    expect(await disputedSessions(server.store, [session.id, 'cs_other'])).toEqual(new Set([session.id]));
  });

  it('takes the shipping proof of an express checkout the shopper gave a shipping address in', async () => {
    const express = { line_items: [{ label: 'Shoes', kind: 'item', amount: 2400 }], shipping: { countries: ['US'] } };
    const dispute = await disputedOnDemand(await paid('visa-success-3ds', express, 'us-home'), { reason: 'product_not_received' });
    const reply = await submit(dispute.id, { explanation: 'Delivered.', shipping: { carrier: 'UPS', tracking_number: '1Z999AA10123456784' } });
    expect(reply.status).toBe(200);
    expect(((await reply.json()) as Dispute).evidence?.shipping).toEqual({ carrier: 'UPS', tracking_number: '1Z999AA10123456784' });
  });

  it("is lost when the session's test clock moves past its due date, its evidence refused", async () => {
    const session = await paid();
    const dispute = await disputedOnDemand(session);
    const moved = await server.merchantPost(secretKey, '/api/test_helpers/advance_clock', { seconds: 8 * 24 * 3600, session: session.id });
    expect(moved.status).toBe(200);
    expect(await errorOf(await submit(dispute.id, { explanation: 'winning_evidence' }))).toEqual([409, 'evidence_past_due']);
    await server.reconcile();
    expect(((await (await get(`/api/disputes/${dispute.id}`)).json()) as Dispute).status).toBe('lost');
    expect((await eventsOf(dispute)).map((event) => event.type)).toEqual(['dispute.created', 'dispute.closed']);
  });

  it('refuses evidence from its due date on', async () => {
    const dispute = await disputedOnDemand(await paid());
    await server.store.updateTable('disputes').set({ evidence_due_by: Date.now() - 1 }).where('id', '=', dispute.id).execute();
    expect(await errorOf(await submit(dispute.id, { explanation: 'Too late.' }))).toEqual([409, 'evidence_past_due']);
  });

  it("sums the period's disputed amounts per currency, won ones aside, and counts each status", async () => {
    const summary = await disputeSummary(server.store, appId, { from: 0, to: Date.now() + 60_000 });
    const list = (await (await get('/api/disputes?limit=100')).json()) as DisputeList;
    const disputing = list.data.filter((one) => one.status !== 'won');
    expect(summary.amounts).toEqual([{ currency: 'USD', amount: disputing.reduce((sum, one) => sum + one.amount, 0), count: disputing.length }]);
    for (const status of ['needs_response', 'under_review', 'won', 'lost'] as const) expect(summary.statuses[status], status).toBe(list.data.filter((one) => one.status === status).length);
    expect(summary.statuses.won).toBeGreaterThan(0);
    expect(await disputeSummary(server.store, appId, { from: Date.now() + 60_000, to: Date.now() + 120_000 })).toEqual({ amounts: [], statuses: { needs_response: 0, under_review: 0, won: 0, lost: 0 } });
  });

  it("is the dashboard's too: listed and read behind the session, its evidence refused without the CSRF token, submitted once with it", async () => {
    const session = await paid(DISPUTE_CARD);
    const dispute = await disputeOf(session);
    const signIn = await fetch(`${server.url}/dashboard/api/session`, { method: 'POST', headers: { origin: server.url, 'content-type': 'application/json' }, body: JSON.stringify({ secret_key: secretKey }) });
    const cookie = `wc_dashboard=${/wc_dashboard=([^;]*)/.exec(signIn.headers.get('set-cookie') ?? '')?.[1] ?? ''}`;
    const { csrf_token: csrf } = (await signIn.json()) as DashboardSignedIn;
    const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/dashboard/api${path}`, { method, headers: { cookie, origin: server.url, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });

    expect((await fetch(`${server.url}/dashboard/api/disputes`)).status).toBe(401);
    const list = (await (await call('GET', '/disputes?limit=100')).json()) as DashboardDisputeList;
    expect(list.data.find((one) => one.id === dispute.id)).toEqual({ ...dispute, currency_exponent: 2 });
    const page = (await (await call('GET', `/disputes/${dispute.id}`)).json()) as DashboardDisputePage;
    expect(page).toMatchObject({ dispute: { id: dispute.id }, ships_goods: false, attached: { address_verification: { line1: 'match', postal_code: 'match' } } });

    const evidence = { explanation: 'Delivered to the cardholder.' };
    expect(await errorOf(await call('POST', `/disputes/${dispute.id}/evidence`, evidence, { 'idempotency-key': 'k1' }))).toEqual([403, 'csrf_refused']);
    const submitted = await call('POST', `/disputes/${dispute.id}/evidence`, evidence, { [CSRF_HEADER]: csrf, 'idempotency-key': 'k1' });
    expect(submitted.status).toBe(200);
    expect(((await submitted.json()) as DashboardDisputePage).dispute).toMatchObject({ status: 'under_review', evidence: { explanation: 'Delivered to the cardholder.' } });
    expect(await errorOf(await call('POST', `/disputes/${dispute.id}/evidence`, evidence, { [CSRF_HEADER]: csrf, 'idempotency-key': 'k2' }))).toEqual([409, 'evidence_already_submitted']);
  });
});
