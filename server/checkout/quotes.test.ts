/**
 * Delivery options priced by the server, over real HTTP: a session's options refused when they do not hold
 * together, asked of Google's sheet, each change in the sheet relayed and priced by the server (the latest quote
 * stored), and a payment charged that quote's total at the sandbox payment service; a payment not for the latest
 * quote (stale, another option, a country the option does not serve) refused before the service sees anything.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedSession, EventList, PayReply, PublicSession, QuoteReply, Session } from '../../contracts';
import { paymentDataRequestProblem, paymentDataRequestUpdateProblem } from '../../contracts/google-pay-rules';
import { startTestServer, type TestServer } from '../../testing/harness';

let server: TestServer;
let secretKey: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ secretKey } = await server.merchant({ merchant_id: 'quotes' }));
});
afterAll(() => server.close());

// Standard everywhere the shop ships but Canada; express in the US only; Canada has none.
const OPTIONS = [
  { id: 'standard', label: 'Standard', detail: '3 to 5 days', amount: 500, countries: ['US', 'GB'] },
  { id: 'express', label: 'Express', detail: 'Next day', amount: 1500, countries: ['US'] },
];
const WITH_OPTIONS = { amount: 2400, currency: 'USD', country_code: 'US', line_items: [{ label: 'Coffee beans', kind: 'item', amount: 2400 }], shipping: { countries: ['US', 'GB', 'CA'], options: OPTIONS } };

const post = (body: unknown) => fetch(`${server.url}/api/sessions`, { method: 'POST', headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
const merchantGet = async <T>(path: string): Promise<T> => (await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${secretKey}` } })).json() as Promise<T>;
const ledgerFor = async (sessionId: string) => (await server.sandbox!.ledger()).filter((entry) => entry.idempotency_key?.startsWith(`${sessionId}:`));

/** What the widget relays from Google's onPaymentDataChanged: the trigger, the redacted address's country, the option picked. */
const relay = (session: CreatedSession, callbackTrigger: string, countryCode: string, optionId?: string) =>
  fetch(`${server.url}/api/sessions/${session.id}/quote`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.client_secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ intermediate_payment_data: { callbackTrigger, shippingAddress: { countryCode, postalCode: '94043' }, ...(optionId && { shippingOptionData: { id: optionId } }) } }),
  });
async function quoted(session: CreatedSession, callbackTrigger: string, countryCode: string, optionId?: string): Promise<QuoteReply> {
  const reply = await relay(session, callbackTrigger, countryCode, optionId);
  expect(reply.status).toBe(200);
  return (await reply.json()) as QuoteReply;
}

/** The sandbox wallet's PaymentData for the shopper's address and option, sent to /pay with `quoteId`. */
async function payWith(session: CreatedSession, quoteId: string | undefined, shippingAddressId: string, optionId: string): Promise<Response> {
  const paymentData = await server.walletPaymentData(session, 'visa-success-3ds', undefined, shippingAddressId, optionId);
  return server.pay(session, { payment_data: paymentData, ...(quoteId !== undefined && { quote_id: quoteId }) });
}

