/**
 * The billing address check over real HTTP: the address on file at
 * creation, the wallet's address and its check on the merchant's view, its
 * list and its events, never on what the client secret reads; sealed in the
 * store; erased after the retention period (the clock moved, never waited for).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CreatedSession, EventList, PayReply, Session, SessionList } from '../../contracts';
import { TYPICAL_ADDRESS_ON_FILE } from '../../sandbox/billing-addresses';
import { findWhole } from '../../testing/find-text';
import { startTestServer, type TestServer } from '../../testing/harness';

let server: TestServer;
let secretKey: string;

const RETENTION_DAYS = 30;
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  // Reconciliation (and with it erasure) runs when a test says so.
  server = await startTestServer({ RECONCILE_INTERVAL_MS: '3600000', PERSONAL_DATA_RETENTION_DAYS: String(RETENTION_DAYS) });
  ({ secretKey } = await server.merchant({ merchant_id: 'billing' }));
});
afterAll(() => server.close());

const merchantGet = async <T>(path: string): Promise<T> => (await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${secretKey}` } })).json() as Promise<T>;
const post = (body: unknown) =>
  fetch(`${server.url}/api/sessions`, { method: 'POST', headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
const withOnFile = () => server.createSession(secretKey, { billing_address_on_file: TYPICAL_ADDRESS_ON_FILE });

async function paidWith(session: CreatedSession, billingAddressId: string, cardId = 'visa-success-3ds'): Promise<PayReply> {
  const reply = await server.pay(session, { payment_data: await server.walletPaymentData(session, cardId, billingAddressId) });
  expect(reply.status).toBe(200);
  return (await reply.json()) as PayReply;
}

/** Every text the store holds for a session: its row and its events, as they are at rest. */
async function storedTextOf(sessionId: string): Promise<string> {
  const row = await server.store.selectFrom('sessions').selectAll().where('id', '=', sessionId).executeTakeFirstOrThrow();
  const events = await server.store.selectFrom('events').select('body').execute();
  return JSON.stringify(row) + events.map((event) => event.body).join('\n');
}

describe('the address on file', () => {
  it('is taken at creation and shown to the secret key', async () => {
    const session = await withOnFile();
    expect(session.billing_address_on_file).toEqual(TYPICAL_ADDRESS_ON_FILE);
    expect(await merchantGet<Session>(`/api/sessions/${session.id}`)).toMatchObject({ billing_address_on_file: TYPICAL_ADDRESS_ON_FILE, billing_address: null, billing_address_check: null });
  });

  it('is optional: without one, nothing is on file', async () => {
    expect((await server.createSession(secretKey)).billing_address_on_file).toBeNull();
  });

  const address = (fields: Record<string, unknown>) => ({ amount: 100, currency: 'USD', country_code: 'US', billing_address_on_file: { address: { country: 'US', ...fields } } });
  it.each([
    [address({ country: 'ZZ' }), 'billing_address_on_file.address.country'],
    [address({ country: 'USA' }), 'billing_address_on_file.address.country'],
    [address({ line1: 'x'.repeat(301) }), 'billing_address_on_file.address.line1'],
    [address({ postal_code: '1'.repeat(21) }), 'billing_address_on_file.address.postal_code'],
    [address({ street: 'Main' }), 'street'],
    [{ amount: 100, currency: 'USD', country_code: 'US', billing_address_on_file: { name: 'No address' } }, 'billing_address_on_file.address'],
  ])('refuses %j naming the field', async (body, field) => {
    const reply = await post(body);
    expect(reply.status).toBe(400);
    expect((await reply.json()).error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining(field) });
  });

  it('refuses a NUL in any of its fields', async () => {
    const reply = await post(address({ line1: '1 Sandbox Way\u0000' }));
    expect(reply.status).toBe(400);
    expect((await reply.json()).error.message).toContain('billing_address_on_file.address.line1');
  });
});

