/**
 * paymentMethods against a stub of the API on 127.0.0.1: the path, method, query, body and idempotency
 * key each call sends, and what it makes of the replies (a refusal is a typed error, never retried).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listen, type Listening } from '../../../testing/listen';
import { stubApi } from '../../../testing/stub-api';
import { type PaymentMethod, WalletCheckout, WalletCheckoutApiError } from '../src';

const SECRET_KEY = 'sk_test_payment_methods_stub';
const PM = 'pm_AAAAAAAAAAAAAAAAAAAAAA';

const { received, replies, handler, reset } = stubApi();
let api: Listening;

beforeAll(async () => {
  api = await listen(handler);
});
afterAll(() => api.close());
beforeEach(reset);

const client = () => new WalletCheckout(SECRET_KEY, { baseUrl: api.origin, retryBaseDelayMs: 1 });

const paymentMethod = (status: PaymentMethod['status']): PaymentMethod => ({
  id: PM,
  object: 'payment_method',
  app_id: 'app_1',
  customer: 'cust_42',
  card: { network: 'VISA', last4: '4242', exp_month: 12, exp_year: 2030 },
  token_kind: 'card',
  agreement: {
    id: 'saved_card.recurring.v1',
    text: 'You allow Shop to charge this card $9.99 every month for your subscription, without asking you each time, until you cancel with Shop.',
    accepted_at: 1_767_225_600_000,
    usage: 'recurring',
    recurring: { interval: 'month', interval_count: 1, amount: 999 },
    reload: null,
    currency: 'USD',
    description: null,
    session_id: 'cs_1',
  },
  network_transaction_reference: '483920174628391',
  status,
  created: 1_767_225_600_000,
  updated: 1_767_225_600_000,
  detached: status === 'detached' ? 1_767_225_700_000 : null,
});

describe('paymentMethods', () => {
  it("lists a customer's cards with the filter in the query, and reads one by its id", async () => {
    replies.push({ status: 200, body: { object: 'list', data: [paymentMethod('active')], has_more: false } }, { status: 200, body: paymentMethod('active') });
    const walletCheckout = client();
    const page = await walletCheckout.paymentMethods.list({ customer: 'cust_42', limit: 5 });
    expect(page.data.map((pm) => [pm.id, pm.agreement.usage, pm.status])).toEqual([[PM, 'recurring', 'active']]);
    expect((await walletCheckout.paymentMethods.retrieve(PM)).card.last4).toBe('4242');
    expect(received.map(({ method, path }) => `${method} ${path}`)).toEqual([`GET /api/payment_methods?customer=cust_42&limit=5`, `GET /api/payment_methods/${PM}`]);
  });

  it('puts an id into the path encoded, so that no id names another route', async () => {
    replies.push({ status: 404, body: { error: { code: 'not_found', message: 'No such payment method' } } });
    await client().paymentMethods.retrieve('../sessions').catch(() => undefined);
    expect(received[0]!.path).toBe('/api/payment_methods/..%2Fsessions');
  });

  it('detaches with an empty body, and answers the detached payment method', async () => {
    replies.push({ status: 200, body: paymentMethod('detached') });
    expect((await client().paymentMethods.detach(PM)).status).toBe('detached');
    expect(received[0]).toMatchObject({ method: 'POST', path: `/api/payment_methods/${PM}/detach`, body: '{}' });
  });

  it("charges under the caller's idempotency key, sent again as it is when the API fails, and answers the session", async () => {
    const session = { id: 'cs_2', object: 'session', intent: 'merchant_initiated', charge_reason: 'subscription', payment_method: PM, status: 'succeeded' };
    replies.push({ status: 503, body: { error: { code: 'store_unavailable', message: 'try again' } } }, { status: 201, body: session });
    const body = { amount: 999, currency: 'usd', reason: 'subscription' as const, customer: 'cust_42' };
    const charged = await client().paymentMethods.charge(PM, body, { idempotencyKey: 'sub_42:2026-02' });
    expect(charged).toMatchObject({ intent: 'merchant_initiated', charge_reason: 'subscription', payment_method: PM });
    expect(received.map(({ method, path, body: sent, headers }) => [method, path, sent, headers['idempotency-key']])).toEqual([
      ['POST', `/api/payment_methods/${PM}/charges`, JSON.stringify(body), 'sub_42:2026-02'],
      ['POST', `/api/payment_methods/${PM}/charges`, JSON.stringify(body), 'sub_42:2026-02'],
    ]);
  });

  it("passes on a refused charge as a typed error with the API's code, not retried", async () => {
    replies.push({ status: 409, body: { error: { code: 'payment_method_detached', message: 'the payment method was detached' } } });
    const refused = await client()
      .paymentMethods.charge(PM, { amount: 999, currency: 'USD', reason: 'subscription', customer: 'cust_42' }, { idempotencyKey: 'sub_42:2026-03' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WalletCheckoutApiError);
    expect(refused).toMatchObject({ status: 409, code: 'payment_method_detached', requestId: 'req_stub' });
    expect(received).toHaveLength(1);
  });
});
