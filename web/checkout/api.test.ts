import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { withPagePrototypes } from '../../testing/page-prototypes';
import { carriedView, CheckoutApiError, errorCodeOf, fetchPublicSession, normalizeApiBase, parseClientSecret, postAuthentication, postPayment, postQuote, resolveScriptUrl } from './api';

/**
 * The backend, as the widget's calls reach it: each request's body, answered with a payment's reply. In
 * place before the widget's modules load, as the browser's fetch is before our script: they take it then.
 */
const backend = vi.hoisted(() => {
  const pageFetch = globalThis.fetch;
  delete (globalThis as Record<string, unknown>).__walletCheckoutBuiltins;
  const bodies: unknown[] = [];
  const urls: unknown[] = [];
  const headers: unknown[] = [];
  globalThis.fetch = async (url, init) => {
    urls.push(url);
    headers.push(init?.headers);
    bodies.push(init?.body);
    return new Response('{"outcome":{"status":"succeeded"},"session":{}}', { headers: { 'content-type': 'application/json' } });
  };
  return { bodies, urls, headers, pageFetch };
});
afterAll(() => {
  globalThis.fetch = backend.pageFetch;
  delete (globalThis as Record<string, unknown>).__walletCheckoutBuiltins;
});

describe('parseClientSecret', () => {
  it('takes the session id before _secret_', () => {
    expect(parseClientSecret('cs_abc123_secret_xyz')).toBe('cs_abc123');
    expect(parseClientSecret('cs_a_secret_b_secret_c')).toBe('cs_a');
  });
  it('rejects malformed secrets', () => {
    for (const s of ['', 'cs_abc123', '_secret_xyz', 'cs_abc_secret_', 42, undefined, null]) {
      expect(parseClientSecret(s)).toBeNull();
    }
  });
});

describe('urls', () => {
  it('normalizes apiBase and resolves the sandbox script', () => {
    expect(normalizeApiBase('https://pay.example/')).toBe('https://pay.example');
    expect(resolveScriptUrl('/sandbox-wallet.js', 'https://pay.example')).toBe('https://pay.example/sandbox-wallet.js');
    expect(resolveScriptUrl('static/w.js', 'https://pay.example/checkout')).toBe('https://pay.example/checkout/static/w.js');
    expect(resolveScriptUrl('https://cdn.example/w.js', 'https://pay.example')).toBe('https://cdn.example/w.js');
  });
});

describe('errorCodeOf', () => {
  it('names what went wrong without leaking server internals', () => {
    const code = (status: number, otherwise: 'server_error' | 'payment_failed' = 'server_error') => errorCodeOf(new CheckoutApiError(status, 'x', 'x'), otherwise);
    expect(code(0)).toBe('network_error');
    expect(code(401)).toBe('session_unauthorized');
    expect(code(403)).toBe('session_unauthorized');
    expect(code(404)).toBe('session_not_found');
    expect(code(500)).toBe('server_error');
    expect(code(400)).toBe('server_error');
    expect(code(400, 'payment_failed')).toBe('payment_failed');
    expect(code(502, 'payment_failed')).toBe('server_error');
  });
  it('tells the shopper a store outage is brief, whatever the call: "try again shortly", not "something went wrong"', () => {
    expect(errorCodeOf(new CheckoutApiError(503, 'store_unavailable', 'x'), 'payment_failed')).toBe('store_unavailable');
    expect(errorCodeOf(new CheckoutApiError(503, 'store_unavailable', 'x'), 'server_error')).toBe('store_unavailable');
    expect(errorCodeOf(new CheckoutApiError(503, 'direct_mode_unavailable', 'x'), 'payment_failed')).toBe('server_error');
  });
});

describe('errorCodeOf, for a refused origin', () => {
  it("names a refused origin for what it is, not as a refused secret", () => {
    expect(errorCodeOf(new CheckoutApiError(403, 'origin_not_allowed', 'no'), 'server_error')).toBe('origin_not_allowed');
    expect(errorCodeOf(new CheckoutApiError(401, 'unauthenticated', 'no'), 'server_error')).toBe('session_unauthorized');
  });
});

describe('carriedView: the session view a page hands to the widget', () => {
  const view = { id: 'cs_1', status: 'open', amount: 2400, currency: 'EUR', currency_exponent: 2, merchant_name: 'Shop', wallet: {}, payment_data_request: {} };

  it("keeps the server's formatted amount when it is shaped like one", () => {
    const display = { locale: 'de', text: '24,00 €' };
    expect(carriedView({ ...view, amount_display: display }, 'cs_1')?.amount_display).toEqual(display);
  });

  it('drops a formatted amount that is not text, or missing, so the widget formats the amount itself', () => {
    for (const amount_display of [{ locale: 'de', text: { html: '<b>0 €</b>' } }, 'text', undefined])
      expect(carriedView({ ...view, amount_display }, 'cs_1')).toMatchObject({ amount: 2400, amount_display: null });
  });

  it("refuses another session's view", () => {
    expect(carriedView(view, 'cs_2')).toBeNull();
  });
});