describe("the wallet's billing address and its check", () => {
  it('a matching address: match, the address as the wallet returned it, on the view, the list and the event', async () => {
    const session = await withOnFile();
    await paidWith(session, 'matching');
    const view = await merchantGet<Session>(`/api/sessions/${session.id}`);
    expect(view.billing_address_check).toEqual({ postal_code: 'match', line1: 'match', country: 'match', verdict: 'match' });
    expect(view.billing_address).toEqual({
      name: 'Sandbox Shopper',
      address: { line1: '1 Sandbox Way', line2: 'Suite 200', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' },
    });
    const listed = await merchantGet<SessionList>('/api/sessions?limit=100');
    expect(listed.data.find((item) => item.id === session.id)).toEqual(view);
    const events = await merchantGet<EventList>('/api/events?type=session.succeeded&limit=100');
    expect(events.data.find((event) => event.data.object.id === session.id)?.data.object).toMatchObject({ billing_address: view.billing_address, billing_address_check: view.billing_address_check });
  });

  it('a mismatching address: mismatch, whatever the payment did (declined here)', async () => {
    const session = await withOnFile();
    await paidWith(session, 'mismatching', 'visa-decline-3ds');
    expect(await merchantGet<Session>(`/api/sessions/${session.id}`)).toMatchObject({
      status: 'declined',
      billing_address: { address: { line1: '500 Elsewhere Avenue', postal_code: '97201' } },
      billing_address_check: { postal_code: 'mismatch', line1: 'mismatch', country: 'match', verdict: 'mismatch' },
    });
  });

  it('never blocks the payment: a mismatching address on a hold is authorized, for the merchant to capture or release', async () => {
    const session = await server.createSession(secretKey, { intent: 'hold', billing_address_on_file: TYPICAL_ADDRESS_ON_FILE });
    const paid = await paidWith(session, 'mismatching');
    expect(paid.outcome.status).toBe('authorized');
    expect(await merchantGet<Session>(`/api/sessions/${session.id}`)).toMatchObject({ status: 'authorized', billing_address_check: { verdict: 'mismatch' } });
    expect((await server.merchantPost(secretKey, `/api/sessions/${session.id}/release`)).status).toBe(200);
  });

  it('an address without a postal code: partial_match', async () => {
    const session = await withOnFile();
    await paidWith(session, 'no-postal-code');
    expect((await merchantGet<Session>(`/api/sessions/${session.id}`)).billing_address_check).toEqual({ postal_code: 'unavailable', line1: 'match', country: 'match', verdict: 'partial_match' });
  });

  it('nothing on file: every field unavailable, the address still shown', async () => {
    const session = await server.createSession(secretKey);
    await paidWith(session, 'matching');
    const view = await merchantGet<Session>(`/api/sessions/${session.id}`);
    expect(view.billing_address_check).toEqual({ postal_code: 'unavailable', line1: 'unavailable', country: 'unavailable', verdict: 'unavailable' });
    expect(view.billing_address).toMatchObject({ address: { line1: '1 Sandbox Way' } });
  });

  it('shows no phone the request did not ask for, even when a wallet sends one', async () => {
    const session = await withOnFile();
    const paymentData = await server.walletPaymentData(session, 'visa-success-3ds');
    const billingAddress = paymentData.paymentMethodData.info.billingAddress;
    if (!billingAddress) throw new Error('the sandbox wallet gave no billing address');
    billingAddress.phoneNumber = '+1 415-555-0100';
    expect((await server.pay(session, { payment_data: paymentData })).status).toBe(200);
    expect((await merchantGet<Session>(`/api/sessions/${session.id}`)).billing_address).not.toHaveProperty('phone');
  });

  it('never reaches what the client secret reads: the public view, the reply to /pay', async () => {
    const session = await withOnFile();
    const paid = await paidWith(session, 'mismatching');
    const publicView = await server.publicSession(session);
    for (const text of [JSON.stringify(paid), JSON.stringify(publicView), JSON.stringify(session.public_view)]) {
      expect(text).not.toContain('billing_address');
      expect(text).not.toContain('Elsewhere');
      expect(text).not.toContain('SANDBOX WAY');
    }
  });

  it('is sealed at rest: neither address is in the store in clear, in the session or its events', async () => {
    const session = await withOnFile();
    await paidWith(session, 'mismatching');
    const stored = await storedTextOf(session.id);
    expect(findWhole(stored, ['Elsewhere', '97201', 'SANDBOX WAY', '94105-1234'])).toEqual([]);
  });
});

describe('retention', () => {
  it(`erases both addresses from the session and its events ${RETENTION_DAYS} days on; the check stays`, async () => {
    const session = await withOnFile();
    await paidWith(session, 'mismatching');
    const before = await merchantGet<Session>(`/api/sessions/${session.id}`);
    expect((await server.reconcile()).personalDataErased).toEqual({ sessions: 0, events: 0, idempotencyKeys: 0 });

    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + RETENTION_DAYS * DAY + 1000);
      const erasedAt = Date.now();
      const report = await server.reconcile();
      expect(report.personalDataErased.sessions).toBeGreaterThanOrEqual(1);
      const erased = { erased: true, erased_at: erasedAt };
      const after = await merchantGet<Session>(`/api/sessions/${session.id}`);
      expect(after).toMatchObject({ billing_address_on_file: erased, billing_address: erased, billing_address_check: before.billing_address_check });
      const events = await merchantGet<EventList>('/api/events?type=session.succeeded&limit=100');
      expect(events.data.find((event) => event.data.object.id === session.id)?.data.object).toMatchObject({ billing_address_on_file: erased, billing_address: erased, billing_address_check: before.billing_address_check });
      // Erased means gone: not even sealed.
      const row = await server.store.selectFrom('sessions').select(['billing_address_on_file_sealed', 'billing_address_sealed']).where('id', '=', session.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ billing_address_on_file_sealed: 'erased', billing_address_sealed: 'erased' });
      expect((await server.reconcile()).personalDataErased).toEqual({ sessions: 0, events: 0, idempotencyKeys: 0 });
    } finally {
      vi.useRealTimers();
    }
  });

  it("forgets the Idempotency-Key reply that kept the address on file: a retry after the period is a new session", async () => {
    const body = JSON.stringify({ amount: 2400, currency: 'USD', country_code: 'US', billing_address_on_file: TYPICAL_ADDRESS_ON_FILE });
    const create = () => fetch(`${server.url}/api/sessions`, { method: 'POST', headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json', 'idempotency-key': 'order-77' }, body });
    const first = (await (await create()).json()) as CreatedSession;
    expect(((await (await create()).json()) as CreatedSession).id).toBe(first.id);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + RETENTION_DAYS * DAY + 1000);
      expect((await server.reconcile()).personalDataErased.idempotencyKeys).toBeGreaterThanOrEqual(1);
      expect(await server.store.selectFrom('idempotency_keys').select('key').where('key', '=', 'order-77').execute()).toEqual([]);
      expect(((await (await create()).json()) as CreatedSession).id).not.toBe(first.id);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps them until then', async () => {
    const session = await withOnFile();
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + RETENTION_DAYS * DAY - 60_000);
      await server.reconcile();
    } finally {
      vi.useRealTimers();
    }
    expect((await merchantGet<Session>(`/api/sessions/${session.id}`)).billing_address_on_file).toEqual(TYPICAL_ADDRESS_ON_FILE);
  });
});
