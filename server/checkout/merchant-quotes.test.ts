/**
 * Prices from the merchant's own server, over real HTTP: an app's quote endpoint registered and replaced, a
 * session created to be priced there, each change in the sheet relayed and sent to a real endpoint on
 * 127.0.0.1 (signed, the address redacted), its answer turned into Google's update (options by zone, tax,
 * promotion codes accepted or refused), and every way it can fail shown to the shopper as an error in the
 * sheet within the timeout. A payment is checked against the latest quote, priced once more with the full
 * address, and charged that quote's total at the sandbox payment service; a refusal, a different price, a
 * failure, or a quote made meanwhile charge nothing. None of it reaches the logs.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CreatedQuoteEndpoint, CreatedSession, EventList, PayReply, QuoteEndpoint, QuoteReply, QuoteRequest, Session } from '../../contracts';
import { paymentDataRequestProblem, paymentDataRequestUpdateProblem } from '../../contracts/google-pay-rules';
import { checkSignature } from '../../contracts/webhook-signature';
import { startTestServer, type TestServer } from '../../testing/harness';
import { type QuoteEndpointReply, startQuoteEndpoint, type TestQuoteEndpoint } from '../../testing/quote-endpoint';

/** The endpoint's time, short so that a slow endpoint's test is quick (production's default is 5 s). */
const TIMEOUT_MS = 1_000;

let logDir: string;
let logFile: string;
let server: TestServer;
let endpoint: TestQuoteEndpoint;
let secretKey: string;
let endpointSecret: string;

/**
 * The shop's prices, as a merchant's endpoint computes them: ground and air in the US, one international
 * option elsewhere, nothing to Australia; California's sales tax (8.5% of the goods); TENOFF takes 10.00 off.
 */
function shopPrices(request: QuoteRequest): QuoteEndpointReply {
  const address = request.shipping_address;
  if (address?.country === 'AU') return { json: { error: { reason: 'shipping_address_unserviceable', message: 'We do not deliver to Australia yet' } } };
  const options = address?.country === 'US' ? [{ id: 'ground', label: 'Ground', detail: '5 days', amount: 500 }, { id: 'air', label: 'Air', detail: 'Next day', amount: 1500 }] : [{ id: 'international', label: 'International', amount: 2000 }];
  return {
    json: {
      ...(address && { shipping_options: options }),
      tax: address?.state === 'CA' ? Math.round(request.amount * 0.085) : 0,
      promotion_codes: request.promotion_codes.filter((code) => code === 'TENOFF').map((code) => ({ code, label: 'Ten off', amount: 1000 })),
    },
  };
}

beforeAll(async () => {
  logDir = mkdtempSync(join(tmpdir(), 'wallet-checkout-quote-logs-'));
  logFile = join(logDir, 'server.log');
  server = await startTestServer({ QUOTE_ENDPOINT_TIMEOUT_MS: String(TIMEOUT_MS) }, { logFile });
  endpoint = await startQuoteEndpoint(shopPrices);
  ({ secretKey } = await server.merchant({ merchant_id: 'merchant_quotes' }));
  endpointSecret = ((await (await setEndpoint(secretKey, endpoint.url)).json()) as CreatedQuoteEndpoint).secret;
});
beforeEach(() => {
  endpoint.answer = shopPrices;
});
afterAll(async () => {
  await endpoint.close();
  await server.close();
  rmSync(logDir, { recursive: true, force: true });
});

const merchantCall = (key: string | undefined, method: string, path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { ...(key && { authorization: `Bearer ${key}` }), ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
const setEndpoint = (key: string, url: string) => merchantCall(key, 'PUT', '/api/quote_endpoint', { url });
const merchantGet = async <T>(path: string): Promise<T> => (await merchantCall(secretKey, 'GET', path)).json() as Promise<T>;
const ledgerFor = async (sessionId: string) => (await server.sandbox!.ledger()).filter((entry) => entry.idempotency_key?.startsWith(`${sessionId}:`));
const requestsFor = (session: CreatedSession, stage?: QuoteRequest['stage']) => endpoint.received.filter(({ request }) => request.session === session.id && (!stage || request.stage === stage));

// The goods; the shop ships to the US, the UK and Australia; the sheet opens with ground shipping until the first quote.
const QUOTED = {
  amount: 2400,
  currency: 'USD',
  country_code: 'US',
  reference: 'order-77',
  line_items: [{ label: 'Coffee beans', kind: 'item', amount: 2400 }],
  shipping: { countries: ['US', 'GB', 'AU'], options: [{ id: 'ground', label: 'Ground', amount: 500 }] },
  quote_endpoint: true,
  promotion_codes: true,
};
/** The sandbox wallet's addresses (docs/test-cards.md#shipping-addresses), redacted as the sheet's callback gives them. */
const US_HOME = { countryCode: 'US', administrativeArea: 'CA', locality: 'San Francisco', postalCode: '94105' };
const GB_OFFICE = { countryCode: 'GB', locality: 'London', postalCode: 'SW1' };
const AU_REMOTE = { countryCode: 'AU', administrativeArea: 'NT', locality: 'Alice Springs', postalCode: '0870' };

interface Change {
  address?: Record<string, string>;
  option?: string;
  codes?: string[];
}
const relay = (session: CreatedSession, callbackTrigger: string, { address, option, codes }: Change = {}) =>
  fetch(`${server.url}/api/sessions/${session.id}/quote`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.client_secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      intermediate_payment_data: { callbackTrigger, ...(address && { shippingAddress: address }), ...(option && { shippingOptionData: { id: option } }), ...(codes && { offerData: { redemptionCodes: codes } }) },
    }),
  });
