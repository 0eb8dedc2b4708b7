/**
 * disputes against a stub of the API on 127.0.0.1: the path, method, query, body and idempotency key each call
 * sends, and what it makes of the replies (a refusal is a typed error, never retried; a 5xx is sent again as it was).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listen, type Listening } from '../../../testing/listen';
import { stubApi } from '../../../testing/stub-api';
import { type Dispute, WalletCheckout, WalletCheckoutApiError } from '../src';

const SECRET_KEY = 'sk_test_disputes_stub';
const DP = 'dp_AAAAAAAAAAAAAAAAAAAAAA';

const { received, replies, handler, reset } = stubApi();
let api: Listening;

beforeAll(async () => {
  api = await listen(handler);
});
afterAll(() => api.close());
beforeEach(reset);

const client = () => new WalletCheckout(SECRET_KEY, { baseUrl: api.origin, retryBaseDelayMs: 1 });

const dispute = (status: Dispute['status'], id = DP): Dispute => ({
  id,
  object: 'dispute',
  session_id: 'cs_1',
  amount: 2400,
  currency: 'USD',
  reason: 'fraudulent',
  status,
  evidence_due_by: 1_767_830_400_000,
  evidence: status === 'needs_response' ? null : { explanation: 'Delivered.', billing_address_check: null, address_verification: { line1: 'match', postal_code: 'match' }, shipping: null },
  evidence_submitted: status === 'needs_response' ? null : 1_767_300_000_000,
  created: 1_767_225_600_000,
  updated: 1_767_225_600_000,
});

describe('disputes', () => {
  it('lists by status with the filter in the query, reads one by its id, and pages through every one', async () => {
    const second = 'dp_BBBBBBBBBBBBBBBBBBBBBB';
    replies.push(
      { status: 200, body: { object: 'list', data: [dispute('needs_response')], has_more: false } },
      { status: 200, body: dispute('needs_response') },
      { status: 200, body: { object: 'list', data: [dispute('won')], has_more: true } },
      { status: 200, body: { object: 'list', data: [dispute('lost', second)], has_more: false } },
    );
    const walletCheckout = client();
    const page = await walletCheckout.disputes.list({ status: 'needs_response', limit: 5 });
    expect(page.data.map((one) => [one.id, one.reason, one.status])).toEqual([[DP, 'fraudulent', 'needs_response']]);
    expect((await walletCheckout.disputes.retrieve(DP)).amount).toBe(2400);
    const every: string[] = [];
    for await (const one of walletCheckout.disputes.listAll({ limit: 1 })) every.push(one.id);
    expect(every).toEqual([DP, second]);
    expect(received.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'GET /api/disputes?status=needs_response&limit=5',
      `GET /api/disputes/${DP}`,
      'GET /api/disputes?limit=1',
      `GET /api/disputes?limit=1&starting_after=${DP}`,
    ]);
  });

  it('puts an id into the path encoded, so that no id names another route', async () => {
    replies.push({ status: 404, body: { error: { code: 'not_found', message: 'No such dispute' } } });
    await expect(client().disputes.retrieve('../sessions')).rejects.toMatchObject({ status: 404, code: 'not_found' });
    expect(received[0]?.path).toBe('/api/disputes/..%2Fsessions');
  });

  it('submits evidence under one idempotency key, sent again as it is when the API fails, and answers the dispute under review', async () => {
    replies.push({ status: 503, body: { error: { code: 'store_unavailable', message: 'try again' } } }, { status: 200, body: dispute('under_review') });
    const evidence = { explanation: 'Delivered.', shipping: { carrier: 'UPS', tracking_number: '1Z999' } };
    expect((await client().disputes.submitEvidence(DP, evidence)).status).toBe('under_review');
    expect(received.map(({ method, path, body }) => [method, path, body])).toEqual([
      ['POST', `/api/disputes/${DP}/evidence`, JSON.stringify(evidence)],
      ['POST', `/api/disputes/${DP}/evidence`, JSON.stringify(evidence)],
    ]);
    expect(received[0]?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(received[1]?.headers['idempotency-key']).toBe(received[0]?.headers['idempotency-key']);
  });

  it("passes on evidence refused (submitted already, past due) as a typed error with the API's code, not retried", async () => {
    replies.push({ status: 409, body: { error: { code: 'evidence_past_due', message: 'The evidence was due by evidence_due_by' } } });
    const refused = await client().disputes.submitEvidence(DP, { explanation: 'Late.' }, { idempotencyKey: 'evidence-1' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WalletCheckoutApiError);
    expect(refused).toMatchObject({ status: 409, code: 'evidence_past_due', requestId: 'req_stub' });
    expect(received).toHaveLength(1);
    expect(received[0]?.headers['idempotency-key']).toBe('evidence-1');
  });
});
