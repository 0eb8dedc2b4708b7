/**
 * The contract check itself (api-contract.ts): it refuses what the document
 * does not describe, and the statuses merchants' generated clients tripped
 * over (413, 415, 429, 502) are now described as the server sends them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractViolations } from './api-contract';
import type { RecordedReply } from './contract-recorder';
import { startTestServer, type TestServer } from './harness';

const reply = (method: string, path: string, status: number, body?: unknown): RecordedReply => ({
  method,
  url: `http://127.0.0.1:1${path}`,
  status,
  contentType: body === undefined ? null : 'application/json; charset=utf-8',
  body: body === undefined ? undefined : JSON.stringify(body),
});
const error = (code: string) => ({ error: { code, message: 'as the server says it' } });

/** What a real reply came to, as the recorder keeps it. */
async function recorded(method: string, response: Response): Promise<RecordedReply> {
  return { method, url: response.url, status: response.status, contentType: response.headers.get('content-type'), body: await response.text() };
}

describe('the contract check', () => {
  it('passes a reply the document describes, with a code its route declares', async () => {
    expect(await contractViolations([reply('GET', '/api/sessions/cs_x', 404, error('not_found')), reply('GET', '/api/no_such_route', 404, error('not_found'))])).toEqual([]);
  });

  it("holds an operation described by hand (the sandbox service's) to the codes its response's description names", async () => {
    const violations = await contractViolations([
      reply('POST', '/sandbox/service/api/v1/refunds', 400, error('amount_too_large')),
      reply('POST', '/sandbox/service/api/v1/refunds', 400, error('amount_too_small')),
      reply('POST', '/sandbox/service/api/v1/refunds', 401, error('invalid_request')),
    ]);
    expect(violations).toEqual([
      expect.stringContaining('createRefund does not declare the code amount_too_small for 400'),
      expect.stringContaining('createRefund does not declare the code invalid_request for 401'),
    ]);
  });

  it('fails a route missing from the document, an undeclared status, an invalid body and an undeclared code', async () => {
    const violations = await contractViolations([
      reply('POST', '/api/coupons', 201, { id: 'c_1' }),
      reply('GET', '/api/sessions/cs_x', 418, error('teapot')),
      reply('GET', '/api/sessions/cs_x', 404, { error: { code: 404 } }),
      reply('GET', '/api/sessions/cs_x', 404, error('not_found_anywhere')),
      reply('GET', '/api/sessions/cs_x', 409, error('invalid_state')),
      reply('GET', '/api/sessions/cs_x', 200),
    ]);
    expect(violations).toEqual([
      expect.stringContaining('POST /api/coupons answered 201: the route is not in the OpenAPI document'),
      expect.stringContaining('GET /api/sessions/{id} declares no 418'),
      expect.stringContaining('the body is not valid against the document: #/error/code'),
      expect.stringContaining('getSession does not declare the code not_found_anywhere'),
      expect.stringContaining('GET /api/sessions/{id} declares no 409'),
      expect.stringContaining('the document declares a JSON body, the reply is without a content type'),
    ]);
  });
});

describe('the codes the server sends that the document once left out', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("the sandbox service's 400 invalid_json, for a body that is not JSON", async () => {
    const service = { authorization: `Bearer ${server.sandbox!.serviceSecretKey}`, 'merchant-account': 'm_test', 'content-type': 'application/json' };
    const replies = [];
    for (const call of ['charges', 'refunds']) {
      replies.push(await recorded('POST', await fetch(`${server.url}/sandbox/service/api/v1/${call}`, { method: 'POST', headers: service, body: '{"amount":' })));
    }
    expect(replies.map(({ status, body }) => `${status} ${(JSON.parse(body!) as { error: { code: string } }).error.code}`)).toEqual(['400 invalid_json', '400 invalid_json']);
    expect(await contractViolations(replies)).toEqual([]);
  });
});

describe('the statuses the server sends that the document once left out', () => {
  let server: TestServer;
  let secretKey: string;
  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_READS_PER_MINUTE: '1', RATE_LIMIT_PAY_PER_MINUTE: '1', RATE_LIMIT_MERCHANT_PER_MINUTE: '1000' });
    ({ secretKey } = await server.merchant());
  });
  afterAll(() => server.close());

  it('413 and 415 on the JSON routes, 429 under the widget limiters, 502 when the service fails a capture', async () => {
    const merchant = { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' };
    const huge = JSON.stringify({ amount: 100, currency: 'USD', country_code: 'US', description: 'x'.repeat(40_000) });
    const replies = [
      await recorded('POST', await fetch(`${server.url}/api/sessions`, { method: 'POST', headers: merchant, body: huge })),
      await recorded('POST', await fetch(`${server.url}/api/sessions`, { method: 'POST', headers: { ...merchant, 'content-type': 'application/json; charset=latin1' }, body: '{}' })),
    ];
    const hold = await server.createSession(secretKey, { intent: 'hold' });
    const widget = { authorization: `Bearer ${hold.client_secret}`, 'content-type': 'application/json' };
    const paymentData = await server.walletPaymentData(hold, 'visa-success-3ds');
    replies.push(await recorded('GET', await fetch(`${server.url}/api/sessions/${hold.id}/public`, { headers: widget })));
    replies.push(await recorded('POST', await server.pay(hold, { payment_data: paymentData })));
    // A body the edge lets through (one it refuses, 413 or 415, never reaches the limiter).
    replies.push(await recorded('POST', await fetch(`${server.url}/api/sessions/${hold.id}/pay`, { method: 'POST', headers: widget, body: '{}' })));
    // The service no longer knows the hold as this merchant's: it refuses the capture, which the merchant may retry.
    await server.store.updateTable('apps').set({ merchant_id: 'someone_else' }).execute();
    replies.push(await recorded('POST', await fetch(`${server.url}/api/sessions/${hold.id}/capture`, { method: 'POST', headers: merchant, body: '{}' })));

    expect(replies.map(({ status, body }) => `${status} ${(JSON.parse(body!) as { error?: { code: string } }).error?.code ?? 'ok'}`)).toEqual([
      '413 payload_too_large',
      '415 unsupported_media_type',
      '429 rate_limited',
      '200 ok',
      '429 rate_limited',
      '502 service_unavailable',
    ]);
    expect(await contractViolations(replies)).toEqual([]);
  });
});