async function quoted(session: CreatedSession, callbackTrigger: string, change?: Change): Promise<QuoteReply> {
  const reply = await relay(session, callbackTrigger, change);
  expect(reply.status).toBe(200);
  return (await reply.json()) as QuoteReply;
}
const updateProblem = async (session: CreatedSession, reply: QuoteReply) => paymentDataRequestUpdateProblem(reply.update, (await server.publicSession(session)).payment_data_request);

/** The sandbox wallet's PaymentData for the shopper's address, option and codes, sent to /pay with `quoteId`. */
async function payWith(session: CreatedSession, quoteId: string | null | undefined, shippingAddressId: string, optionId: string, codes: string[] = []): Promise<Response> {
  const paymentData = await server.walletPaymentData(session, 'visa-success-3ds', undefined, shippingAddressId, optionId, codes);
  return server.pay(session, { payment_data: paymentData, ...(quoteId && { quote_id: quoteId }) });
}

/** A refused payment: its status and code, nothing at the payment service, the session as it was. */
async function refused(session: CreatedSession, reply: Response, status: number, code: string, named: string): Promise<void> {
  expect(reply.status).toBe(status);
  expect((await reply.json()).error).toMatchObject({ code, message: expect.stringContaining(named) });
  expect(await ledgerFor(session.id)).toEqual([]);
  expect(await merchantGet<Session>(`/api/sessions/${session.id}`)).toMatchObject({ status: 'open', attempts: 0, amount_charged: null, shipping_option: null, quote: null });
}

describe('registering the quote endpoint', () => {
  it('sets it with a signing secret shown once; replacing it makes a new secret; removing it leaves none', async () => {
    const { secretKey: key } = await server.merchant({ merchant_id: 'merchant_quotes_register' });
    expect((await merchantCall(key, 'GET', '/api/quote_endpoint')).status).toBe(404);
    const first = await setEndpoint(key, 'http://127.0.0.1:9/quotes');
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const created = (await first.json()) as CreatedQuoteEndpoint;
    expect(created).toEqual({ object: 'quote_endpoint', url: 'http://127.0.0.1:9/quotes', created: expect.any(Number), secret: expect.stringMatching(/^qsec_[A-Za-z0-9_-]{20,}$/) });
    const read = await merchantCall(key, 'GET', '/api/quote_endpoint');
    expect(await read.json()).toEqual({ object: 'quote_endpoint', url: 'http://127.0.0.1:9/quotes', created: created.created } satisfies QuoteEndpoint);

    const replaced = (await (await setEndpoint(key, endpoint.url)).json()) as CreatedQuoteEndpoint;
    expect(replaced.url).toBe(endpoint.url);
    expect(replaced.secret).not.toBe(created.secret);
    expect(await (await merchantCall(key, 'GET', '/api/quote_endpoint')).json()).toMatchObject({ url: endpoint.url });
    // Requests are signed with the new secret only.
    const session = await server.createSession(key, QUOTED);
    await quoted(session, 'INITIALIZE', { address: US_HOME });
    const [sent] = requestsFor(session);
    expect(checkSignature(sent!.signature!, sent!.body, replaced.secret)).toBe('verified');
    expect(checkSignature(sent!.signature!, sent!.body, created.secret)).toBe('no_matching_signature');

    const removed = await merchantCall(key, 'DELETE', '/api/quote_endpoint');
    expect(removed.status).toBe(204);
    expect(await removed.text()).toBe('');
    for (const method of ['GET', 'DELETE']) {
      const gone = await merchantCall(key, method, '/api/quote_endpoint');
      expect(gone.status).toBe(404);
      expect((await gone.json()).error.code).toBe('not_found');
    }
  });

  it("is the app's own: another app's key reads none of it, and every route needs a secret key", async () => {
    const { secretKey: other } = await server.merchant({ merchant_id: 'merchant_quotes_other' });
    expect((await merchantCall(other, 'GET', '/api/quote_endpoint')).status).toBe(404);
    for (const [method, body] of [['PUT', { url: endpoint.url }], ['GET', undefined], ['DELETE', undefined]] as const) {
      const reply = await merchantCall(undefined, method, '/api/quote_endpoint', body);
      expect(reply.status).toBe(401);
      expect((await reply.json()).error.code).toBe('unauthenticated');
    }
  });

  it.each([
    ['text that is no URL', 'not a url'],
    ['a URL with a password', 'https://shop:secret@shop.example/quotes'],
    ['another scheme', 'ftp://shop.example/quotes'],
  ])('refuses %s with a 400 naming url', async (_name, url) => {
    const reply = await setEndpoint(secretKey, url);
    expect(reply.status).toBe(400);
    expect((await reply.json()).error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('url') });
  });

  it("under production's address rule, refuses http and loopback addresses (url_not_allowed), as webhook URLs", async () => {
    const production = await startTestServer({}, { webhookAddressPolicy: 'public' });
    try {
      const { secretKey: key } = await production.merchant({ merchant_id: 'merchant_quotes_production' });
      for (const [url, named] of [['http://shop.example/quotes', 'https'], ['https://127.0.0.1/quotes', 'not a public address']] as const) {
        const reply = await fetch(`${production.url}/api/quote_endpoint`, { method: 'PUT', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ url }) });
        expect(reply.status).toBe(400);
        expect((await reply.json()).error).toMatchObject({ code: 'url_not_allowed', message: expect.stringContaining(named) });
      }
    } finally {
      await production.close();
    }
  });
});

