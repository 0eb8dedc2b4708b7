/**
 * Express checkout's first slice over real HTTP: a session's line items, shipping address and contact
 * details, refused when they do not hold together, asked of the sandbox wallet's sheet, what the wallet
 * gave on the merchant's view and its events (never what the client secret reads, never the charge),
 * sealed at rest, a shipping address outside the session's countries refused before any charge, and
 * all of it erased after the retention period (the clock moved, never waited for).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CreatedSession, EventList, LineItem, PayReply, Session } from '../../contracts';
import { walletShippingAddresses } from '../../sandbox/shipping-addresses';
import { findWhole } from '../../testing/find-text';
import { startTestServer, type TestServer } from '../../testing/harness';

let server: TestServer;
let secretKey: string;

const RETENTION_DAYS = 30;
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  // Reconciliation (and with it erasure) runs when a test says so.
  server = await startTestServer({ RECONCILE_INTERVAL_MS: '3600000', PERSONAL_DATA_RETENTION_DAYS: String(RETENTION_DAYS) });
  ({ secretKey } = await server.merchant({ merchant_id: 'express' }));
});
afterAll(() => server.close());

const LINE_ITEMS: LineItem[] = [
  { label: 'Coffee beans', kind: 'item', amount: 1800 },
  { label: 'Sales tax', kind: 'tax', amount: 150 },
  { label: 'First order', kind: 'discount', amount: -300 },
  { label: 'Standard shipping', kind: 'shipping', amount: 750 },
];
const EXPRESS = { amount: 2400, currency: 'USD', country_code: 'US', line_items: LINE_ITEMS, shipping: { countries: ['us', 'GB'], phone: true }, contact: { email: true } };
const GB_OFFICE = walletShippingAddresses.find((choice) => choice.id === 'gb-office')!.address;
const SANDBOX_EMAIL = 'shopper@sandbox.example';

const post = (body: unknown) => fetch(`${server.url}/api/sessions`, { method: 'POST', headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
const merchantGet = async <T>(path: string): Promise<T> => (await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${secretKey}` } })).json() as Promise<T>;
const ledgerFor = async (sessionId: string) => (await server.sandbox!.ledger()).filter((entry) => entry.idempotency_key?.startsWith(`${sessionId}:`));
const eventOf = async (sessionId: string, type = 'session.succeeded') => (await merchantGet<EventList>(`/api/events?type=${type}&limit=100`)).data.find((event) => event.data.object.id === sessionId)?.data.object;

async function paidWith(session: CreatedSession, shippingAddressId = 'gb-office'): Promise<PayReply> {
  const reply = await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-success-3ds', undefined, shippingAddressId) });
  expect(reply.status).toBe(200);
  return (await reply.json()) as PayReply;
}

describe('creating a session with line items, shipping and contact details', () => {
  it('keeps them, countries upper case, and shows them on the merchant\'s view; nothing given yet', async () => {
    const session = await server.createSession(secretKey, EXPRESS);
    const expected = { line_items: LINE_ITEMS, shipping: { countries: ['US', 'GB'], phone: true }, contact: { email: true, phone: false }, shipping_address: null, email: null };
    expect(session).toMatchObject(expected);
    expect(await merchantGet<Session>(`/api/sessions/${session.id}`)).toMatchObject(expected);
  });

  it('without them: no line items, nothing asked', async () => {
    expect(await server.createSession(secretKey)).toMatchObject({ line_items: [], shipping: null, contact: null, shipping_address: null, email: null });
  });

  const items = (...amounts: number[]) => amounts.map((amount, index) => ({ label: `Item ${index}`, kind: 'item', amount }));
  it.each([
    ['items that do not add up to the amount, naming both sums', { amount: 2400, line_items: items(1000, 1000) }, 'the line items sum to 2000 but amount is 2400'],
    ['a country that is not one', { shipping: { countries: ['ZZ'] } }, 'shipping.countries.0'],
    ['an alpha-3 country', { shipping: { countries: ['USA'] } }, 'shipping.countries.0'],
    ['no country at all', { shipping: { countries: [] } }, 'shipping.countries'],
    ['more than 50 items', { amount: 51, line_items: items(...Array<number>(51).fill(1)) }, 'line_items'],
    ['a label longer than 100 characters', { amount: 100, line_items: [{ label: 'x'.repeat(101), kind: 'item', amount: 100 }] }, 'line_items.0.label'],
    ['a blank label', { amount: 100, line_items: [{ label: '  ', kind: 'item', amount: 100 }] }, 'line_items.0.label'],
    ['a NUL in a label', { amount: 100, line_items: [{ label: 'Coffee\u0000', kind: 'item', amount: 100 }] }, 'line_items.0.label'],
    ['an unpaired surrogate in a label', { amount: 100, line_items: [{ label: 'Coffee \uD800', kind: 'item', amount: 100 }] }, 'line_items.0.label'],
    ['a positive discount', { amount: 100, line_items: [{ label: 'Coffee', kind: 'item', amount: 50 }, { label: 'Offer', kind: 'discount', amount: 50 }] }, 'line_items.1.amount'],
    ['a negative item', { amount: 100, line_items: [{ label: 'Coffee', kind: 'item', amount: 150 }, { label: 'Refund', kind: 'item', amount: -50 }] }, 'line_items.1.amount'],
    ['a kind Google has no type for', { amount: 100, line_items: [{ label: 'Fee', kind: 'fee', amount: 100 }] }, 'line_items.0.kind'],
    ['a field a line does not have', { amount: 100, line_items: [{ label: 'Coffee', kind: 'item', amount: 100, sku: 'C-1' }] }, 'sku'],
    ['a price Google Pay cannot show (KWD 1.234)', { amount: 1240, currency: 'KWD', line_items: items(1234, 6) }, 'line_items.0.amount'],
    ['a contact detail that is not a yes or no', { contact: { email: 'yes' } }, 'contact.email'],
  ])('refuses %s with a clear invalid_request', async (_name, fields, named) => {
    const reply = await post({ amount: 2400, currency: 'USD', country_code: 'US', ...fields });
    expect(reply.status).toBe(400);
    expect((await reply.json()).error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining(named) });
  });

  it('takes items that add up in a three-decimal currency when each is a price Google can show', async () => {
    const session = await server.createSession(secretKey, { amount: 1240, currency: 'KWD', country_code: 'KW', line_items: items(1230, 10) });
    expect((await server.publicSession(session)).payment_data_request.transactionInfo?.displayItems?.map((item) => item.price)).toEqual(['1.23', '0.01']);
  });
});

describe('the request the widget hands the wallet', () => {
  it('asks the sheet for what the session asks: items, a shipping address in its countries with its phone, the e-mail', async () => {
    const request = (await server.publicSession(await server.createSession(secretKey, EXPRESS))).payment_data_request;
    expect(request.transactionInfo).toMatchObject({
      totalPrice: '24.00',
      totalPriceStatus: 'FINAL',
      displayItems: [
        { label: 'Coffee beans', type: 'LINE_ITEM', price: '18.00' },
        { label: 'Sales tax', type: 'TAX', price: '1.50' },
        { label: 'First order', type: 'DISCOUNT', price: '-3.00' },
        { label: 'Standard shipping', type: 'SHIPPING_OPTION', price: '7.50' },
      ],
    });
    expect(request).toMatchObject({ emailRequired: true, shippingAddressRequired: true, shippingAddressParameters: { allowedCountryCodes: ['US', 'GB'], phoneNumberRequired: true } });
    // Only onPaymentAuthorized: nothing in the sheet can change the price.
    expect(request.callbackIntents).toEqual(['PAYMENT_AUTHORIZATION']);
  });

  it("asks for the billing address's phone only when contact.phone", async () => {
    const phoneOf = async (body: Record<string, unknown>) => (await server.publicSession(await server.createSession(secretKey, body))).payment_data_request.allowedPaymentMethods[0]?.parameters.billingAddressParameters;
    expect(await phoneOf({ contact: { phone: true } })).toEqual({ format: 'FULL', phoneNumberRequired: true });
    expect(await phoneOf({ contact: { email: true } })).toEqual({ format: 'FULL' });
  });
});

describe('what the shopper gave', () => {
  it("is on the merchant's view, its list and its event: the shipping address with its phone, the e-mail, the line items", async () => {
    const session = await server.createSession(secretKey, EXPRESS);
    await paidWith(session);
    const view = await merchantGet<Session>(`/api/sessions/${session.id}`);
    expect(view).toMatchObject({
      status: 'succeeded',
      line_items: LINE_ITEMS,
      email: SANDBOX_EMAIL,
      shipping_address: { name: GB_OFFICE.name, phone: GB_OFFICE.phoneNumber, address: { line1: GB_OFFICE.address1, city: GB_OFFICE.locality, postal_code: GB_OFFICE.postalCode, country: 'GB' } },
    });
    expect(await eventOf(session.id)).toMatchObject({ shipping_address: view.shipping_address, email: SANDBOX_EMAIL, line_items: LINE_ITEMS });
  });

  it('is never what the client secret reads, nor sent to the payment service: the charge carries the billing address only', async () => {
    const session = await server.createSession(secretKey, EXPRESS);
    const paid = await paidWith(session);
    const publicView = await server.publicSession(session);
    for (const text of [JSON.stringify(paid), JSON.stringify(publicView), JSON.stringify(session.public_view)]) {
      for (const given of ['"shipping_address"', '"email"', GB_OFFICE.address1!, SANDBOX_EMAIL]) expect(text).not.toContain(given);
    }
    const [charge] = await ledgerFor(session.id);
    expect(charge?.charge.billing_details?.address.line1).toBeDefined();
    expect(JSON.stringify(charge)).not.toContain(GB_OFFICE.address1);
    expect(JSON.stringify(charge)).not.toContain(SANDBOX_EMAIL);
  });

  it('is sealed at rest, in the session and its events', async () => {
    const session = await server.createSession(secretKey, EXPRESS);
    await paidWith(session);
    const row = await server.store.selectFrom('sessions').selectAll().where('id', '=', session.id).executeTakeFirstOrThrow();
    const events = await server.store.selectFrom('events').select('body').execute();
    expect(findWhole(JSON.stringify(row) + events.map((event) => event.body).join('\n'), [GB_OFFICE.address1!, GB_OFFICE.postalCode!, SANDBOX_EMAIL])).toEqual([]);
  });

  it('is only what was asked: no shipping phone, no e-mail, no billing phone the session did not ask for', async () => {
    const session = await server.createSession(secretKey, { shipping: { countries: ['GB'] } });
    const paymentData = await server.walletPaymentData(session, 'visa-success-3ds', undefined, 'gb-office');
    // A page can add what the wallet was not asked for; the server keeps none of it.
    Object.assign(paymentData, { email: SANDBOX_EMAIL, shippingAddress: { ...paymentData.shippingAddress, phoneNumber: GB_OFFICE.phoneNumber } });
    paymentData.paymentMethodData.info.billingAddress!.phoneNumber = '+1 415-555-0100';
    expect((await server.pay(session, { payment_data: paymentData })).status).toBe(200);
    const view = await merchantGet<Session>(`/api/sessions/${session.id}`);
    expect(view.email).toBeNull();
    expect(view.shipping_address).toMatchObject({ address: { country: 'GB' } });
    expect(view.shipping_address).not.toHaveProperty('phone');
    expect(view.billing_address).not.toHaveProperty('phone');
  });

  it('a shipping address outside the countries is refused before any charge, with a message the widget shows', async () => {
    const session = await server.createSession(secretKey, { shipping: { countries: ['US'] } });
    const paymentData = await server.walletPaymentData(session, 'visa-success-3ds', undefined, 'us-home');
    // The wallet offers only the session's countries: another was written by the page, outside the encrypted token.
    paymentData.shippingAddress = { ...walletShippingAddresses.find((choice) => choice.id === 'au-remote')!.address };
    const reply = await server.pay(session, { payment_data: paymentData });
    expect(reply.status).toBe(400);
    expect((await reply.json()).error).toEqual({ code: 'shipping_country_not_allowed', message: 'This shop does not ship to AU: choose a shipping address in US' });
    expect(await ledgerFor(session.id)).toEqual([]);
    expect(await merchantGet<Session>(`/api/sessions/${session.id}`)).toMatchObject({ status: 'open', attempts: 0, shipping_address: null });
  });

  it('a payment without the shipping address the session asks for is refused before any charge', async () => {
    const session = await server.createSession(secretKey, { shipping: { countries: ['US'] } });
    const paymentData = await server.walletPaymentData(session, 'visa-success-3ds');
    delete paymentData.shippingAddress;
    const reply = await server.pay(session, { payment_data: paymentData });
    expect(reply.status).toBe(400);
    expect((await reply.json()).error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('payment_data.shippingAddress') });
    expect(await ledgerFor(session.id)).toEqual([]);
  });
});

describe('retention', () => {
  it(`erases the shipping address and the e-mail from the session and its events ${RETENTION_DAYS} days on, with the billing address; the line items stay`, async () => {
    const session = await server.createSession(secretKey, EXPRESS);
    await paidWith(session);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + RETENTION_DAYS * DAY + 1000);
      const erasedAt = Date.now();
      expect((await server.reconcile()).personalDataErased.sessions).toBeGreaterThanOrEqual(1);
      const erased = { erased: true, erased_at: erasedAt };
      const expected = { shipping_address: erased, email: erased, billing_address: erased, line_items: LINE_ITEMS };
      expect(await merchantGet<Session>(`/api/sessions/${session.id}`)).toMatchObject(expected);
      expect(await eventOf(session.id)).toMatchObject(expected);
      const row = await server.store.selectFrom('sessions').select(['shipping_address_sealed', 'email_sealed']).where('id', '=', session.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ shipping_address_sealed: 'erased', email_sealed: 'erased' });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('line items beside fields already refused', () => {
  it('are not compared with a currency that is not one: the currency is what the 400 names', async () => {
    const reply = await post({ amount: 100, currency: '', country_code: 'US', line_items: [{ label: 'Coffee', kind: 'item', amount: 100 }] });
    expect(reply.status).toBe(400);
    expect((await reply.json()).error.message).toContain('currency');
  });
});
