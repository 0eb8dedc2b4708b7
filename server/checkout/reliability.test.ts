/**
 * Every failure of the payment service ends in exactly one known outcome:
 * an unknown one is recorded as pending, shown as such, and settled by
 * reconciliation (replaying the attempt with its own key), never by a guess.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CreatedSession } from '../../contracts';
import type { FaultKind } from '../../sandbox';
import { startTestServer, type TestServer } from '../../testing/harness';

let server: TestServer;
let secretKey: string;

beforeAll(async () => {
  // Short service timeout so `timeout` faults are quick; reconciliation is driven by the tests.
  server = await startTestServer({ SERVICE_TIMEOUT_MS: '150', RECONCILE_INTERVAL_MS: '3600000' });
  ({ secretKey } = await server.merchant({ merchant_id: 'reliable' }));
});
afterAll(() => server.close());
beforeEach(() => server.sandbox!.setFaults({ rate: 0 }));

const ledgerFor = async (session: CreatedSession) => (await server.sandbox!.ledger()).filter((entry) => entry.idempotency_key?.startsWith(`${session.id}:`));
const merchantView = async (session: CreatedSession) =>
  (await fetch(`${server.url}/api/sessions/${session.id}`, { headers: { authorization: `Bearer ${secretKey}` } })).json();

async function payWhileFailing(kind: FaultKind) {
  const session = await server.createSession(secretKey);
  const paymentData = await server.walletPaymentData(session, 'visa-success-3ds');
  // The hold outlasts every try of the client (3 x 150 ms plus backoff), so its outcome stays unknown.
  server.sandbox!.setFaults({ rate: 1, kinds: [kind], latencyMs: 0, timeoutMs: 1500 });
  const reply = await server.pay(session, { payment_data: paymentData });
  server.sandbox!.setFaults({ rate: 0 });
  return { session, reply: await reply.json() };
}

describe('when the service fails and the outcome is unknown', () => {
  it.each<[FaultKind, number]>([
    // Charged, but every reply lost: the charge exists.
    ['lost_reply', 1],
    // Held past our timeout, then charged: the charge exists.
    ['timeout', 1],
    // Refused or dropped before processing: no charge yet.
    ['error', 0],
    ['reset', 0],
  ])('%s: the attempt is pending, then reconciled to exactly one charge', async (kind, chargesBeforeReconciling) => {
    const { session, reply } = await payWhileFailing(kind);
    expect(reply.outcome).toMatchObject({ status: 'pending', charge_id: null });
    expect(reply.session.status).toBe('pending');
    expect(await merchantView(session)).toMatchObject({ status: 'pending', outcome: { status: 'pending' } });

    // A held request commits once the timeout fault's delay is over.
    await expect.poll(async () => (await ledgerFor(session)).length, { timeout: 5000 }).toBe(chargesBeforeReconciling);

    // While pending, the shopper cannot start another attempt.
    const again = await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-success-pan') });
    expect(again.status).toBe(409);

    await server.reconcile();
    const ledger = await ledgerFor(session);
    expect(ledger).toHaveLength(1);
    expect(await merchantView(session)).toMatchObject({ status: 'succeeded', attempts: 1, outcome: { status: 'succeeded', charge_id: ledger[0]?.charge.id } });
    const attempt = await server.store.selectFrom('charge_attempts').selectAll().where('session_id', '=', session.id).executeTakeFirstOrThrow();
    expect(attempt.request_sealed).toBeNull();
  });

  it('keeps an attempt pending while the service still fails, and settles it once it answers', async () => {
    const { session } = await payWhileFailing('error');
    server.sandbox!.setFaults({ rate: 1, kinds: ['error'] });
    expect(await server.reconcile()).toMatchObject({ stillPending: 1 });
    expect((await merchantView(session)).status).toBe('pending');
    server.sandbox!.setFaults({ rate: 0 });
    expect(await server.reconcile()).toMatchObject({ settled: 1 });
    expect(await ledgerFor(session)).toHaveLength(1);
  });

  it('keeps the request it will replay sealed, never in clear', async () => {
    const { session } = await payWhileFailing('reset');
    const attempt = await server.store.selectFrom('charge_attempts').selectAll().where('session_id', '=', session.id).executeTakeFirstOrThrow();
    expect(attempt.status).toBe('pending');
    expect(attempt.request_sealed).toMatch(/^v1\./);
    expect(attempt.request_sealed).not.toContain('signedMessage');
    expect(attempt.request_sealed).not.toContain('walletpay');
    await server.reconcile();
  });
});

describe("the late issuer's test card (no fault injected: the sandbox answers its first requests 503)", () => {
  it('leaves the payment pending, shown as such to the shopper and the merchant, until a reconciliation pass settles it succeeded, once', async () => {
    const session = await server.createSession(secretKey);
    const reply = await (await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-pending-3ds') })).json();
    expect(reply.outcome).toMatchObject({ status: 'pending', charge_id: null });
    expect((await server.publicSession(session)).status).toBe('pending');
    expect(await merchantView(session)).toMatchObject({ status: 'pending', outcome: { status: 'pending' } });
    expect(await ledgerFor(session)).toHaveLength(0);

    expect(await server.reconcile()).toMatchObject({ settled: 1 });
    const ledger = await ledgerFor(session);
    expect(ledger).toHaveLength(1);
    expect(await merchantView(session)).toMatchObject({ status: 'succeeded', attempts: 1, outcome: { status: 'succeeded', charge_id: ledger[0]?.charge.id, card: { last4: '0408' } } });
    expect((await server.publicSession(session)).status).toBe('succeeded');
    // Settled: a later pass has nothing to replay.
    expect(await server.reconcile()).toMatchObject({ examined: 0 });
  });
});

describe('when the service is only slow', () => {
  it('a retry within the same call succeeds without a second charge', async () => {
    const session = await server.createSession(secretKey);
    const paymentData = await server.walletPaymentData(session, 'visa-success-3ds');
    server.sandbox!.setFaults({ rate: 1, kinds: ['latency'], latencyMs: 50 });
    const { outcome } = await (await server.pay(session, { payment_data: paymentData })).json();
    expect(outcome.status).toBe('succeeded');
    expect(await ledgerFor(session)).toHaveLength(1);
  });
});