describe('creating a session priced by the quote endpoint', () => {
  it("refuses one when the app has no endpoint: 400 quote_endpoint_missing", async () => {
    const { secretKey: key } = await server.merchant({ merchant_id: 'merchant_quotes_none' });
    const reply = await merchantCall(key, 'POST', '/api/sessions', QUOTED);
    expect(reply.status).toBe(400);
    expect((await reply.json()).error).toMatchObject({ code: 'quote_endpoint_missing', message: expect.stringContaining('PUT /api/quote_endpoint') });
  });

  it.each([
    ['promotion codes without the quote endpoint', { promotion_codes: true }, 'promotion_codes'],
    ['the quote endpoint with neither shipping nor promotion codes', { quote_endpoint: true }, 'quote_endpoint'],
  ])('refuses %s with a 400 naming the field', async (_name, fields, named) => {
    const reply = await merchantCall(secretKey, 'POST', '/api/sessions', { amount: 2400, currency: 'USD', country_code: 'US', ...fields });
    expect(reply.status).toBe(400);
    expect((await reply.json()).error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining(named) });
  });

  it("says so on the merchant's view, nothing charged yet", async () => {
    const session = await server.createSession(secretKey, QUOTED);
    const expected = { quote_endpoint: true, promotion_codes: true, quote: null, amount_charged: null };
    expect(session).toMatchObject(expected);
    expect(await merchantGet<Session>(`/api/sessions/${session.id}`)).toMatchObject(expected);
    expect(await server.createSession(secretKey, {})).toMatchObject({ quote_endpoint: false, promotion_codes: false, quote: null });
  });

  it('asks the wallet for an estimate, calls back at each change that can move the price, and Google takes it', async () => {
    const request = (await server.publicSession(await server.createSession(secretKey, QUOTED))).payment_data_request;
    expect(request).toMatchObject({
      transactionInfo: { totalPriceStatus: 'ESTIMATED', totalPrice: '29.00' },
      shippingOptionRequired: true,
      offerInfo: { offers: [] },
      callbackIntents: ['PAYMENT_AUTHORIZATION', 'SHIPPING_ADDRESS', 'SHIPPING_OPTION', 'OFFER'],
    });
    expect(request.transactionInfo).not.toHaveProperty('checkoutOption');
    expect(paymentDataRequestProblem(request, { environment: 'TEST', callbacks: { onPaymentAuthorized: true, onPaymentDataChanged: true } })).toBeUndefined();
  });
});