describe('creating a session with delivery options', () => {
  it("keeps them, countries upper case, on the merchant's view; nothing charged yet", async () => {
    const session = await server.createSession(secretKey, { ...WITH_OPTIONS, shipping: { countries: ['us', 'GB', 'CA'], options: [{ ...OPTIONS[0], countries: ['gb', 'us'] }, OPTIONS[1]] } });
    const expected = { shipping: { countries: ['US', 'GB', 'CA'], phone: false, options: [{ ...OPTIONS[0], countries: ['GB', 'US'] }, OPTIONS[1]] }, shipping_option: null, amount_charged: null };
    expect(session).toMatchObject(expected);
    expect(await merchantGet<Session>(`/api/sessions/${session.id}`)).toMatchObject(expected);
  });

  it('without them, the view says there are none', async () => {
    expect(await server.createSession(secretKey, { shipping: { countries: ['US'] } })).toMatchObject({ shipping: { countries: ['US'], options: [] }, shipping_option: null });
  });

  const option = (fields: Record<string, unknown> = {}) => ({ id: 'standard', label: 'Standard', amount: 500, ...fields });
  it.each([
    ['two options with one id', { options: [option(), option({ label: 'Again' })] }, 'shipping.options.1.id'],
    ['an option for a country the session does not ship to', { options: [option({ countries: ['US', 'FR'] })] }, 'FR is not one of shipping.countries'],
    ['an id with a space', { options: [option({ id: 'next day' })] }, 'shipping.options.0.id'],
    ['a negative price', { options: [option({ amount: -1 })] }, 'shipping.options.0.amount'],
    ['an empty list', { options: [] }, 'shipping.options'],
    ['more than 10 options', { options: Array.from({ length: 11 }, (_, index) => option({ id: `o${index}` })) }, 'shipping.options'],
    ['a blank label', { options: [option({ label: ' ' })] }, 'shipping.options.0.label'],
    ['a detail longer than 200 characters', { options: [option({ detail: 'x'.repeat(201) })] }, 'shipping.options.0.detail'],
    ['a field an option does not have', { options: [option({ price: 5 })] }, 'price'],
  ])('refuses %s with a clear invalid_request', async (_name, shipping, named) => {
    const reply = await post({ amount: 2400, currency: 'USD', country_code: 'US', shipping: { countries: ['US', 'GB'], ...shipping } });
    expect(reply.status).toBe(400);
    expect((await reply.json()).error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining(named) });
  });

  it('refuses an option price Google Pay cannot show (KWD 1.234), naming the step', async () => {
    const reply = await post({ amount: 1240, currency: 'KWD', country_code: 'KW', shipping: { countries: ['KW'], options: [option({ amount: 1234 })] } });
    expect(reply.status).toBe(400);
    expect((await reply.json()).error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/shipping\.options\.0\.amount.*multiple of 10/) });
  });
});

describe('the request the widget hands the wallet', () => {
  it('asks for an option, relayed for every change, the total estimated with the first; Google takes it', async () => {
    const request = (await server.publicSession(await server.createSession(secretKey, WITH_OPTIONS))).payment_data_request;
    expect(request).toMatchObject({
      shippingOptionRequired: true,
      shippingOptionParameters: { defaultSelectedOptionId: 'standard', shippingOptions: [{ id: 'standard', label: 'Standard', description: '3 to 5 days' }, { id: 'express', label: 'Express', description: 'Next day' }] },
      callbackIntents: ['PAYMENT_AUTHORIZATION', 'SHIPPING_ADDRESS', 'SHIPPING_OPTION'],
      transactionInfo: { totalPriceStatus: 'ESTIMATED', totalPrice: '29.00', displayItems: [{ label: 'Coffee beans', price: '24.00' }, { label: 'Standard', type: 'SHIPPING_OPTION', price: '5.00' }] },
    });
    expect(paymentDataRequestProblem(request, { environment: 'TEST', callbacks: { onPaymentAuthorized: true, onPaymentDataChanged: true } })).toBeUndefined();
  });
});