describe("the widget's calls beside the page's prototypes", () => {
  // As Google sends it, with its one array: the offer codes the shopper redeemed (offerData.redemptionCodes).
  const paymentData = {
    apiVersion: 2,
    apiVersionMinor: 0,
    offerData: { redemptionCodes: ['WELCOME10', 'FREESHIP'] },
    paymentMethodData: {
      type: 'CARD',
      description: 'Visa •••• 1111',
      info: { cardNetwork: 'VISA', cardDetails: '1111', assuranceDetails: { accountVerified: true, cardHolderAuthenticated: false }, billingAddress: { name: 'Zoë "Z" Doe', address1: '1 Rue\nde la Paix', countryCode: 'FR', postalCode: '75002' } },
      tokenizationData: { type: 'PAYMENT_GATEWAY', token: '{"signature":"MEU=","intermediateSigningKey":{"signedKey":"{}","signatures":["MEQ="]},"protocolVersion":"ECv2","signedMessage":"{}"}' },
    },
  } as unknown as Parameters<typeof postPayment>[3];
  /** The bodies of a payment and a 3-D Secure step, as the widget sends them now. */
  const send = () => {
    const from = backend.bodies.length;
    const calls = [postPayment('https://pay.example', 'cs_1', 'cs_1_secret_x', paymentData), postAuthentication('https://pay.example', 'cs_1', 'cs_1_secret_x', { cancel: true })];
    // fetch is called as the call starts, before its first wait: the bodies are written under the patches.
    return { bodies: backend.bodies.slice(from), replies: Promise.all(calls) };
  };

  it('sends the same bytes beside Prototype.js 1.6 (toJSON on Array, String, Number, Date) as without it', async () => {
    const plain = send();
    const beside = withPagePrototypes(send);
    expect(beside.bodies).toEqual(plain.bodies);
    expect(plain.bodies).toEqual([JSON.stringify({ payment_data: paymentData }), '{"cancel":true}']);
    await Promise.all([plain.replies, beside.replies]);
  });

  it('and beside a toJSON and an enumerable property on Object.prototype', async () => {
    const plain = send();
    const beside = withPagePrototypes(send, { objectPrototype: true });
    expect(beside.bodies).toEqual(plain.bodies);
    await Promise.all([plain.replies, beside.replies]);
  });

  it("names the session's latest quote in the payment, and tells the relay the change only", async () => {
    const from = backend.bodies.length;
    await postPayment('https://pay.example', 'cs_1', 'cs_1_secret_x', paymentData, 'qt_1');
    await postQuote('https://pay.example', 'cs_1', 'cs_1_secret_x', { callbackTrigger: 'SHIPPING_OPTION', shippingAddress: undefined, shippingOptionData: { id: 'express' } });
    expect(backend.bodies.slice(from)).toEqual([
      JSON.stringify({ payment_data: paymentData, quote_id: 'qt_1' }),
      '{"intermediate_payment_data":{"callbackTrigger":"SHIPPING_OPTION","shippingOptionData":{"id":"express"}}}',
    ]);
    expect(backend.urls.slice(from)).toEqual(['https://pay.example/api/sessions/cs_1/pay', 'https://pay.example/api/sessions/cs_1/quote']);
  });

  it('calls the fetch the page had when the widget loaded, not one it put in its place since', async () => {
    const replaced = globalThis.fetch;
    globalThis.fetch = () => Promise.reject(new Error("the page's fetch"));
    try {
      const { bodies, replies } = send();
      expect(bodies).toHaveLength(2);
      await expect(replies).resolves.toHaveLength(2);
    } finally {
      globalThis.fetch = replaced;
    }
  });
});

describe('fetchPublicSession', () => {
  it('asks with the view key in the URL (the secret\'s SHA-256, base64url) and no header a browser would preflight', async () => {
    const secret = 'cs_abc123_secret_xyz';
    await fetchPublicSession('https://checkout.example', 'cs_abc123', secret);
    const key = createHash('sha256').update(secret).digest('base64url');
    expect(backend.urls.at(-1)).toBe(`https://checkout.example/api/sessions/cs_abc123/public?view_key=${key}`);
    // Accept is CORS-safelisted; Authorization or Content-Type: application/json would be preflighted.
    expect(backend.headers.at(-1)).toEqual({ Accept: 'application/json' });
    expect(String(backend.urls.at(-1))).not.toContain('xyz');
  });

  it('sends the secret in the Authorization header on every other call', async () => {
    await postQuote('https://checkout.example', 'cs_abc123', 'cs_abc123_secret_xyz', { callbackTrigger: 'SHIPPING_OPTION', shippingAddress: undefined, shippingOptionData: { id: 'express' } });
    expect(backend.headers.at(-1)).toMatchObject({ Authorization: 'Bearer cs_abc123_secret_xyz' });
  });
});
