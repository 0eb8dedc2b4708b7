import { afterAll, describe, expect, it } from 'vitest';
import { Charge } from '../contracts';
import { testCards, UNANSWERED_TRIES } from './test-cards';
import { MERCHANT, mintToken, networkTokenCharge, paymentDataRequest, postCharge, postJson, serviceHeaders, startSandbox, walletpayCharge } from '../testing/sandbox';

const sandbox = await startSandbox();
afterAll(() => sandbox.close());

const errorCode = (body: unknown) => (body as { error: { code: string } }).error.code;
const errorMessage = (body: unknown) => (body as { error: { message: string } }).error.message;
const billing = { name: 'Sandbox Shopper', address: { line1: '1 Sandbox Way', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' } };

describe('walletpay charges', () => {
  it('charges a token minted by the sandbox wallet and records it in the ledger', async () => {
    const paymentData = await mintToken(sandbox, 'visa-success-3ds');
    const reply = await postCharge(sandbox, { ...walletpayCharge(paymentData), billing_details: billing });
    expect(reply.status).toBe(201);
    const charge = Charge.parse(reply.body);
    expect(charge).toMatchObject({
      object: 'charge',
      status: 'succeeded',
      amount: 1234,
      currency: 'usd',
      source_type: 'walletpay',
      card: { network: 'VISA', last4: '1111', auth_method: 'CRYPTOGRAM_3DS', exp_month: 12 },
      billing_details: billing,
      failure_code: null,
      failure_message: null,
    });
    expect(charge.id).toMatch(/^ch_[0-9a-f]{24}$/);
    const ledger = await sandbox.service.ledger();
    expect(ledger.at(-1)).toEqual({ operation: 'charge', merchant_account: MERCHANT, idempotency_key: null, charge });
  });

  it('records a PAN_ONLY token as such', async () => {
    const reply = await postCharge(sandbox, walletpayCharge(await mintToken(sandbox, 'mastercard-success-pan')));
    expect(reply.body).toMatchObject({ status: 'succeeded', card: { network: 'MASTERCARD', last4: '4444', auth_method: 'PAN_ONLY' } });
  });

  it('never writes card numbers, tokens or cryptograms to the ledger', async () => {
    const paymentData = await mintToken(sandbox, 'amex-success-3ds');
    await postCharge(sandbox, walletpayCharge(paymentData));
    const stored = JSON.stringify(await sandbox.service.ledger());
    expect(stored).not.toContain('378282246310005');
    expect(stored).not.toContain('signedMessage');
  });

  it('refuses a token whose gatewayMerchantId is another merchant\'s (403)', async () => {
    const paymentData = await mintToken(sandbox, 'visa-success-3ds', paymentDataRequest({ merchantId: 'someone_else' }));
    const before = (await sandbox.service.ledger()).length;
    const reply = await postCharge(sandbox, walletpayCharge(paymentData));
    expect(reply.status).toBe(403);
    expect(errorCode(reply.body)).toBe('gateway_merchant_mismatch');
    expect(await sandbox.service.ledger()).toHaveLength(before);
  });

  it('refuses a replayed wallet message', async () => {
    const paymentData = await mintToken(sandbox, 'visa-success-pan');
    expect((await postCharge(sandbox, walletpayCharge(paymentData))).status).toBe(201);
    const replay = await postCharge(sandbox, walletpayCharge(paymentData, 999));
    expect(replay.status).toBe(400);
    expect(errorCode(replay.body)).toBe('token_already_used');
  });

  it('refuses a tampered token, naming the failed check without echoing it', async () => {
    const paymentData = await mintToken(sandbox, 'visa-success-3ds');
    const body = walletpayCharge(paymentData);
    const token = body.source_data.walletpay as { signedMessage: string };
    const sealed = JSON.parse(token.signedMessage) as { tag: string };
    sealed.tag = Buffer.alloc(32, 1).toString('base64');
    token.signedMessage = JSON.stringify(sealed);
    const reply = await postCharge(sandbox, body);
    expect(reply.status).toBe(400);
    expect(errorCode(reply.body)).toBe('invalid_wallet_token');
    expect(errorMessage(reply.body)).toContain('bad_message_signature');
    expect(reply.text).not.toContain(sealed.tag);
  });

  it('refuses a token sealed for another gateway', async () => {
    const other = await startSandbox();
    try {
      const paymentData = await mintToken(other, 'visa-success-3ds');
      const reply = await postCharge(sandbox, walletpayCharge(paymentData));
      expect(reply.status).toBe(400);
      expect(errorMessage(reply.body)).toContain('untrusted_intermediate_key');
    } finally {
      await other.close();
    }
  });
});

describe('expired wallet messages', () => {
  it('refuses a token presented after its message expired', async () => {
    let now = Date.now();
    const clocked = await startSandbox({ now: () => now });
    try {
      const paymentData = await mintToken(clocked, 'visa-success-3ds');
      now += 2 * 3_600_000;
      const reply = await postCharge(clocked, walletpayCharge(paymentData));
      expect(reply.status).toBe(400);
      expect(errorMessage(reply.body)).toContain('expired_message');
    } finally {
      await clocked.close();
    }
  });
});

describe('test-card outcomes', () => {
  // With a cryptogram, so that cards which ask PAN_ONLY payments for 3-D Secure (three-ds.test.ts) show their outcome.
  it.each(testCards.map((card) => [card.number, card.outcome] as const))('%s -> %s, through the wallet and as a network token', async (number, outcome) => {
    const slug = testCards.find((card) => card.number === number)?.slug;
    const viaWallet = await postCharge(sandbox, walletpayCharge(await mintToken(sandbox, `${slug}-3ds`)));
    const viaNetworkToken = await postCharge(sandbox, networkTokenCharge(number, { three_ds: { eci: '05', cryptogram: 'AgAAAAAAAIR8CQrXcIhbQAAAAAA=' } }));
    for (const reply of [viaWallet, viaNetworkToken]) {
      expect(reply.status).toBe(201);
      const charge = Charge.parse(reply.body);
      if (outcome === 'success') {
        expect(charge).toMatchObject({ status: 'succeeded', failure_code: null, failure_message: null });
      } else {
        expect(charge.status).toBe('failed');
        expect(charge.failure_code).toBe(outcome);
        expect(charge.failure_message).toEqual(expect.any(String));
      }
    }
  });

  it('succeeds for an unknown number that passes Luhn', async () => {
    const reply = await postCharge(sandbox, networkTokenCharge('4242424242424242'));
    expect(reply.body).toMatchObject({ status: 'succeeded', card: { network: 'VISA', last4: '4242' } });
  });

  it('fails a number that does not pass Luhn with invalid_number', async () => {
    const reply = await postCharge(sandbox, networkTokenCharge('4111111111111112'));
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ status: 'failed', failure_code: 'invalid_number' });
  });

  it('fails a card whose expiry has passed with expired_card', async () => {
    const reply = await postCharge(sandbox, networkTokenCharge('4111111111111111', { expiry_month: '01', expiry_year: '2020' }));
    expect(reply.body).toMatchObject({ status: 'failed', failure_code: 'expired_card', card: { exp_month: 1, exp_year: 2020 } });
  });

  it('refuses a number of a network it does not support', async () => {
    const reply = await postCharge(sandbox, networkTokenCharge('9111111111111111'));
    expect(reply.status).toBe(400);
    expect(errorCode(reply.body)).toBe('unsupported_card_network');
  });
});