describe('the sheet, priced by the endpoint', () => {
  it('INITIALIZE: a signed request with the redacted address; the options for it, the tax, a FINAL total Google takes', async () => {
    const session = await server.createSession(secretKey, QUOTED);
    const reply = await quoted(session, 'INITIALIZE', { address: US_HOME, option: 'shipping_option_unselected' });
    const [sent, ...more] = requestsFor(session);
    expect(more).toEqual([]);
    expect(checkSignature(sent!.signature!, sent!.body, endpointSecret)).toBe('verified');
    expect(sent!.request).toEqual({
      object: 'quote_request',
      id: reply.quote_id!,
      stage: 'sheet',
      session: session.id,
      reference: 'order-77',
      amount: 2400,
      currency: 'usd',
      line_items: [{ label: 'Coffee beans', kind: 'item', amount: 2400 }],
      shipping_address: { country: 'US', state: 'CA', city: 'San Francisco', postal_code: '94105' },
      shipping_option: null,
      promotion_codes: [],
      created: expect.any(Number),
    } satisfies QuoteRequest);
    expect(reply.update).toEqual({
      newTransactionInfo: {
        currencyCode: 'USD',
        countryCode: 'US',
        totalPriceStatus: 'FINAL',
        totalPrice: '31.04',
        displayItems: [
          { label: 'Coffee beans', type: 'LINE_ITEM', price: '24.00', status: 'FINAL' },
          { label: 'Ground', type: 'SHIPPING_OPTION', price: '5.00', status: 'FINAL' },
          { label: 'Tax', type: 'TAX', price: '2.04', status: 'FINAL' },
        ],
      },
      newShippingOptionParameters: {
        defaultSelectedOptionId: 'ground',
        shippingOptions: [
          { id: 'ground', label: 'Ground', description: '5 days' },
          { id: 'air', label: 'Air', description: 'Next day' },
        ],
      },
      newOfferInfo: { offers: [] },
    });
    expect(await updateProblem(session, reply)).toBeUndefined();
  });

  it("an address in another zone: that zone's options, its tax; the option the shopper had is replaced by the zone's first", async () => {
    const session = await server.createSession(secretKey, QUOTED);
    const reply = await quoted(session, 'SHIPPING_ADDRESS', { address: GB_OFFICE, option: 'air' });
    expect(requestsFor(session)[0]?.request).toMatchObject({ shipping_address: { country: 'GB', city: 'London', postal_code: 'SW1' }, shipping_option: 'air' });
    expect(reply.update).toMatchObject({
      newTransactionInfo: { totalPrice: '44.00', displayItems: [{}, { label: 'International', price: '20.00' }] },
      newShippingOptionParameters: { defaultSelectedOptionId: 'international', shippingOptions: [{ id: 'international' }] },
    });
    expect(reply.update.newTransactionInfo?.displayItems).toHaveLength(2);
    expect(await updateProblem(session, reply)).toBeUndefined();
  });

  it('an option change: priced with it, as a new quote', async () => {
    const session = await server.createSession(secretKey, QUOTED);
    const first = await quoted(session, 'INITIALIZE', { address: US_HOME });
    const reply = await quoted(session, 'SHIPPING_OPTION', { address: US_HOME, option: 'air' });
    expect(reply.quote_id).not.toBe(first.quote_id);
    expect(requestsFor(session)[1]?.request.shipping_option).toBe('air');
    expect(reply.update).toMatchObject({ newTransactionInfo: { totalPrice: '41.04' }, newShippingOptionParameters: { defaultSelectedOptionId: 'air' } });
  });

  it('a code the shop accepts: its discount on its own line, the total less it, the code applied in the sheet', async () => {
    const session = await server.createSession(secretKey, QUOTED);
    const reply = await quoted(session, 'OFFER', { address: US_HOME, option: 'ground', codes: ['TENOFF'] });
    expect(requestsFor(session)[0]?.request.promotion_codes).toEqual(['TENOFF']);
    expect(reply.update).toMatchObject({
      newTransactionInfo: { totalPrice: '21.04', displayItems: [{}, { type: 'SHIPPING_OPTION' }, { type: 'TAX' }, { label: 'Ten off', type: 'DISCOUNT', price: '-10.00', status: 'FINAL' }] },
      newOfferInfo: { offers: [{ redemptionCode: 'TENOFF', description: 'Ten off' }] },
    });
    expect(reply.update).not.toHaveProperty('error');
    expect(await updateProblem(session, reply)).toBeUndefined();
  });

  it('a code the shop refuses: OFFER_INVALID naming it, while the total and the codes it accepts stand', async () => {
    const session = await server.createSession(secretKey, QUOTED);
    const reply = await quoted(session, 'OFFER', { address: US_HOME, option: 'ground', codes: ['TENOFF', 'BOGUS50'] });
    expect(reply.quote_id).toMatch(/^qt_/);
    expect(reply.update).toMatchObject({
      newTransactionInfo: { totalPrice: '21.04' },
      newOfferInfo: { offers: [{ redemptionCode: 'TENOFF', description: 'Ten off' }] },
      error: { reason: 'OFFER_INVALID', intent: 'OFFER', message: expect.stringContaining('BOGUS50') },
    });
    expect(reply.update.newOfferInfo?.offers).toHaveLength(1);
    expect(await updateProblem(session, reply)).toBeUndefined();
  });

  it("an address the shop refuses: its message on the address, no quote", async () => {
    const session = await server.createSession(secretKey, QUOTED);
    const reply = await quoted(session, 'SHIPPING_ADDRESS', { address: AU_REMOTE });
    expect(reply).toEqual({ quote_id: null, update: { error: { reason: 'SHIPPING_ADDRESS_UNSERVICEABLE', intent: 'SHIPPING_ADDRESS', message: 'We do not deliver to Australia yet' } } });
    expect(await updateProblem(session, reply)).toBeUndefined();
  });

  it("a country the session does not ship to is refused without asking the shop", async () => {
    const session = await server.createSession(secretKey, QUOTED);
    const reply = await quoted(session, 'SHIPPING_ADDRESS', { address: { countryCode: 'CA', postalCode: 'M5V' } });
    expect(reply.update.error).toMatchObject({ reason: 'SHIPPING_ADDRESS_UNSERVICEABLE', message: expect.stringContaining('CA') });
    expect(requestsFor(session)).toEqual([]);
  });

  it('a session that asks no address (promotion codes only): no address sent, no options, the codes priced', async () => {
    const session = await server.createSession(secretKey, { amount: 2400, currency: 'USD', country_code: 'US', quote_endpoint: true, promotion_codes: true });
    expect((await server.publicSession(session)).payment_data_request.callbackIntents).toEqual(['PAYMENT_AUTHORIZATION', 'OFFER']);
    const opened = await quoted(session, 'INITIALIZE');
    expect(opened.update).toEqual({ newTransactionInfo: { currencyCode: 'USD', countryCode: 'US', totalPriceStatus: 'FINAL', totalPrice: '24.00', displayItems: [] }, newOfferInfo: { offers: [] } });
    const reply = await quoted(session, 'OFFER', { codes: ['TENOFF'] });
    expect(requestsFor(session).map(({ request }) => [request.shipping_address, request.shipping_option])).toEqual([[null, null], [null, null]]);
    expect(reply.update).toMatchObject({ newTransactionInfo: { totalPrice: '14.00' }, newOfferInfo: { offers: [{ redemptionCode: 'TENOFF' }] } });
    expect(await updateProblem(session, reply)).toBeUndefined();
  });

  /** What every failure shows the shopper: an error on the part that changed, no quote. */
  const otherError = (intent: string) => ({ quote_id: null, update: { error: { reason: 'OTHER_ERROR', intent, message: 'The shop could not price this just now: try again' } } });
  const never = () => new Promise<QuoteEndpointReply>(() => {});
  const later = (ms: number, reply: QuoteEndpointReply) => new Promise<QuoteEndpointReply>((resolve) => setTimeout(() => resolve(reply), ms));

  it.each<[string, TestQuoteEndpoint['answer']]>([
    ['an answer later than the timeout', (request) => later(TIMEOUT_MS + 1_500, shopPrices(request))],
    ['no answer at all', never],
    ['a 500', () => ({ status: 500, json: { error: 'down' } })],
    ['a redirect', () => ({ status: 302, text: '' })],
    ['text that is not JSON', () => ({ text: 'ok, ground is 5.00' })],
    ['an answer larger than 64 kB', () => ({ json: { shipping_options: [{ id: 'ground', label: 'Ground', amount: 500, detail: 'x'.repeat(70_000) }] } })],
    ['JSON that is no QuoteAnswer (a field it does not have)', () => ({ json: { shipping_options: [{ id: 'ground', label: 'Ground', amount: 500 }], discount: 100 } })],
    ['JSON that is no QuoteAnswer (a negative tax)', () => ({ json: { shipping_options: [{ id: 'ground', label: 'Ground', amount: 500 }], tax: -5 } })],
    ['no options for a session that offers them', () => ({ json: { tax: 0 } })],
    ['a total of 0 or less (a discount larger than the order)', () => ({ json: { shipping_options: [{ id: 'ground', label: 'Ground', amount: 500 }], promotion_codes: [{ code: 'TENOFF', label: 'Everything', amount: 5000 }] } })],
    ['a code that was never sent', () => ({ json: { shipping_options: [{ id: 'ground', label: 'Ground', amount: 500 }], promotion_codes: [{ code: 'GIFT', label: 'Gift', amount: 100 }] } })],
  ])('%s: the sheet shows an error on the change, within the timeout, and no quote', async (_name, answer) => {
    const session = await server.createSession(secretKey, QUOTED);
    endpoint.answer = answer;
    const started = Date.now();
    const reply = await quoted(session, 'OFFER', { address: US_HOME, option: 'ground', codes: ['TENOFF'] });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 1_500);
    expect(reply).toEqual(otherError('OFFER'));
    expect(await updateProblem(session, reply)).toBeUndefined();
  });

  it('a slow endpoint is given the whole timeout, not less', async () => {
    const session = await server.createSession(secretKey, QUOTED);
    endpoint.answer = (request) => later(TIMEOUT_MS - 400, shopPrices(request));
    expect((await quoted(session, 'INITIALIZE', { address: US_HOME })).quote_id).toMatch(/^qt_/);
    endpoint.answer = never;
    const started = Date.now();
    await quoted(session, 'INITIALIZE', { address: US_HOME });
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
  });

  it('the error is on the part that changed: the address (and the opening, with an address), the option, the code', async () => {
    endpoint.answer = () => ({ status: 503, text: '' });
    const session = await server.createSession(secretKey, QUOTED);
    expect(await quoted(session, 'INITIALIZE', { address: US_HOME })).toEqual(otherError('SHIPPING_ADDRESS'));
    expect(await quoted(session, 'SHIPPING_ADDRESS', { address: GB_OFFICE })).toEqual(otherError('SHIPPING_ADDRESS'));
    expect(await quoted(session, 'SHIPPING_OPTION', { address: US_HOME, option: 'air' })).toEqual(otherError('SHIPPING_OPTION'));
    const codesOnly = await server.createSession(secretKey, { amount: 2400, currency: 'USD', country_code: 'US', quote_endpoint: true, promotion_codes: true });
    expect(await quoted(codesOnly, 'INITIALIZE')).toEqual(otherError('OFFER'));
  });

  it('a price Google Pay cannot show (KWD 1.234 of tax): an error, never a rounded total', async () => {
    const session = await server.createSession(secretKey, { ...QUOTED, amount: 2400, currency: 'KWD', country_code: 'KW' });
    endpoint.answer = () => ({ json: { shipping_options: [{ id: 'ground', label: 'Ground', amount: 500 }], tax: 1234 } });
    expect(await quoted(session, 'INITIALIZE', { address: US_HOME })).toEqual(otherError('SHIPPING_ADDRESS'));
    endpoint.answer = () => ({ json: { shipping_options: [{ id: 'ground', label: 'Ground', amount: 500 }], tax: 1230 } });
    expect((await quoted(session, 'INITIALIZE', { address: US_HOME })).update.newTransactionInfo).toMatchObject({ currencyCode: 'KWD', totalPrice: '4.13' });
  });

  it("once the endpoint is removed, the app's sessions are priced no more", async () => {
    const { secretKey: key } = await server.merchant({ merchant_id: 'merchant_quotes_removed' });
    await setEndpoint(key, endpoint.url);
    const session = await server.createSession(key, QUOTED);
    expect((await merchantCall(key, 'DELETE', '/api/quote_endpoint')).status).toBe(204);
    expect(await quoted(session, 'INITIALIZE', { address: US_HOME })).toEqual(otherError('SHIPPING_ADDRESS'));
    expect(requestsFor(session)).toEqual([]);
  });
});