describe('the relay', () => {
  let session: CreatedSession;
  let request: PublicSession['payment_data_request'];
  beforeAll(async () => {
    session = await server.createSession(secretKey, WITH_OPTIONS);
    request = (await server.publicSession(session)).payment_data_request;
  });
  const updateProblem = (reply: QuoteReply) => paymentDataRequestUpdateProblem(reply.update, request);

  it("INITIALIZE: the address's options, the default chosen, the FINAL total, as an update Google takes", async () => {
    const reply = await quoted(session, 'INITIALIZE', 'US');
    expect(reply.quote_id).toMatch(/^qt_/);
    expect(reply.update).toEqual({
      newTransactionInfo: {
        currencyCode: 'USD',
        countryCode: 'US',
        totalPriceStatus: 'FINAL',
        totalPrice: '29.00',
        displayItems: [
          { label: 'Coffee beans', type: 'LINE_ITEM', price: '24.00', status: 'FINAL' },
          { label: 'Standard', type: 'SHIPPING_OPTION', price: '5.00', status: 'FINAL' },
        ],
      },
      newShippingOptionParameters: request.shippingOptionParameters,
    });
    expect(updateProblem(reply)).toBeUndefined();
  });

  it('an option change: priced with it, and a new quote', async () => {
    const first = await quoted(session, 'INITIALIZE', 'US');
    const reply = await quoted(session, 'SHIPPING_OPTION', 'US', 'express');
    expect(reply.quote_id).not.toBe(first.quote_id);
    expect(reply.update).toMatchObject({ newTransactionInfo: { totalPrice: '39.00', displayItems: [{}, { label: 'Express', price: '15.00' }] }, newShippingOptionParameters: { defaultSelectedOptionId: 'express' } });
    expect(updateProblem(reply)).toBeUndefined();
  });

  it('an address in a country with fewer options: only those listed, the option it has not replaced by its first', async () => {
    const reply = await quoted(session, 'SHIPPING_ADDRESS', 'gb', 'express');
    expect(reply.update).toMatchObject({ newTransactionInfo: { totalPrice: '29.00' }, newShippingOptionParameters: { defaultSelectedOptionId: 'standard', shippingOptions: [{ id: 'standard' }] } });
    expect((reply.update as { newShippingOptionParameters: { shippingOptions: unknown[] } }).newShippingOptionParameters.shippingOptions).toHaveLength(1);
    expect(updateProblem(reply)).toBeUndefined();
  });

  it.each([
    ['a country the session ships to that no option serves', 'CA'],
    ['a country the session does not ship to', 'AU'],
  ])("%s: the sheet's error on the address, no quote", async (_name, country) => {
    const reply = await quoted(session, 'SHIPPING_ADDRESS', country);
    expect(reply).toEqual({ quote_id: null, update: { error: { reason: 'SHIPPING_ADDRESS_UNSERVICEABLE', intent: 'SHIPPING_ADDRESS', message: expect.stringContaining(country) } } });
    expect(updateProblem(reply)).toBeUndefined();
  });

  it('keeps Google\'s fields it does not know out, and refuses what is not Google\'s', async () => {
    const extra = await fetch(`${server.url}/api/sessions/${session.id}/quote`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.client_secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ intermediate_payment_data: { callbackTrigger: 'INITIALIZE', shippingAddress: { countryCode: 'US' }, newGoogleField: { x: 1 } } }),
    });
    expect(extra.status).toBe(200);
    const wrong = await fetch(`${server.url}/api/sessions/${session.id}/quote`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.client_secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ intermediate_payment_data: { callbackTrigger: 'INITIALIZE', shippingAddress: { countryCode: 'US' } }, total: '1.00' }),
    });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('total') });
  });

  it('needs the client secret', async () => {
    const reply = await fetch(`${server.url}/api/sessions/${session.id}/quote`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ intermediate_payment_data: { callbackTrigger: 'INITIALIZE' } }) });
    expect(reply.status).toBe(401);
  });

  it('a session without options has nothing to quote', async () => {
    const reply = await relay(await server.createSession(secretKey, { shipping: { countries: ['US'] } }), 'INITIALIZE', 'US');
    expect(reply.status).toBe(400);
    expect((await reply.json()).error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('no delivery options') });
  });

  it('a paid session is quoted no more', async () => {
    const paid = await server.createSession(secretKey, WITH_OPTIONS);
    const { quote_id } = await quoted(paid, 'INITIALIZE', 'US');
    expect((await payWith(paid, quote_id ?? undefined, 'us-home', 'standard')).status).toBe(200);
    const reply = await relay(paid, 'SHIPPING_OPTION', 'US', 'express');
    expect(reply.status).toBe(409);
    expect((await reply.json()).error.code).toBe('session_completed');
  });
});