describe('outcomes after the first answer', () => {
  const capture = (chargeId: string, headers: Record<string, string> = {}) => postJson(`${sandbox.baseUrl}/service/api/v1/charges/${chargeId}/capture`, {}, serviceHeaders(sandbox, headers));

  it(`answers the late issuer's card 503 to the first ${UNANSWERED_TRIES} requests under a key, charging nothing, then charges it once`, async () => {
    const body = networkTokenCharge('4000000000000408');
    const key = { 'idempotency-key': `late-${Date.now()}` };
    const before = (await sandbox.service.ledger()).length;
    for (let i = 0; i < UNANSWERED_TRIES; i++) {
      const unanswered = await postCharge(sandbox, body, serviceHeaders(sandbox, key));
      expect([unanswered.status, errorCode(unanswered.body)]).toEqual([503, 'issuer_unavailable']);
    }
    expect(await sandbox.service.ledger()).toHaveLength(before);
    const answered = await postCharge(sandbox, body, serviceHeaders(sandbox, key));
    expect(answered).toMatchObject({ status: 201, body: { status: 'succeeded', card: { last4: '0408' } } });
    const replayed = await postCharge(sandbox, body, serviceHeaders(sandbox, key));
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.text).toBe(answered.text);
    expect(await sandbox.service.ledger()).toHaveLength(before + 1);
    // Counted per key: another key starts again.
    expect((await postCharge(sandbox, body, serviceHeaders(sandbox, { 'idempotency-key': `${key['idempotency-key']}-2` }))).status).toBe(503);
  });

  it("refuses the capture of a hold on the capture-declined card with 402 and the issuer's code, replayed under its key; the hold stays, to release", async () => {
    const held = Charge.parse((await postCharge(sandbox, { ...networkTokenCharge('4000000000000416'), capture: false })).body);
    expect(held.status).toBe('held');
    const key = { 'idempotency-key': `capture-${held.id}` };
    const refused = await capture(held.id, key);
    expect([refused.status, errorCode(refused.body)]).toEqual([402, 'card_declined']);
    expect(errorMessage(refused.body)).toContain('refused the capture');
    expect((await capture(held.id, key)).headers.get('idempotent-replayed')).toBe('true');
    const read = await fetch(`${sandbox.baseUrl}/service/api/v1/charges/${held.id}`, { headers: serviceHeaders(sandbox) });
    expect(await read.json()).toMatchObject({ status: 'held', amount_captured: 0 });
    const released = await postJson(`${sandbox.baseUrl}/service/api/v1/charges/${held.id}/release`, {}, serviceHeaders(sandbox));
    expect(released.body).toMatchObject({ status: 'released' });
    // Another card's hold is captured as before.
    const good = Charge.parse((await postCharge(sandbox, { ...networkTokenCharge('4111111111111111'), capture: false })).body);
    expect((await capture(good.id)).body).toMatchObject({ status: 'succeeded' });
  });
});

