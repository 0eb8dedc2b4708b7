import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Charge, ChargeRequest } from '../../contracts';
import { type Listening, listen } from '../../testing/listen';
import { addressVerificationOf, createServiceClient, serializeCharge } from '.';

/** A payment service that answers each try as the test scripted it, and remembers what it was sent. */
type Reply = 'charge' | 'reset' | 'hang' | 'stall' | { status: number; code: string };
let script: Reply[] = [];
let received: { key: string | undefined; body: string; merchant: string | undefined; auth: string | undefined }[] = [];

const charge: Charge = {
  id: 'ch_1',
  object: 'charge',
  status: 'succeeded',
  amount: 2400,
  currency: 'usd',
  source_type: 'walletpay',
  amount_captured: 2400,
  card: { network: 'VISA', last4: '1111', auth_method: 'CRYPTOGRAM_3DS', exp_month: 12, exp_year: 2031 },
  payment_method: 'pm_1',
  billing_details: null,
  failure_code: null,
  failure_message: null,
  created: 1,
};

const scriptedService = (req: IncomingMessage, res: ServerResponse) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    received.push({ key: req.headers['idempotency-key'] as string, body, merchant: req.headers['merchant-account'] as string, auth: req.headers.authorization });
    const reply = script.shift() ?? 'charge';
    if (reply === 'reset') return req.socket.destroy();
    if (reply === 'hang') return;
    // Headers and half a body, then nothing: the try's deadline must cover reading the body too.
    if (reply === 'stall') return res.writeHead(201, { 'content-type': 'application/json' }).write(JSON.stringify(charge).slice(0, 20));
    if (reply === 'charge') return res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(charge));
    res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: reply.code, message: 'scripted' } }));
  });
};

let server: Listening;
let client: ReturnType<typeof createServiceClient>;
beforeAll(async () => {
  server = await listen(scriptedService);
  client = createServiceClient({ baseUrl: `${server.origin}/`, secretKey: 'sk_service', timeoutMs: 200, retry: { maxTries: 3, baseDelayMs: 5, maxDelayMs: 20 } });
});
afterAll(() => server.close());
beforeEach(() => {
  script = [];
  received = [];
});

const request = serializeCharge({ source_data: { type: 'walletpay' }, amount: 2400, currency: 'usd' } as unknown as ChargeRequest);
const call = { merchantId: 'shop42', idempotencyKey: 'cs_1:attempt:1' };

describe('the service client', () => {
  it('authenticates, names the merchant and sends the idempotency key', async () => {
    expect(await client.createCharge(request, call)).toEqual({ ok: true, value: charge });
    expect(received).toEqual([{ key: 'cs_1:attempt:1', body: request, merchant: 'shop42', auth: 'Bearer sk_service' }]);
  });

  it.each<[string, Reply]>([
    ['a 5xx', { status: 503, code: 'service_error' }],
    ['a reset connection', 'reset'],
    ['no reply in time', 'hang'],
    ['a reply whose body stops half way', 'stall'],
    ['the first request still in progress', { status: 409, code: 'idempotency_key_in_use' }],
  ])('retries after %s with the same key and the same bytes', async (_name, failure) => {
    script = [failure, 'charge'];
    const result = await client.createCharge(request, call);
    expect(result.ok).toBe(true);
    expect(received).toHaveLength(2);
    expect(new Set(received.map((r) => `${r.key}|${r.body}`)).size).toBe(1);
  });

  it('gives up after a bounded number of tries, saying the outcome is unknown', async () => {
    script = ['reset', 'reset', 'reset', 'charge'];
    const result = await client.createCharge(request, call);
    expect(result).toMatchObject({ ok: false, error: { code: 'service_unreachable', outcomeUnknown: true } });
    expect(received).toHaveLength(3);
  });

  it('reports a timeout as unknown, not as a decline', async () => {
    script = ['hang', 'hang', 'hang'];
    expect(await client.createCharge(request, call)).toMatchObject({ ok: false, error: { code: 'service_timeout', outcomeUnknown: true } });
  });

  it('reports a reply cut off half way through its body, every try, as a timeout: the charge may exist', async () => {
    script = ['stall', 'stall', 'stall'];
    expect(await client.createCharge(request, call)).toMatchObject({ ok: false, error: { code: 'service_timeout', outcomeUnknown: true } });
    expect(received).toHaveLength(3);
  });

  it('does not retry a refusal, which says nothing was charged', async () => {
    script = [{ status: 400, code: 'invalid_wallet_token' }];
    expect(await client.createCharge(request, call)).toMatchObject({ ok: false, error: { code: 'service_rejected', serviceCode: 'invalid_wallet_token', outcomeUnknown: false } });
    expect(received).toHaveLength(1);
  });
});

describe("the issuer's address verification a charge reports", () => {
  it('is read from the sandbox convention (address_line1_check, address_postal_code_check) into the merchant\'s shape', () => {
    expect(addressVerificationOf({ ...charge, address_line1_check: 'match', address_postal_code_check: 'mismatch' })).toEqual({ line1: 'match', postal_code: 'mismatch' });
    expect(addressVerificationOf({ ...charge, address_line1_check: 'unavailable', address_postal_code_check: 'match' })).toEqual({ line1: 'unavailable', postal_code: 'match' });
  });

  it('is unavailable for a field the service did not verify: null (not sent), or absent (a reply stored before the service verified addresses)', () => {
    expect(addressVerificationOf({ ...charge, address_line1_check: null, address_postal_code_check: 'match' })).toEqual({ line1: 'unavailable', postal_code: 'match' });
    expect(addressVerificationOf(charge)).toEqual({ line1: 'unavailable', postal_code: 'unavailable' });
  });
});