describe('paying a session priced by the endpoint', () => {
  /** The shopper's choices in the sheet: a US address, air, TENOFF; the latest quote. */
  async function chosen(session: CreatedSession): Promise<string> {
    await quoted(session, 'INITIALIZE', { address: US_HOME });
    await quoted(session, 'SHIPPING_OPTION', { address: US_HOME, option: 'air' });
    const { quote_id } = await quoted(session, 'OFFER', { address: US_HOME, option: 'air', codes: ['TENOFF'] });
    return quote_id!;
  }

  it("asks once more with the full address, then charges exactly the quote's total; the merchant's view shows the quote", async () => {
    const session = await server.createSession(secretKey, QUOTED);
    const quoteId = await chosen(session);
    const reply = await payWith(session, quoteId, 'us-home', 'air', ['TENOFF']);
    expect(reply.status).toBe(200);
    expect(((await reply.json()) as PayReply).outcome.status).toBe('succeeded');

    const [authorization, ...more] = requestsFor(session, 'authorization');
    expect(more).toEqual([]);
    expect(checkSignature(authorization!.signature!, authorization!.body, endpointSecret)).toBe('verified');
    expect(authorization!.request).toMatchObject({
      stage: 'authorization',
      shipping_address: { name: 'Sandbox Shopper', line1: '1 Sandbox Way', line2: 'Apt 4', city: 'San Francisco', state: 'CA', postal_code: '94105-1234', country: 'US' },
      shipping_option: 'air',
      promotion_codes: ['TENOFF'],
    });
    expect(authorization!.request.id).not.toBe(quoteId);

    const [charge, ...others] = await ledgerFor(session.id);
    expect(others).toEqual([]);
    const total = 2400 + 1500 + 204 - 1000;
    expect(charge?.charge.amount).toBe(total);
    const expected = {
      status: 'succeeded',
      amount: 2400,
      amount_charged: total,
      shipping_option: { id: 'air', label: 'Air', amount: 1500 },
      quote: { id: quoteId, shipping_option: { id: 'air', label: 'Air', amount: 1500 }, tax: 204, promotion_codes: [{ code: 'TENOFF', label: 'Ten off', amount: 1000 }], total, created: expect.any(Number) },
    };
    expect(await merchantGet<Session>(`/api/sessions/${session.id}`)).toMatchObject(expected);
    const event = (await merchantGet<EventList>('/api/events?type=session.succeeded&limit=100')).data.find((candidate) => candidate.data.object.id === session.id);
    expect(event?.data.object).toMatchObject(expected);
  });

  it('refuses a payment without a quote, with one never made, or with one a newer replaced', async () => {
    const session = await server.createSession(secretKey, QUOTED);
    const stale = await chosen(session);
    const latest = (await quoted(session, 'OFFER', { address: US_HOME, option: 'air', codes: ['TENOFF'] })).quote_id;
    expect(latest).not.toBe(stale);
    await refused(session, await payWith(session, undefined, 'us-home', 'air', ['TENOFF']), 409, 'quote_mismatch', 'quote_id');
    await refused(session, await payWith(session, 'qt_madeup', 'us-home', 'air', ['TENOFF']), 409, 'quote_mismatch', 'quoted again');
    await refused(session, await payWith(session, stale, 'us-home', 'air', ['TENOFF']), 409, 'quote_mismatch', 'quoted again');
    expect(requestsFor(session, 'authorization')).toEqual([]);
  });

  it.each([
    ['codes other than the quote\'s', 'us-home', 'air', [], 'offerData'],
    ['a code more than the quote\'s', 'us-home', 'air', ['TENOFF', 'BOGUS50'], 'offerData'],
    ['an option other than the quote\'s', 'us-home', 'ground', ['TENOFF'], 'shippingOptionData'],
    ['an address in another country than the quote\'s', 'gb-office', 'air', ['TENOFF'], 'shippingAddress'],
  ])('refuses %s before asking the shop again', async (_name, address, option, codes, named) => {
    const session = await server.createSession(secretKey, QUOTED);
    const quoteId = await chosen(session);
    await refused(session, await payWith(session, quoteId, address, option, codes), 409, 'quote_mismatch', named);
    expect(requestsFor(session, 'authorization')).toEqual([]);
  });

  it('takes the codes in any order', async () => {
    const session = await server.createSession(secretKey, QUOTED);
    endpoint.answer = (request) => ({ json: { shipping_options: [{ id: 'air', label: 'Air', amount: 1500 }], promotion_codes: request.promotion_codes.map((code) => ({ code, label: code, amount: 100 })) } });
    const { quote_id } = await quoted(session, 'OFFER', { address: US_HOME, option: 'air', codes: ['B', 'A'] });
    expect((await payWith(session, quote_id, 'us-home', 'air', ['A', 'B'])).status).toBe(200);
  });

  it('the shop refuses the full address: 422 shipping_address_unserviceable with its message, nothing charged', async () => {
    const session = await server.createSession(secretKey, QUOTED);
    const quoteId = await chosen(session);
    endpoint.answer = (request) => (request.stage === 'authorization' ? { json: { error: { reason: 'shipping_address_unserviceable', message: 'We cannot deliver to apartments' } } } : shopPrices(request));
    await refused(session, await payWith(session, quoteId, 'us-home', 'air', ['TENOFF']), 422, 'shipping_address_unserviceable', 'We cannot deliver to apartments');
  });

  it('the full address costs another total: 409 quote_mismatch, nothing charged', async () => {
    const session = await server.createSession(secretKey, QUOTED);
    const quoteId = await chosen(session);
    // San Francisco's own tax, which only the full postal code tells.
    endpoint.answer = (request) => {
      const reply = shopPrices(request);
      return request.stage === 'authorization' && 'json' in reply ? { json: { ...(reply.json as object), tax: 210 } } : reply;
    };
    await refused(session, await payWith(session, quoteId, 'us-home', 'air', ['TENOFF']), 409, 'quote_mismatch', 'differs');
  });

  it('the shop no longer offers the option, or the code, for the full address: 409, nothing charged', async () => {
    const session = await server.createSession(secretKey, QUOTED);
    const quoteId = await chosen(session);
    endpoint.answer = (request) => (request.stage === 'authorization' ? { json: { shipping_options: [{ id: 'ground', label: 'Ground', amount: 500 }], tax: 204 } } : shopPrices(request));
    await refused(session, await payWith(session, quoteId, 'us-home', 'air', ['TENOFF']), 409, 'quote_mismatch', 'Air is not offered');
    endpoint.answer = (request) => (request.stage === 'authorization' ? { json: { shipping_options: [{ id: 'air', label: 'Air', amount: 1500 }], tax: 204 } } : shopPrices(request));
    await refused(session, await payWith(session, quoteId, 'us-home', 'air', ['TENOFF']), 409, 'quote_mismatch', 'TENOFF');
  });

  it.each<[string, TestQuoteEndpoint['answer']]>([
    ['does not answer in time', () => new Promise(() => {})],
    ['answers 500', () => ({ status: 500, text: '' })],
    ['answers what is no QuoteAnswer', () => ({ json: { price: 3104 } })],
  ])('the endpoint %s at payment: 503 quote_unavailable, nothing charged', async (_name, answer) => {
    const session = await server.createSession(secretKey, QUOTED);
    const quoteId = await chosen(session);
    endpoint.answer = (request) => (request.stage === 'authorization' ? answer(request) : shopPrices(request));
    const started = Date.now();
    await refused(session, await payWith(session, quoteId, 'us-home', 'air', ['TENOFF']), 503, 'quote_unavailable', 'Nothing was charged');
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 2_000);
    // The session stays payable: once the shop answers again, the same quote is paid.
    endpoint.answer = shopPrices;
    expect((await payWith(session, quoteId, 'us-home', 'air', ['TENOFF'])).status).toBe(200);
  });

  it('a quote made while the payment is being checked leaves the payment nothing to claim: 409, nothing charged, the new quote payable', async () => {
    const session = await server.createSession(secretKey, QUOTED);
    const quoteId = await chosen(session);
    let meanwhile: QuoteReply | undefined;
    // While the shop prices the full address, the sheet (another tab) makes a newer quote of the same price.
    endpoint.answer = async (request) => {
      if (request.stage === 'authorization' && !meanwhile) meanwhile = await quoted(session, 'OFFER', { address: US_HOME, option: 'air', codes: ['TENOFF'] });
      return shopPrices(request);
    };
    await refused(session, await payWith(session, quoteId, 'us-home', 'air', ['TENOFF']), 409, 'quote_mismatch', 'quoted again while');
    expect(meanwhile?.quote_id).toMatch(/^qt_/);
    const paid = await payWith(session, meanwhile?.quote_id, 'us-home', 'air', ['TENOFF']);
    expect(paid.status).toBe(200);
    expect(await merchantGet<Session>(`/api/sessions/${session.id}`)).toMatchObject({ status: 'succeeded', quote: { id: meanwhile?.quote_id } });
  });
});

describe('the logs', () => {
  it('hold no request to the endpoint and no answer: no address, code, label or secret; a failure by its kind only', () => {
    const log = readFileSync(logFile, 'utf8');
    const failures = log
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string; failure?: string; stage?: string })
      .filter((line) => line.msg === 'quote endpoint failed');
    expect(failures.map((line) => line.failure)).toEqual(
      expect.arrayContaining([
        `no complete answer within ${TIMEOUT_MS} ms`,
        'the endpoint answered HTTP 500',
        'the answer is not JSON',
        'the answer is larger than 65536 bytes',
        expect.stringMatching(/^the answer is not a QuoteAnswer: /),
        expect.stringMatching(/^a total out of bounds/),
        expect.stringMatching(/^a price Google Pay cannot show/),
      ]),
    );
    expect(failures.map((line) => line.stage)).toEqual(expect.arrayContaining(['sheet', 'authorization']));
    for (const text of ['San Francisco', '94105', 'Sandbox Way', 'Sandbox Shopper', 'London', 'SW1', 'TENOFF', 'BOGUS50', 'Ten off', 'Australia', 'apartments', 'ground is 5.00', 'discount', endpointSecret, 'qsec_']) {
      expect(log, text).not.toContain(text);
    }
  });
});