describe('network_token charges', () => {
  it('is CRYPTOGRAM_3DS with three_ds', async () => {
    const reply = await postCharge(sandbox, networkTokenCharge('5555555555554444', { three_ds: { eci: '02', cryptogram: 'AgAAAAAABk4DWZ4C28yUQAAAAAA=' } }));
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ source_type: 'network_token', status: 'succeeded', card: { network: 'MASTERCARD', auth_method: 'CRYPTOGRAM_3DS', exp_month: 12, exp_year: 2099 } });
  });

  it('is CRYPTOGRAM_3DS with a cryptogram and no eci, as a token without eciIndicator is sent', async () => {
    const reply = await postCharge(sandbox, networkTokenCharge('5105105105105100', { three_ds: { cryptogram: 'AgAAAAAABk4DWZ4C28yUQAAAAAA=' } }));
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ status: 'succeeded', card: { network: 'MASTERCARD', auth_method: 'CRYPTOGRAM_3DS' } });
  });

  it('is PAN_ONLY without three_ds', async () => {
    const reply = await postCharge(sandbox, networkTokenCharge('6011111111111117'));
    expect(reply.body).toMatchObject({ status: 'succeeded', card: { network: 'DISCOVER', auth_method: 'PAN_ONLY' } });
  });
});

describe('strict validation', () => {
  const valid = networkTokenCharge('4111111111111111');
  const cases: [string, unknown, string][] = [
    ['an unknown top-level field', { ...valid, surprise: 1 }, 'surprise'],
    ['an unknown field in the source', { ...valid, source_data: { ...valid.source_data, extra: true } }, 'extra'],
    ['a float amount', { ...valid, amount: 12.5 }, 'amount'],
    ['an amount as a string', { ...valid, amount: '500' }, 'amount'],
    ['an uppercase currency', { ...valid, currency: 'EUR' }, 'currency'],
    ['an unknown source type', { ...valid, source_data: { type: 'card', card: {} } }, 'source_data'],
    ['a walletpay type with a network_token object', { ...valid, source_data: { type: 'walletpay', network_token: valid.source_data.network_token } }, 'source_data'],
    ['a walletpay object missing fields', { ...valid, source_data: { type: 'walletpay', walletpay: { signature: 'x' } } }, 'walletpay'],
    ['a missing amount', { source_data: valid.source_data, currency: 'eur' }, 'amount'],
    ['an empty eci', { ...valid, source_data: { ...valid.source_data, network_token: { ...valid.source_data.network_token, three_ds: { eci: '', cryptogram: 'AgAAAAAABk4DWZ4C28yUQAAAAAA=' } } } }, 'eci'],
  ];
  it.each(cases)('refuses %s (400 invalid_request naming the field)', async (_name, body, field) => {
    const before = (await sandbox.service.ledger()).length;
    const reply = await postCharge(sandbox, body);
    expect(reply.status).toBe(400);
    expect(errorCode(reply.body)).toBe('invalid_request');
    expect(errorMessage(reply.body)).toContain(field);
    expect(await sandbox.service.ledger()).toHaveLength(before);
  });

  it('does not echo values in validation errors', async () => {
    const reply = await postCharge(sandbox, { ...valid, source_data: { ...valid.source_data, network_token: { ...valid.source_data.network_token, token: '4111x1111' } } });
    expect(reply.status).toBe(400);
    expect(reply.text).not.toContain('4111x1111');
  });

  it('refuses malformed JSON with 400', async () => {
    const reply = await postCharge(sandbox, '{"amount": ');
    expect(reply.status).toBe(400);
    expect(errorCode(reply.body)).toBe('invalid_json');
  });

  it('refuses a body that is not JSON', async () => {
    const response = await fetch(`${sandbox.baseUrl}/service/api/v1/charges`, { method: 'POST', headers: { ...serviceHeaders(sandbox), 'content-type': 'text/plain' }, body: 'amount=1' });
    expect(response.status).toBe(415);
    expect((await response.json()).error.code).toBe('unsupported_media_type');
  });

  it('refuses a body over the size limit with 413', async () => {
    const reply = await postCharge(sandbox, { ...valid, description: 'x'.repeat(70_000) });
    expect(reply.status).toBe(413);
  });
});

