/**
 * The demo store's quote endpoint as a unit: its prices for the sandbox wallet's five addresses,
 * its promotion code, and its route, mounted with the demo's other routes in front of a stub of the
 * API on 127.0.0.1 that records every call the demo makes: the endpoint is set at start, a signed
 * request is priced, a forged one is refused, and pricing calls the API for nothing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import type { QuoteAddress, QuoteRequest } from '../../contracts';
import { signatureHeader } from '../../contracts/webhook-signature';
import { bodyEdge } from '../../common/http/body';
import { walletShippingAddresses } from '../../sandbox/shipping-addresses';
import { listen, type Listening } from '../../testing/listen';
import { demoBodies, demoRoutes } from '.';
import { DEMO_QUOTE_PATH, quoteFor } from './quote-endpoint';

/** A sandbox wallet address as the backend sends it while the shopper is in the sheet: redacted. */
function redacted(id: string): QuoteAddress {
  const { address } = walletShippingAddresses.find((candidate) => candidate.id === id)!;
  return { country: address.countryCode, state: address.administrativeArea, city: address.locality, postal_code: address.postalCode?.slice(0, 5) };
}

const request = (changes: Partial<QuoteRequest> = {}): QuoteRequest => ({
  object: 'quote_request',
  id: 'qr_test',
  stage: 'sheet',
  session: 'cs_test',
  reference: 'A1B2C3D4',
  amount: 2400,
  currency: 'usd',
  line_items: [{ label: 'House roast coffee, 1 kg', kind: 'item', amount: 2400 }],
  shipping_address: redacted('us-home'),
  shipping_option: null,
  promotion_codes: [],
  created: Math.floor(Date.now() / 1000),
  ...changes,
});

const optionPrices = (answer: ReturnType<typeof quoteFor>) => ('shipping_options' in answer ? answer.shipping_options?.map(({ id, amount }) => `${id} ${amount}`) : answer);

describe('the demo store prices a quote by zone', () => {
  it('offers each sandbox address its zone: cheap and fast at home, dearer abroad, one slow option far away, none in Oceania', () => {
    expect(optionPrices(quoteFor(request({ shipping_address: redacted('us-home') })))).toEqual(['standard 500', 'express 1500']);
    expect(optionPrices(quoteFor(request({ shipping_address: redacted('ca-home') })))).toEqual(['standard 1200', 'tracked 2000']);
    expect(optionPrices(quoteFor(request({ shipping_address: redacted('gb-office') })))).toEqual(['international 1400', 'tracked 2600']);
    expect(optionPrices(quoteFor(request({ shipping_address: redacted('jp-tokyo') })))).toEqual(['international 2800']);
    expect(quoteFor(request({ shipping_address: redacted('au-remote') }))).toEqual({
      error: { reason: 'shipping_address_unserviceable', message: 'Demo Coffee Roasters does not deliver to Australia or New Zealand yet' },
    });
    // A country in no zone (a session the demo's product page did not make) is refused too, never priced at some default.
    expect(quoteFor(request({ shipping_address: { country: 'BR' } }))).toMatchObject({ error: { reason: 'shipping_address_unserviceable' } });
  });

  it("charges California's sales tax on the goods, and no tax on an address abroad", () => {
    expect(quoteFor(request({ shipping_address: redacted('us-home') }))).toMatchObject({ tax: 174 });
    expect(quoteFor(request({ shipping_address: { country: 'US', state: 'OR' } }))).toMatchObject({ tax: 0 });
    expect(quoteFor(request({ shipping_address: redacted('gb-office') }))).toMatchObject({ tax: 0 });
  });

  it('takes 10% off the goods for WELCOME10, in any case and once, before the tax; any other code is left out, so the sheet refuses it', () => {
    const welcome = quoteFor(request({ promotion_codes: ['welcome10', 'SPRING50', 'WELCOME10'] }));
    expect(welcome).toMatchObject({ promotion_codes: [{ code: 'welcome10', label: 'Welcome: 10% off', amount: 240 }] });
    // 7.25% of $21.60, rounded to the cent.
    expect(welcome).toMatchObject({ tax: 157 });
    expect(quoteFor(request({ promotion_codes: ['SPRING50'] }))).toMatchObject({ promotion_codes: [] });
    // A session that asks no address is priced on its code alone: no delivery, no tax.
    expect(quoteFor(request({ shipping_address: null, promotion_codes: ['WELCOME10'] }))).toEqual({ promotion_codes: [{ code: 'WELCOME10', label: 'Welcome: 10% off', amount: 240 }] });
  });

  it('prices the full address at payment as it priced the redacted one in the sheet, so the total holds', () => {
    const { address } = walletShippingAddresses.find((candidate) => candidate.id === 'us-home')!;
    const full: QuoteAddress = { name: address.name, line1: address.address1, line2: address.address2, city: address.locality, state: address.administrativeArea, postal_code: address.postalCode, country: address.countryCode };
    const codes = { promotion_codes: ['WELCOME10'], shipping_option: 'express' };
    expect(quoteFor(request({ ...codes, stage: 'authorization', shipping_address: full }))).toEqual(quoteFor(request({ ...codes, shipping_address: redacted('us-home') })));
  });
});

