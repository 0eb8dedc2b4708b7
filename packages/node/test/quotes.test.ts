/**
 * The library's side of the merchant's quote endpoint: `quoteEndpoint` against a stub of the API on
 * 127.0.0.1 (what each call sends, what it makes of the replies), and `quotes.verify` on requests
 * signed with the backend's own recipe (contracts/webhook-signature.ts).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signatureHeader } from '../../../contracts/webhook-signature';
import { listen, type Listening } from '../../../testing/listen';
import { stubApi } from '../../../testing/stub-api';
import { type CreatedQuoteEndpoint, type QuoteRequest, QuoteVerificationError, quotes, WalletCheckout, WalletCheckoutApiError, WalletCheckoutError } from '../src';

const SECRET_KEY = 'sk_test_quote_endpoint_stub';

const { received, replies, handler, reset } = stubApi();
let api: Listening;

beforeAll(async () => {
  api = await listen(handler);
});
afterAll(() => api.close());
beforeEach(reset);

const client = () => new WalletCheckout(SECRET_KEY, { baseUrl: api.origin, retryBaseDelayMs: 1 });

describe('quoteEndpoint', () => {
  const created: CreatedQuoteEndpoint = { object: 'quote_endpoint', url: 'https://shop.example/quote', created: 1_767_225_600, secret: 'qsec_stubbed' };

  it('sets the endpoint with a PUT of its url, and answers the endpoint with its new secret', async () => {
    replies.push({ status: 200, body: created });
    expect(await client().quoteEndpoint.set({ url: 'https://shop.example/quote' })).toEqual(created);
    const [put] = received;
    expect(put).toMatchObject({ method: 'PUT', path: '/api/quote_endpoint', body: JSON.stringify({ url: 'https://shop.example/quote' }) });
    expect(put!.headers).toMatchObject({ authorization: `Bearer ${SECRET_KEY}`, 'content-type': 'application/json' });
    // Sent again, a PUT replaces what the first set: no idempotency key is needed, and none is sent.
    expect(put!.headers).not.toHaveProperty('idempotency-key');
  });

  it('sends a PUT again when the API fails, and answers the reply that came', async () => {
    replies.push({ status: 503, body: { error: { code: 'store_unavailable', message: 'try again' } } }, { status: 200, body: created });
    expect((await client().quoteEndpoint.set({ url: created.url })).secret).toBe('qsec_stubbed');
    expect(received.map(({ method, path }) => `${method} ${path}`)).toEqual(['PUT /api/quote_endpoint', 'PUT /api/quote_endpoint']);
  });

  it("reads the endpoint without a body, and passes on the API's 404 when none is set", async () => {
    const { secret: _secret, ...endpoint } = created;
    replies.push({ status: 200, body: endpoint }, { status: 404, body: { error: { code: 'not_found', message: 'No quote endpoint is set' } } });
    const walletCheckout = client();
    expect(await walletCheckout.quoteEndpoint.retrieve()).toEqual(endpoint);
    const missing = await walletCheckout.quoteEndpoint.retrieve().catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(WalletCheckoutApiError);
    expect(missing).toMatchObject({ status: 404, code: 'not_found', requestId: 'req_stub' });
    expect(received.map(({ method, path, body }) => `${method} ${path} ${body}`)).toEqual(['GET /api/quote_endpoint ', 'GET /api/quote_endpoint ']);
  });

  it('deletes the endpoint: a 204 without a body is done, not an unexpected reply', async () => {
    replies.push({ status: 204 });
    await expect(client().quoteEndpoint.delete()).resolves.toBeUndefined();
    expect(received).toMatchObject([{ method: 'DELETE', path: '/api/quote_endpoint', body: '' }]);
    expect(received[0]!.headers).not.toHaveProperty('content-type');
  });
});

describe('quotes.verify', () => {
  const secret = 'qsec_the_endpoints_own';
  const request: QuoteRequest = {
    object: 'quote_request',
    id: 'qr_1',
    stage: 'sheet',
    session: 'cs_1',
    reference: 'order-1',
    amount: 2400,
    currency: 'usd',
    line_items: [{ label: 'Coffee', kind: 'item', amount: 2400 }],
    shipping_address: { country: 'GB', city: 'London', postal_code: 'SW1A' },
    shipping_option: null,
    promotion_codes: ['WELCOME10'],
    created: 1_767_225_600,
  };
  const body = JSON.stringify(request);
  const now = Math.floor(Date.now() / 1000);
  const header = signatureHeader([secret], body, now);

  const refusal = (verify: () => unknown) => {
    try {
      verify();
    } catch (error) {
      expect(error).toBeInstanceOf(QuoteVerificationError);
      expect(error).toBeInstanceOf(WalletCheckoutError);
      return (error as QuoteVerificationError).code;
    }
    throw new Error('the quote request verified');
  };

  it('returns the typed request signed with the endpoint secret, from a string or the raw bytes', () => {
    const verified = quotes.verify(body, header, secret);
    expect(verified).toEqual(request);
    expect(verified.shipping_address?.country).toBe('GB');
    expect(quotes.verify(Buffer.from(body), [header], secret)).toEqual(request);
    expect(client().quotes.verify(body, header, secret)).toEqual(request);
  });

  it('refuses a tampered body, a wrong secret, an old timestamp, a malformed header and a body that is not JSON, saying which', () => {
    const tampered = body.replace('"amount":2400', '"amount":24');
    expect(tampered).not.toBe(body);
    expect(refusal(() => quotes.verify(tampered, header, secret))).toBe('no_matching_signature');
    expect(refusal(() => quotes.verify(JSON.stringify(request, null, 1), header, secret))).toBe('no_matching_signature');
    expect(refusal(() => quotes.verify(body, header, 'qsec_not_the_endpoints'))).toBe('no_matching_signature');
    expect(refusal(() => quotes.verify(body, signatureHeader([secret], body, now - 301), secret))).toBe('stale_timestamp');
    expect(refusal(() => quotes.verify(body, header, secret, { now: now + 301 }))).toBe('stale_timestamp');
    expect(quotes.verify(body, header, secret, { now: now + 301, toleranceSeconds: 600 })).toEqual(request);
    expect(refusal(() => quotes.verify(body, undefined, secret))).toBe('malformed_header');
    expect(refusal(() => quotes.verify(body, header.replace(/t=\d+/, 't=soon'), secret))).toBe('malformed_header');
    expect(refusal(() => quotes.verify('not json', signatureHeader([secret], 'not json', now), secret))).toBe('invalid_payload');
  });

  it('accepts either secret while the endpoint is being replaced, and needs one', () => {
    expect(quotes.verify(body, header, ['qsec_the_next_one', secret])).toEqual(request);
    expect(() => quotes.verify(body, header, '')).toThrow(/quotes\.verify: the endpoint secret \(qsec_\.\.\.\) is required/);
    expect(() => quotes.verify(body, header, [])).toThrow(TypeError);
  });
});
