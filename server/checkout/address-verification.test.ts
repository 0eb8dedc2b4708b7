/**
 * The card issuer's address verification over real HTTP:
 * the payment service answers it with the charge, and the merchant reads it
 * beside the billing address check, on the session, the list and the events,
 * never on what the client secret reads. Unlike the check against the address
 * on file, which compares an address the shopper's browser supplied, it
 * compares that address with the cardholder's at the issuer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressVerification, CreatedSession, EventList, EventType, PayReply, Session, SessionList } from '../../contracts';
import { TYPICAL_ADDRESS_ON_FILE } from '../../sandbox/billing-addresses';
import { startTestServer, type TestServer } from '../../testing/harness';

let server: TestServer;
let secretKey: string;

beforeAll(async () => {
  server = await startTestServer({ SERVICE_TIMEOUT_MS: '150', RECONCILE_INTERVAL_MS: '3600000' });
  ({ secretKey } = await server.merchant({ merchant_id: 'avs' }));
});
afterAll(() => server.close());

const merchantGet = async <T>(path: string): Promise<T> => (await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${secretKey}` } })).json() as Promise<T>;
const viewOf = (session: CreatedSession) => merchantGet<Session>(`/api/sessions/${session.id}`);
const withOnFile = (body: Record<string, unknown> = {}) => server.createSession(secretKey, { billing_address_on_file: TYPICAL_ADDRESS_ON_FILE, ...body });

async function paidWith(session: CreatedSession, cardId: string, billingAddressId = 'matching'): Promise<PayReply> {
  const reply = await server.pay(session, { payment_data: await server.walletPaymentData(session, cardId, billingAddressId) });
  expect(reply.status).toBe(200);
  return (await reply.json()) as PayReply;
}

async function eventObject(type: EventType, session: CreatedSession) {
  const events = await merchantGet<EventList>(`/api/events?type=${type}&limit=100`);
  const object = events.data.find((event) => event.data.object.id === session.id)?.data.object;
  if (object?.object !== 'checkout_session') throw new Error(`no ${type} event for ${session.id}`);
  return object;
}

const avs = (line1: AddressVerification['line1'], postal_code: AddressVerification['postal_code']): AddressVerification => ({ line1, postal_code });

describe("the issuer's address verification, carried to the merchant", () => {
  it.each([
    ['visa-avs-match-3ds', avs('match', 'match')],
    ['visa-avs-mismatch-3ds', avs('mismatch', 'mismatch')],
    ['visa-avs-line1-mismatch-3ds', avs('mismatch', 'match')],
    ['visa-avs-postal-code-mismatch-3ds', avs('match', 'mismatch')],
    ['visa-avs-unavailable-3ds', avs('unavailable', 'unavailable')],
  ])('%s: on the session, the list and the session.succeeded event, beside the on-file check', async (cardId, expected) => {
    const session = await withOnFile();
    const paid = await paidWith(session, cardId);
    expect(paid.outcome.status).toBe('succeeded');
    const view = await viewOf(session);
    expect(view.address_verification).toEqual(expected);
    // The wallet's address is the one on file whatever the card: that check cannot tell these cards apart.
    expect(view.billing_address_check).toMatchObject({ verdict: 'match' });
    const listed = await merchantGet<SessionList>('/api/sessions?limit=100');
    expect(listed.data.find((item) => item.id === session.id)?.address_verification).toEqual(expected);
    expect((await eventObject('session.succeeded', session)).address_verification).toEqual(expected);
  });

  it('is null before a payment', async () => {
    const session = await withOnFile();
    expect(session.address_verification).toBeNull();
    expect((await viewOf(session)).address_verification).toBeNull();
  });

  it("tells what the on-file check cannot: an address rewritten in the shopper's browser to the one on file is a match there, a mismatch at the issuer", async () => {
    const session = await withOnFile();
    // A card whose holder lives elsewhere, paid from a browser that replaces the wallet's address with the merchant's own.
    const paymentData = await server.walletPaymentData(session, 'visa-avs-mismatch-3ds', 'mismatching');
    paymentData.paymentMethodData.info.billingAddress = {
      name: 'Sandbox Shopper',
      address1: TYPICAL_ADDRESS_ON_FILE.address.line1,
      locality: 'San Francisco',
      administrativeArea: 'CA',
      postalCode: TYPICAL_ADDRESS_ON_FILE.address.postal_code,
      countryCode: 'US',
    };
    expect((await server.pay(session, { payment_data: paymentData })).status).toBe(200);
    const view = await viewOf(session);
    expect(view.billing_address_check).toMatchObject({ verdict: 'match' });
    expect(view.address_verification).toEqual(avs('mismatch', 'mismatch'));
  });

  it('follows the address the wallet gave: another address than the cardholder\'s mismatches on any card', async () => {
    const session = await withOnFile();
    await paidWith(session, 'visa-success-3ds', 'mismatching');
    expect(await viewOf(session)).toMatchObject({ billing_address_check: { verdict: 'mismatch' }, address_verification: avs('mismatch', 'mismatch') });
  });

  it('on a hold: in the session.authorized event the merchant decides on, and kept through the capture', async () => {
    const session = await withOnFile({ intent: 'hold' });
    expect((await paidWith(session, 'visa-avs-postal-code-mismatch-3ds')).outcome.status).toBe('authorized');
    expect((await eventObject('session.authorized', session)).address_verification).toEqual(avs('match', 'mismatch'));
    expect((await server.merchantPost(secretKey, `/api/sessions/${session.id}/capture`)).status).toBe(200);
    expect((await eventObject('session.captured', session)).address_verification).toEqual(avs('match', 'mismatch'));
  });

  it('on a decline too, in the session.payment_failed event; the next attempt replaces it with its own', async () => {
    const session = await withOnFile();
    await paidWith(session, 'visa-decline-3ds', 'mismatching');
    expect((await eventObject('session.payment_failed', session)).address_verification).toEqual(avs('mismatch', 'mismatch'));
    await paidWith(session, 'visa-avs-unavailable-3ds');
    expect(await viewOf(session)).toMatchObject({ status: 'succeeded', address_verification: avs('unavailable', 'unavailable') });
  });

  it('after 3-D Secure: the charge that paid (on the payment method) carries it', async () => {
    const session = await withOnFile();
    const paid = await paidWith(session, 'visa-3ds-frictionless-pan', 'mismatching');
    expect(paid.outcome.status).toBe('succeeded');
    expect((await viewOf(session)).address_verification).toEqual(avs('mismatch', 'mismatch'));
    expect((await eventObject('session.succeeded', session)).address_verification).toEqual(avs('mismatch', 'mismatch'));
  });

  it('an outcome first unknown: null while pending, then the replayed charge\'s once reconciled', async () => {
    const session = await withOnFile();
    const paymentData = await server.walletPaymentData(session, 'visa-avs-line1-mismatch-3ds');
    await server.sandbox!.setFaults({ rate: 1, kinds: ['lost_reply'] });
    try {
      expect(((await (await server.pay(session, { payment_data: paymentData })).json()) as PayReply).outcome.status).toBe('pending');
    } finally {
      await server.sandbox!.setFaults({ rate: 0 });
    }
    expect((await viewOf(session)).address_verification).toBeNull();
    await server.reconcile();
    expect(await viewOf(session)).toMatchObject({ status: 'succeeded', address_verification: avs('mismatch', 'match') });
  });

  it('never reaches what the client secret reads: the reply to /pay, the public view', async () => {
    const session = await withOnFile();
    const paid = await paidWith(session, 'visa-avs-mismatch-3ds');
    const publicView = await server.publicSession(session);
    for (const text of [JSON.stringify(paid), JSON.stringify(publicView)]) {
      expect(text).not.toContain('address_verification');
      expect(text).not.toContain('mismatch');
    }
  });
});
