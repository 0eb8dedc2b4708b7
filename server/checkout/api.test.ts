/**
 * The checkout API over real HTTP, against the embedded sandbox service.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentData } from '../../contracts';
import { createApp } from '../apps';
import { registeredDirectKey } from '../../testing/direct-keys';
import { startTestServer, type TestServer } from '../../testing/harness';

let server: TestServer;
let secretKey: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ secretKey } = await server.merchant({ merchant_id: 'shop42', allowed_origins: ['https://shop.example'] }));
});
afterAll(() => server.close());

const merchantGet = (path: string, key = secretKey) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
const ledgerFor = async (sessionId: string) => (await server.sandbox!.ledger()).filter((entry) => entry.idempotency_key?.startsWith(`${sessionId}:`));

describe('creating a session', () => {
  const post = (body: unknown, key = secretKey) =>
    fetch(`${server.url}/api/sessions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it("carries the widget's view of the new session, the same as the widget's own request gets", async () => {
    const created = await server.createSession(secretKey);
    expect(created.public_view).toEqual(await server.publicSession(created));
    expect(created.public_view?.status).toBe('open');
    expect(created.public_view?.amount_display).toBeNull();
  });

  it("formats the view's amount for the shopper's locale when the merchant names it, as the browser's Intl would", async () => {
    const created = await server.createSession(secretKey, { amount: 123456, currency: 'JPY', locale: 'ja_JP' });
    const jpy = new Intl.NumberFormat('ja-JP', { style: 'currency', currency: 'JPY' }).format(123456);
    expect(created.public_view?.amount_display).toEqual({ locale: 'ja-JP', text: jpy });
    // Kuwait's dinar has three minor digits: 123450 is 123.450, shown so though Google Pay is asked for 123.45.
    const kwd = await server.createSession(secretKey, { amount: 123450, currency: 'KWD', locale: 'en-US' });
    expect(kwd.public_view?.amount_display?.text).toBe(new Intl.NumberFormat('en-US', { style: 'currency', currency: 'KWD', minimumFractionDigits: 3 }).format(123.45));
    expect(kwd.public_view?.payment_data_request.transactionInfo?.totalPrice).toBe('123.45');
    // Not stored: the session's own reads, the merchant's and the widget's, carry no locale.
    expect((await server.publicSession(created)).amount_display).toBeNull();
    expect(await (await merchantGet(`/api/sessions/${created.id}`)).json()).not.toHaveProperty('locale');
  });

  it('needs the secret key', async () => {
    const reply = await post({ amount: 100, currency: 'USD', country_code: 'US' }, 'sk_test_wrong');
    expect(reply.status).toBe(401);
    expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await reply.json()).error.code).toBe('unauthenticated');
  });

  it.each([
    [{ amount: 10.5, currency: 'USD', country_code: 'US' }, 'amount'],
    [{ amount: -1, currency: 'USD', country_code: 'US' }, 'amount'],
    [{ amount: 100, currency: 'XYZ', country_code: 'US' }, 'currency'],
    // ISO 4217 codes that are not money a shopper pays in: a fund, gold, the test code.
    [{ amount: 100, currency: 'BOV', country_code: 'BO' }, 'currency'],
    [{ amount: 100, currency: 'XAU', country_code: 'US' }, 'currency'],
    [{ amount: 100, currency: 'XTS', country_code: 'US' }, 'currency'],
    [{ amount: 100, currency: 'USD', country_code: 'USA' }, 'country_code'],
    [{ amount: 100, currency: 'USD', country_code: 'US', colour: 'red' }, 'colour'],
    // POSIX's "no locale", and what is no language tag at all.
    [{ amount: 100, currency: 'USD', country_code: 'US', locale: 'C' }, 'locale'],
    [{ amount: 100, currency: 'USD', country_code: 'US', locale: 'x!' }, 'locale'],
  ])('refuses %j naming the field', async (body, field) => {
    const reply = await post(body);
    expect(reply.status).toBe(400);
    const { error } = await reply.json();
    expect(error.code).toBe('invalid_request');
    expect(error.message).toContain(field);
  });

  it('returns the session with a client secret, shown only at creation', async () => {
    const session = await server.createSession(secretKey, { amount: 1999, currency: 'eur', country_code: 'fr', reference: 'order-1' });
    expect(session).toMatchObject({ object: 'checkout_session', status: 'open', amount: 1999, currency: 'EUR', country_code: 'FR', reference: 'order-1', intent: 'charge', attempts: 0, outcome: null });
    expect(session.client_secret).toMatch(new RegExp(`^${session.id}_secret_`));
    const read = await (await merchantGet(`/api/sessions/${session.id}`)).json();
    expect(read).not.toHaveProperty('client_secret');
    expect(read.id).toBe(session.id);
  });

  it('hides sessions from other applications', async () => {
    const session = await server.createSession(secretKey);
    const other = await server.merchant({ merchant_id: 'other' });
    expect((await merchantGet(`/api/sessions/${session.id}`, other.secretKey)).status).toBe(404);
  });
});

describe("the widget's view of a session", () => {
  it('carries the amount and the Google Pay request built by the server', async () => {
    const session = await server.createSession(secretKey, { amount: 500, currency: 'JPY', country_code: 'JP' });
    const view = await server.publicSession(session);
    expect(view).toMatchObject({ id: session.id, amount: 500, currency: 'JPY', currency_exponent: 0, merchant_name: 'Test Shop', wallet: { environment: 'SANDBOX' } });
    expect(view.payment_data_request.transactionInfo).toEqual({
      totalPriceStatus: 'FINAL',
      totalPrice: '500',
      currencyCode: 'JPY',
      countryCode: 'JP',
      transactionId: session.id,
      checkoutOption: 'COMPLETE_IMMEDIATE_PURCHASE',
    });
    expect(view.payment_data_request.allowedPaymentMethods[0]?.tokenizationSpecification).toEqual({
      type: 'PAYMENT_GATEWAY',
      parameters: { gateway: 'walletcheckout', gatewayMerchantId: 'mrchnt_shop42' },
    });
  });

  it('needs the client secret of that very session', async () => {
    const a = await server.createSession(secretKey);
    const b = await server.createSession(secretKey);
    const read = (id: string, secret: string) => fetch(`${server.url}/api/sessions/${id}/public`, { headers: { authorization: `Bearer ${secret}` } });
    expect((await read(a.id, b.client_secret)).status).toBe(401);
    expect((await read(a.id, `${a.id}_secret_guess`)).status).toBe(401);
    expect((await read(a.id, secretKey)).status).toBe(401);
  });

  it('answers allowed origins with CORS, and refuses foreign ones with CORS headers so the widget can read why', async () => {
    const session = await server.createSession(secretKey);
    const read = (origin: string) => fetch(`${server.url}/api/sessions/${session.id}/public`, { headers: { authorization: `Bearer ${session.client_secret}`, origin } });
    const allowed = await read('https://shop.example');
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    const foreign = await read('https://evil.example');
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBe('https://evil.example');
    expect(await foreign.json()).toEqual({ error: { code: 'origin_not_allowed', message: "This page's origin is not allowed to use this checkout" } });
    const preflight = await fetch(`${server.url}/api/sessions/${session.id}/pay`, {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://shop.example');
  });
});

describe('the checkout frame (iframe mode): the embedding page named by Checkout-Embedder-Origin', () => {
  const read = (session: { id: string; client_secret: string }, headers: Record<string, string>) =>
    fetch(`${server.url}/api/sessions/${session.id}/public`, { headers: { authorization: `Bearer ${session.client_secret}`, ...headers } });

  it('serves the frame embedded by an allowed origin, and refuses one embedded by any other', async () => {
    const session = await server.createSession(secretKey);
    // The frame is on our origin: a same-origin read carries no Origin, a POST carries ours.
    expect((await read(session, { 'checkout-embedder-origin': 'https://shop.example' })).status).toBe(200);
    expect((await read(session, { origin: server.url, 'checkout-embedder-origin': 'https://shop.example' })).status).toBe(200);
    for (const embedder of ['https://evil.example', 'null', 'not an origin']) {
      const refused = await read(session, { 'checkout-embedder-origin': embedder });
      expect(refused.status, embedder).toBe(403);
      expect(await refused.json()).toEqual({ error: { code: 'origin_not_allowed', message: "This page's origin is not allowed to use this checkout" } });
    }
  });

  it('is no way around the Origin check for a page on another origin', async () => {
    const session = await server.createSession(secretKey);
    const reply = await read(session, { origin: 'https://evil.example', 'checkout-embedder-origin': 'https://shop.example' });
    expect(reply.status).toBe(403);
    const preflight = await fetch(`${server.url}/api/sessions/${session.id}/public`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization,checkout-embedder-origin' },
    });
    expect(preflight.headers.get('access-control-allow-headers') ?? '').not.toContain('checkout-embedder-origin');
  });
});

describe('paying', () => {
  it('charges the session amount once, with the charge API walletpay source and the wallet billing address', async () => {
    const session = await server.createSession(secretKey, { amount: 2400, currency: 'USD', country_code: 'US' });
    const paymentData = await server.walletPaymentData(session, 'visa-success-3ds');
    const reply = await server.pay(session, { payment_data: paymentData });
    expect(reply.status).toBe(200);
    const { outcome } = await reply.json();
    expect(outcome).toMatchObject({ status: 'succeeded', card: { network: 'VISA', last4: '1111', auth_method: 'CRYPTOGRAM_3DS' } });

    const ledger = await ledgerFor(session.id);
    expect(ledger).toHaveLength(1);
    const address = paymentData.paymentMethodData.info.billingAddress!;
    expect(ledger[0]).toMatchObject({
      merchant_account: 'shop42',
      charge: { id: outcome.charge_id, amount: 2400, currency: 'usd', source_type: 'walletpay', status: 'succeeded' },
    });
    expect(ledger[0]?.charge.billing_details).toMatchObject({ name: address.name, address: { line1: address.address1, city: address.locality, postal_code: address.postalCode, country: address.countryCode } });

    const merchantView = await (await merchantGet(`/api/sessions/${session.id}`)).json();
    expect(merchantView).toMatchObject({ status: 'succeeded', attempts: 1, outcome: { status: 'succeeded', charge_id: outcome.charge_id } });

    const again = await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-success-3ds') });
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe('session_completed');
    expect(await ledgerFor(session.id)).toHaveLength(1);
  });

  it('lets a declined session be paid again with a new attempt', async () => {
    const session = await server.createSession(secretKey);
    const declined = await (await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-decline-3ds') })).json();
    expect(declined.outcome).toMatchObject({ status: 'declined', failure_code: 'card_declined' });
    expect((await merchantGet(`/api/sessions/${session.id}`).then((r) => r.json())).status).toBe('declined');
    const paid = await (await server.pay(session, { payment_data: await server.walletPaymentData(session, 'mastercard-success-pan') })).json();
    expect(paid.outcome.status).toBe('succeeded');
    const ledger = await ledgerFor(session.id);
    expect(ledger.map((entry) => entry.charge.status)).toEqual(['failed', 'succeeded']);
    expect(new Set(ledger.map((entry) => entry.idempotency_key)).size).toBe(2);
  });

  it('lets only one of two concurrent payments through', async () => {
    const session = await server.createSession(secretKey);
    const [a, b] = await Promise.all([server.walletPaymentData(session, 'visa-success-3ds'), server.walletPaymentData(session, 'visa-success-pan')]);
    const replies = await Promise.all([server.pay(session, { payment_data: a }), server.pay(session, { payment_data: b })]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await ledgerFor(session.id)).toHaveLength(1);
  });

  describe('refuses, without any state change', () => {
    let paymentData: PaymentData;
    const cases: [string, (pd: PaymentData) => unknown, string][] = [
      ['an amount sent by the browser', (pd) => ({ payment_data: pd, amount: 1 }), 'invalid_request'],
      ['a currency sent by the browser', (pd) => ({ payment_data: pd, currency: 'jpy' }), 'invalid_request'],
      ['a token that is not JSON', (pd) => ({ payment_data: { ...pd, paymentMethodData: { ...pd.paymentMethodData, tokenizationData: { type: 'PAYMENT_GATEWAY', token: 'not json' } } } }), 'invalid_payment_token'],
      ['a token that is not ECv2', (pd) => ({ payment_data: { ...pd, paymentMethodData: { ...pd.paymentMethodData, tokenizationData: { type: 'PAYMENT_GATEWAY', token: '{"protocolVersion":"ECv1"}' } } } }), 'invalid_payment_token'],
      ['a missing payment_data', () => ({}), 'invalid_request'],
    ];
    it.each(cases)('%s', async (_name, makeBody, code) => {
      const session = await server.createSession(secretKey);
      paymentData ??= await server.walletPaymentData(session, 'visa-success-3ds');
      const reply = await server.pay(session, makeBody(paymentData));
      expect(reply.status).toBe(400);
      expect((await reply.json()).error.code).toBe(code);
      expect(await (await merchantGet(`/api/sessions/${session.id}`)).json()).toMatchObject({ status: 'open', attempts: 0 });
      expect(await ledgerFor(session.id)).toHaveLength(0);
    });

    it('malformed JSON', async () => {
      const session = await server.createSession(secretKey);
      const reply = await server.pay(session, '{"payment_data":');
      expect(reply.status).toBe(400);
      expect((await reply.json()).error.code).toBe('invalid_json');
    });

    it('an oversized body', async () => {
      const session = await server.createSession(secretKey);
      const reply = await server.pay(session, JSON.stringify({ payment_data: 'x'.repeat(100_000) }));
      expect(reply.status).toBe(413);
    });
  });

  it('reports a refusal by the service as failed, charging nothing', async () => {
    const session = await server.createSession(secretKey);
    const paymentData = await server.walletPaymentData(session, 'visa-success-3ds');
    // The same token twice: the service refuses the replayed message id.
    const other = await server.createSession(secretKey);
    expect((await (await server.pay(other, { payment_data: paymentData })).json()).outcome.status).toBe('succeeded');
    const replayed = await (await server.pay(session, { payment_data: paymentData })).json();
    expect(replayed.outcome).toMatchObject({ status: 'failed', failure_code: 'token_already_used' });
    expect(await ledgerFor(session.id)).toHaveLength(0);
  });
});

describe('direct mode', () => {
  // The service reports CRYPTOGRAM_3DS only when the network_token carried three_ds.
  it.each([
    ['visa-success-3ds', 'CRYPTOGRAM_3DS'],
    ['visa-success-pan', 'PAN_ONLY'],
    // A device token without eciIndicator: three_ds goes without eci (docs/direct-mode.md).
    ['mastercard-no-eci-3ds', 'CRYPTOGRAM_3DS'],
  ])('decrypts %s itself and sends a network_token charge', async (card, authMethod) => {
    const direct = await server.merchant({ merchant_id: 'pci1', google_merchant_id: '01234567890123456789', decryption_mode: 'direct' });
    const session = await server.createSession(direct.secretKey);
    const view = await server.publicSession(session);
    expect(view.payment_data_request.allowedPaymentMethods[0]?.tokenizationSpecification.type).toBe('DIRECT');
    // Google's id for the wallet (the token is sealed to merchant:<it>), the service's for the charge.
    expect(view.payment_data_request.merchantInfo.merchantId).toBe('01234567890123456789');
    const { outcome } = await (await server.pay(session, { payment_data: await server.walletPaymentData(session, card) })).json();
    expect(outcome).toMatchObject({ status: 'succeeded', card: { auth_method: authMethod } });
    const [entry] = await ledgerFor(session.id);
    expect(entry?.charge.source_type).toBe('network_token');
    expect(entry?.merchant_account).toBe('pci1');
    expect(entry?.charge.card.auth_method).toBe(authMethod);
  });
});

describe('direct mode keys and replays', () => {
  it('answers direct_key_not_registered until the app has a registered key, then asks the wallet for that key', async () => {
    const created = await createApp(server.store, { name: 'PCI shop', merchant_id: 'pci_keys', google_merchant_id: '01234567890123456789', allowed_origins: ['https://shop.example'], decryption_mode: 'direct' });
    if (!created.ok) throw new Error(created.error.message);
    const session = await server.createSession(created.value.secretKey);
    const view = await fetch(`${server.url}/api/sessions/${session.id}/public`, { headers: { authorization: `Bearer ${session.client_secret}` } });
    expect(view.status).toBe(503);
    expect((await view.json()).error.code).toBe('direct_key_not_registered');

    const key = await registeredDirectKey(server.directKeys, created.value.app.id);
    const request = (await server.publicSession(session)).payment_data_request;
    expect(request.allowedPaymentMethods[0]?.tokenizationSpecification).toEqual({ type: 'DIRECT', parameters: { protocolVersion: 'ECv2', publicKey: key.publicKey } });
  });

  it('refuses a token it has already opened as replayed_token, and charges it once', async () => {
    const direct = await server.merchant({ merchant_id: 'pci_replay', google_merchant_id: '01234567890123456789', decryption_mode: 'direct' });
    const [first, second] = [await server.createSession(direct.secretKey), await server.createSession(direct.secretKey)];
    const paymentData = await server.walletPaymentData(first, 'visa-success-3ds');
    expect((await (await server.pay(first, { payment_data: paymentData })).json()).outcome.status).toBe('succeeded');
    const replayed = await server.pay(second, { payment_data: paymentData });
    expect(replayed.status).toBe(409);
    expect((await replayed.json()).error.code).toBe('replayed_token');
    expect(await ledgerFor(second.id)).toHaveLength(0);
    expect((await server.publicSession(second)).status).toBe('open');
  });
});

describe('persistence', () => {
  it('keeps sessions, attempts and outcomes across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wallet-checkout-restart-'));
    try {
      const first = await startTestServer({ DATA_DIR: dataDir });
      const { secretKey: key } = await first.merchant();
      const session = await first.createSession(key);
      await first.pay(session, { payment_data: await first.walletPaymentData(session, 'visa-success-3ds') });
      await first.close();

      const second = await startTestServer({ DATA_DIR: dataDir });
      try {
        const read = await (await fetch(`${second.url}/api/sessions/${session.id}`, { headers: { authorization: `Bearer ${key}` } })).json();
        expect(read).toMatchObject({ id: session.id, status: 'succeeded', attempts: 1, outcome: { status: 'succeeded' } });
        expect((await second.sandbox!.ledger()).filter((e) => e.charge.id === read.outcome.charge_id)).toHaveLength(1);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("merchants' Idempotency-Key on POST /api/sessions", () => {
  const create = (key: string, body: unknown) =>
    fetch(`${server.url}/api/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    });
  const order = { amount: 3100, currency: 'USD', country_code: 'US', reference: 'order-77' };

  it('replays the first reply, client secret included, and creates one session', async () => {
    const key = `order-77-${Date.now()}`;
    const first = await create(key, order);
    const again = await create(key, order);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const [a, b] = [await first.json(), await again.json()];
    expect(b).toEqual(a);
    const rows = await server.store.selectFrom('sessions').select('id').where('reference', '=', 'order-77').execute();
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(await server.store.selectFrom('idempotency_keys').selectAll().execute());
    expect(stored).not.toContain(a.client_secret);
  });

  it('refuses the same key with other parameters', async () => {
    const key = `k-${Date.now()}`;
    expect((await create(key, order)).status).toBe(201);
    const other = await create(key, { ...order, amount: 1 });
    expect(other.status).toBe(409);
    expect((await other.json()).error.code).toBe('idempotency_key_reused');
  });

  it('does not keep a request that failed validation against the key', async () => {
    const key = `v-${Date.now()}`;
    expect((await create(key, { ...order, amount: 'lots' })).status).toBe(400);
    expect((await create(key, order)).status).toBe(201);
  });

  it('keeps keys of different applications apart', async () => {
    const key = `shared-${Date.now()}`;
    const other = await server.merchant({ merchant_id: 'other2' });
    expect((await create(key, order)).status).toBe(201);
    const theirs = await fetch(`${server.url}/api/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${other.secretKey}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(order),
    });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
  });
});