/** One call the demo made to the API, as the stub received it. */
interface ApiCall {
  call: string;
  body: string;
}

/** A stub of the API: answers the calls of `replies` (each `METHOD /path` in turn) and records every call. */
async function stubApi(replies: Record<string, { status: number; body: unknown }[]>): Promise<Listening & { calls: ApiCall[] }> {
  const calls: ApiCall[] = [];
  const listening = await listen((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const call = `${req.method} ${req.url}`;
      calls.push({ call, body: Buffer.concat(chunks).toString('utf8') });
      const reply = replies[call]?.shift() ?? { status: 404, body: { error: { code: 'not_found', message: 'No such route' } } };
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
    });
  });
  return { ...listening, calls };
}

const SECRET = 'qsec_demo_test';
const created = { status: 200, body: { object: 'quote_endpoint', url: 'http://127.0.0.1/demo/quote', created: 1, secret: SECRET } };

const running: Listening[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

/** The demo's routes behind the body edge, as the backend mounts them, in front of `api`. */
async function demo(api: Listening): Promise<Listening> {
  const app = express();
  app.use(bodyEdge(demoBodies));
  app.use(demoRoutes({ apiBase: api.origin, secretKey: 'sk_test_demo', webhookSecret: 'whsec_demo' }));
  const listening = await listen(app);
  running.push(listening);
  return listening;
}

describe("the demo store's quote route", () => {
  const post = (store: Listening, body: string, signature: string | undefined) =>
    fetch(`${store.origin}${DEMO_QUOTE_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(signature && { 'wallet-checkout-signature': signature }) }, body });
  const now = () => Math.floor(Date.now() / 1000);

  it('sets its endpoint at start, prices a signed request, and calls the API for nothing else', async () => {
    const stub = await stubApi({ 'PUT /api/quote_endpoint': [created] });
    running.push(stub);
    // Nothing asked of the demo yet: it sets its endpoint as it starts.
    const store = await demo(stub);
    await expect.poll(() => stub.calls.length).toBe(1);
    // The demo is served where the API is (the backend embeds it), so its endpoint is on the API's origin.
    expect(stub.calls[0]).toEqual({ call: 'PUT /api/quote_endpoint', body: JSON.stringify({ url: `${stub.origin}${DEMO_QUOTE_PATH}` }) });

    const body = JSON.stringify(request({ shipping_address: redacted('gb-office'), promotion_codes: ['WELCOME10'] }));
    const priced = await post(store, body, signatureHeader([SECRET], body, now()));
    expect(priced.status).toBe(200);
    expect(await priced.json()).toEqual({
      shipping_options: [
        { id: 'international', label: 'International', detail: '6 to 10 days', amount: 1400 },
        { id: 'tracked', label: 'Tracked', detail: '4 to 6 days', amount: 2600 },
      ],
      tax: 0,
      promotion_codes: [{ code: 'WELCOME10', label: 'Welcome: 10% off', amount: 240 }],
    });
    // Pricing is all it does: no session, capture or refund is asked of the API.
    expect(stub.calls.map(({ call }) => call)).toEqual(['PUT /api/quote_endpoint']);
  });

  it('refuses a request it cannot verify with 401, and one in a currency its table has no prices for with 400', async () => {
    const stub = await stubApi({ 'PUT /api/quote_endpoint': [created] });
    running.push(stub);
    const store = await demo(stub);
    await expect.poll(() => stub.calls.length).toBe(1);
    const body = JSON.stringify(request());
    const forged = [signatureHeader(['qsec_someone_else'], body, now()), signatureHeader([SECRET], body, now() - 600), undefined];
    for (const signature of forged) {
      const refused = await post(store, body, signature);
      expect(refused.status).toBe(401);
      expect((await refused.json()).error.code).toBe('unauthenticated');
    }
    const tampered = body.replace('"amount":2400', '"amount":1');
    expect((await post(store, tampered, signatureHeader([SECRET], body, now()))).status).toBe(401);

    const euros = JSON.stringify(request({ currency: 'eur' }));
    const refused = await post(store, euros, signatureHeader([SECRET], euros, now()));
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.code).toBe('invalid_request');
    expect(stub.calls.map(({ call }) => call)).toEqual(['PUT /api/quote_endpoint']);
  });

  it('refuses every request while its endpoint is not set, and the product page passes on why it could not set it', async () => {
    const refusal = { status: 400, body: { error: { code: 'url_not_allowed', message: 'The URL resolves to a private address' } } };
    const stub = await stubApi({ 'PUT /api/quote_endpoint': [refusal, refusal] });
    running.push(stub);
    const store = await demo(stub);
    await expect.poll(() => stub.calls.length).toBe(1);
    const body = JSON.stringify(request());
    expect((await post(store, body, signatureHeader([SECRET], body, now()))).status).toBe(401);

    // The page tries once more, then shows the API's refusal rather than a session the backend would refuse.
    const page = await fetch(`${store.origin}/product`);
    expect(page.status).toBe(400);
    expect((await page.json()).error.code).toBe('url_not_allowed');
    expect(stub.calls.map(({ call }) => call)).toEqual(['PUT /api/quote_endpoint', 'PUT /api/quote_endpoint']);
  });

  it('creates the product page session priced by the endpoint, with promotion codes, once the endpoint is set', async () => {
    const session = { object: 'checkout_session', id: 'cs_stub', client_secret: 'cs_stub_secret_x', public_view: {}, status: 'open', amount: 2400, currency: 'USD', reference: 'A1B2C3D4', updated: 1 };
    const stub = await stubApi({ 'PUT /api/quote_endpoint': [created], 'POST /api/sessions': [{ status: 200, body: session }] });
    running.push(stub);
    const store = await demo(stub);
    const page = await fetch(`${store.origin}/product`);
    expect(page.status).toBe(200);
    const html = (await page.text()).replace(/\u00a0/g, ' ');
    expect(html).toContain('United States: from $5.00 · Canada: from $12.00 · Europe: from $14.00 · Far East: from $28.00 · Oceania: not yet');
    expect(html).toContain('WELCOME10 (Welcome: 10% off)');
    expect(stub.calls.map(({ call }) => call)).toEqual(['PUT /api/quote_endpoint', 'POST /api/sessions']);
    const params = JSON.parse(stub.calls[1]!.body);
    expect(params).toMatchObject({ quote_endpoint: true, promotion_codes: true, shipping: { phone: true, options: [{ id: 'standard', amount: 500 }, { id: 'express', amount: 1500 }] } });
    // Every sandbox address's country is in the sheet: Australia too, so that the shopper reads why it is refused.
    expect(params.shipping.countries).toEqual(expect.arrayContaining(walletShippingAddresses.map(({ address }) => address.countryCode)));
  });
});