describe('authentication and merchant', () => {
  it.each([
    ['no Authorization header', {}],
    ['a wrong key', { authorization: 'Bearer sk_sandbox_wrong' }],
    ['the key without Bearer', { authorization: 'sk_sandbox_x' }],
  ])('answers 401 for %s', async (_name, auth) => {
    const reply = await postCharge(sandbox, networkTokenCharge('4111111111111111'), { 'merchant-account': MERCHANT, ...auth });
    expect(reply.status).toBe(401);
    expect(errorCode(reply.body)).toBe('unauthorized');
    expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('answers 400 without Merchant-Account', async () => {
    const reply = await postCharge(sandbox, networkTokenCharge('4111111111111111'), { authorization: `Bearer ${sandbox.service.serviceSecretKey}` });
    expect(reply.status).toBe(400);
    expect(errorMessage(reply.body)).toContain('Merchant-Account');
  });
});

describe('idempotency', () => {
  it('replays the first reply exactly and creates one charge', async () => {
    const body = walletpayCharge(await mintToken(sandbox, 'visa-success-3ds'));
    const headers = serviceHeaders(sandbox, { 'idempotency-key': 'order-1-attempt-1' });
    const first = await postCharge(sandbox, body, headers);
    const second = await postCharge(sandbox, body, headers);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const id = (first.body as { id: string }).id;
    const entries = (await sandbox.service.ledger()).filter((entry) => entry.charge.id === id);
    expect(entries).toEqual([expect.objectContaining({ idempotency_key: 'order-1-attempt-1' })]);
  });

  it('replays an error reply too', async () => {
    const body = walletpayCharge(await mintToken(sandbox, 'visa-success-3ds', paymentDataRequest({ merchantId: 'other' })));
    const headers = serviceHeaders(sandbox, { 'idempotency-key': 'mismatch-attempt' });
    const first = await postCharge(sandbox, body, headers);
    const second = await postCharge(sandbox, body, headers);
    expect(first.status).toBe(403);
    expect([second.status, second.text]).toEqual([first.status, first.text]);
  });

  it('answers 409 for the same key with a different body', async () => {
    const headers = serviceHeaders(sandbox, { 'idempotency-key': 'reused-key' });
    expect((await postCharge(sandbox, networkTokenCharge('4111111111111111'), headers)).status).toBe(201);
    const before = (await sandbox.service.ledger()).length;
    const reply = await postCharge(sandbox, { ...networkTokenCharge('4111111111111111'), amount: 501 }, headers);
    expect(reply.status).toBe(409);
    expect(errorCode(reply.body)).toBe('idempotency_key_reused');
    expect(await sandbox.service.ledger()).toHaveLength(before);
  });

  it('scopes keys to the merchant', async () => {
    const body = networkTokenCharge('4111111111111111');
    const first = await postCharge(sandbox, body, serviceHeaders(sandbox, { 'idempotency-key': 'shared-key' }));
    const second = await postCharge(sandbox, body, serviceHeaders(sandbox, { 'idempotency-key': 'shared-key', 'merchant-account': 'merchant_other' }));
    expect((first.body as { id: string }).id).not.toBe((second.body as { id: string }).id);
  });

  it('does not record a request that failed validation against its key', async () => {
    const headers = serviceHeaders(sandbox, { 'idempotency-key': 'fix-and-retry' });
    expect((await postCharge(sandbox, { ...networkTokenCharge('4111111111111111'), amount: 1.5 }, headers)).status).toBe(400);
    expect((await postCharge(sandbox, networkTokenCharge('4111111111111111'), headers)).status).toBe(201);
  });

  it('processes concurrent requests with one key once', async () => {
    const body = walletpayCharge(await mintToken(sandbox, 'discover-success-pan'));
    const headers = serviceHeaders(sandbox, { 'idempotency-key': 'concurrent' });
    const replies = await Promise.all([1, 2, 3, 4].map(() => postCharge(sandbox, body, headers)));
    const created = replies.filter((reply) => reply.status === 201);
    expect(new Set(created.map((reply) => reply.text)).size).toBe(1);
    expect(replies.every((reply) => reply.status === 201 || errorCode(reply.body) === 'idempotency_key_in_use')).toBe(true);
    expect((await sandbox.service.ledger()).filter((entry) => entry.idempotency_key === 'concurrent')).toHaveLength(1);
  });

  it('refuses an over-long key', async () => {
    const reply = await postCharge(sandbox, networkTokenCharge('4111111111111111'), serviceHeaders(sandbox, { 'idempotency-key': 'k'.repeat(256) }));
    expect(reply.status).toBe(400);
  });
});

describe('reading charges', () => {
  it('gets one of the merchant\'s charges, and 404s another merchant\'s', async () => {
    const created = Charge.parse((await postCharge(sandbox, networkTokenCharge('4111111111111111'))).body);
    const mine = await fetch(`${sandbox.baseUrl}/service/api/v1/charges/${created.id}`, { headers: serviceHeaders(sandbox) });
    expect(mine.status).toBe(200);
    expect(await mine.json()).toEqual(created);
    const theirs = await fetch(`${sandbox.baseUrl}/service/api/v1/charges/${created.id}`, { headers: serviceHeaders(sandbox, { 'merchant-account': 'merchant_other' }) });
    expect(theirs.status).toBe(404);
    expect(errorCode(await theirs.json())).toBe('resource_missing');
  });

  it('lists the merchant\'s charges newest first, with a limit', async () => {
    const a = Charge.parse((await postCharge(sandbox, networkTokenCharge('4111111111111111'))).body);
    const b = Charge.parse((await postCharge(sandbox, networkTokenCharge('5555555555554444'))).body);
    const response = await fetch(`${sandbox.baseUrl}/service/api/v1/charges?limit=2`, { headers: serviceHeaders(sandbox) });
    const list = (await response.json()) as { object: string; data: Charge[]; has_more: boolean };
    expect(list.object).toBe('list');
    expect(list.data.map((charge) => charge.id)).toEqual([b.id, a.id]);
    expect(list.has_more).toBe(true);
    const bad = await fetch(`${sandbox.baseUrl}/service/api/v1/charges?limit=101`, { headers: serviceHeaders(sandbox) });
    expect(bad.status).toBe(400);
  });

  it('requires authentication to read', async () => {
    const response = await fetch(`${sandbox.baseUrl}/service/api/v1/charges`, { headers: { 'merchant-account': MERCHANT } });
    expect(response.status).toBe(401);
  });
});