describe('paying', () => {
  it("charges the latest quote: the goods plus the option, on the merchant's view, its event and a full refund", async () => {
    const session = await server.createSession(secretKey, WITH_OPTIONS);
    await quoted(session, 'INITIALIZE', 'US');
    const { quote_id } = await quoted(session, 'SHIPPING_OPTION', 'US', 'express');
    const reply = await payWith(session, quote_id ?? undefined, 'us-home', 'express');
    expect(reply.status).toBe(200);
    expect(((await reply.json()) as PayReply).outcome.status).toBe('succeeded');
    const [charge, ...others] = await ledgerFor(session.id);
    expect(others).toEqual([]);
    expect(charge?.charge.amount).toBe(2400 + 1500);
    const expected = { status: 'succeeded', amount: 2400, amount_charged: 3900, shipping_option: { id: 'express', label: 'Express', amount: 1500 } };
    expect(await merchantGet<Session>(`/api/sessions/${session.id}`)).toMatchObject(expected);
    const event = (await merchantGet<EventList>('/api/events?type=session.succeeded&limit=100')).data.find((candidate) => candidate.data.object.id === session.id);
    expect(event?.data.object).toMatchObject(expected);
    const refund = await server.merchantPost(secretKey, `/api/sessions/${session.id}/refunds`);
    expect(refund.status).toBe(201);
    expect((await refund.json()).amount).toBe(3900);
  });

  /** Pays the session's express quote with a card needing 3-D Secure; every charge the service saw for it. */
  async function paidAfterAuthentication(cardId: string, complete: (outcome: PayReply['outcome'], session: CreatedSession) => Promise<PayReply['outcome']>) {
    const session = await server.createSession(secretKey, WITH_OPTIONS);
    const { quote_id } = await quoted(session, 'SHIPPING_OPTION', 'US', 'express');
    const paymentData = await server.walletPaymentData(session, cardId, undefined, 'us-home', 'express');
    const reply = await server.pay(session, { payment_data: paymentData, quote_id });
    expect(reply.status).toBe(200);
    expect((await complete(((await reply.json()) as PayReply).outcome, session)).status).toBe('succeeded');
    return (await ledgerFor(session.id)).map((entry) => entry.charge);
  }

  it('3-D Secure keeps the quote: the frictionless charge after it, and the one after a challenge, charge the goods plus the option', async () => {
    const frictionless = await paidAfterAuthentication('visa-3ds-frictionless-pan', async (outcome) => outcome);
    expect(frictionless.map((charge) => [charge.source_type, charge.amount])).toEqual([['walletpay', 3900], ['payment_method', 3900]]);

    const challenged = await paidAfterAuthentication('visa-3ds-required-pan', async (outcome, session) => {
      expect(outcome.status).toBe('requires_authentication');
      await fetch(outcome.challenge_url ?? '', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'action=complete', redirect: 'manual' });
      const reply = await server.authenticate(session);
      expect(reply.status).toBe(200);
      return ((await reply.json()) as PayReply).outcome;
    });
    expect(challenged.map((charge) => [charge.source_type, charge.amount])).toEqual([['walletpay', 3900], ['payment_method', 3900]]);
  });

  it('a session without options charges its amount, a quote_id ignored', async () => {
    const session = await server.createSession(secretKey, { shipping: { countries: ['US'] } });
    const paymentData = await server.walletPaymentData(session, 'visa-success-3ds', undefined, 'us-home');
    expect((await server.pay(session, { payment_data: paymentData, quote_id: 'qt_anything' })).status).toBe(200);
    expect((await ledgerFor(session.id))[0]?.charge.amount).toBe(2400);
    expect(await merchantGet<Session>(`/api/sessions/${session.id}`)).toMatchObject({ amount_charged: 2400, shipping_option: null });
  });

  /** A refusal: 409 quote_mismatch, nothing sent to the payment service, the session as it was. */
  async function refused(session: CreatedSession, reply: Response, named: string): Promise<void> {
    expect(reply.status).toBe(409);
    expect((await reply.json()).error).toMatchObject({ code: 'quote_mismatch', message: expect.stringContaining(named) });
    expect(await ledgerFor(session.id)).toEqual([]);
    expect(await merchantGet<Session>(`/api/sessions/${session.id}`)).toMatchObject({ status: 'open', attempts: 0, amount_charged: null, shipping_option: null });
  }

  it('refuses a stale quote: one a newer replaced, for the same option and price too', async () => {
    const session = await server.createSession(secretKey, WITH_OPTIONS);
    const stale = await quoted(session, 'SHIPPING_OPTION', 'US', 'standard');
    const latest = await quoted(session, 'SHIPPING_ADDRESS', 'US', 'standard');
    expect(latest.update).toEqual(stale.update);
    await refused(session, await payWith(session, stale.quote_id ?? undefined, 'us-home', 'standard'), 'quoted again');
  });

  it("refuses an option that is not the quote's", async () => {
    const session = await server.createSession(secretKey, WITH_OPTIONS);
    const { quote_id } = await quoted(session, 'SHIPPING_OPTION', 'US', 'standard');
    await refused(session, await payWith(session, quote_id ?? undefined, 'us-home', 'express'), 'shippingOptionData');
  });

  it('refuses an address in a country the option does not serve', async () => {
    const session = await server.createSession(secretKey, WITH_OPTIONS);
    // Quoted for a US address, paid with a British one: express is the US's only.
    const { quote_id } = await quoted(session, 'SHIPPING_OPTION', 'US', 'express');
    await refused(session, await payWith(session, quote_id ?? undefined, 'gb-office', 'express'), 'Express does not deliver to GB');
  });

  it('refuses a payment without a quote, or with one never made', async () => {
    const session = await server.createSession(secretKey, WITH_OPTIONS);
    await refused(session, await payWith(session, undefined, 'us-home', 'standard'), 'quote_id');
    await refused(session, await payWith(session, 'qt_madeup', 'us-home', 'standard'), 'quoted again');
  });
});
