/**
 * "Find any payment" over real HTTP, as the dashboard's page and a merchant's
 * server call it: a payment paid and partly refunded found by its card's last
 * four, its amount and the shopper's e-mail, shown `partially_refunded` by the
 * dashboard and the merchant API alike; abandoned checkouts left out unless
 * asked for; the CSV export's reply (a download, never cached, only to a
 * signed-in browser) and its rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedSession, DashboardPaymentList, DashboardSignedIn, Session, SessionList } from '../../contracts';
import { startTestServer, type TestServer } from '../../testing/harness';

let server: TestServer;
let secretKey: string;
let cookie: string;
let paid: CreatedSession;
let last4: string;

const dashboard = (path: string, headers: Record<string, string> = { cookie }) => fetch(`${server.url}/dashboard/api${path}`, { headers });
const api = (path: string) => fetch(`${server.url}/api${path}`, { headers: { authorization: `Bearer ${secretKey}` } });
const listed = async (query: string) => ((await (await dashboard(`/payments?${query}`)).json()) as DashboardPaymentList).data.map((payment) => payment.id);

beforeAll(async () => {
  server = await startTestServer();
  ({ secretKey } = await server.merchant({ merchant_id: 'search' }));
  const signIn = await fetch(`${server.url}/dashboard/api/session`, { method: 'POST', headers: { origin: server.url, 'content-type': 'application/json' }, body: JSON.stringify({ secret_key: secretKey }) });
  expect(signIn.status).toBe(201);
  (await signIn.json()) as DashboardSignedIn;
  cookie = /wc_dashboard=[^;]*/.exec(signIn.headers.get('set-cookie') ?? '')![0];

  paid = await server.createSession(secretKey, { amount: 4850, reference: 'order-5001', description: '=HYPERLINK("https://evil.example"), mug', contact: { email: true } });
  expect((await server.pay(paid, { payment_data: await server.walletPaymentData(paid, 'visa-success-pan') })).status).toBe(200);
  expect((await server.merchantPost(secretKey, `/api/sessions/${paid.id}/refunds`, { amount: 1000 })).status).toBe(201);
  last4 = ((await (await api(`/sessions/${paid.id}`)).json()) as Session).outcome!.card!.last4;
  await server.createSession(secretKey, { reference: 'order-5002-abandoned' });
});
afterAll(() => server.close());

describe('finding a payment', () => {
  it('finds it by the last four of its card, its amount as written, its reference, and the shopper e-mail in any case', async () => {
    expect(await listed(`q=${last4}`)).toEqual([paid.id]);
    expect(await listed('q=48.50')).toEqual([paid.id]);
    expect(await listed('q=order-50')).toEqual([paid.id]);
    expect(await listed(`q=${encodeURIComponent('SHOPPER@sandbox.example')}`)).toEqual([paid.id]);
    expect(await listed('q=nothing-like-it')).toEqual([]);
  });

  it('shows it partially refunded on the dashboard and in the merchant API, its status still the state machine’s', async () => {
    const [payment] = ((await (await dashboard(`/payments?q=${last4}`)).json()) as DashboardPaymentList).data;
    expect(payment).toMatchObject({ status: 'succeeded', payment_status: 'partially_refunded' });
    expect(await (await api(`/sessions/${paid.id}`)).json()).toMatchObject({ status: 'succeeded', payment_status: 'partially_refunded' });
    const list = (await (await api('/sessions?payment_status=partially_refunded')).json()) as SessionList;
    expect(list.data.map((session) => session.id)).toEqual([paid.id]);
    expect(await listed('payment_status=succeeded')).toEqual([]);
    expect(await listed('status=succeeded')).toEqual([paid.id]);
  });

  it('leaves out the checkouts abandoned before any payment unless asked for, and filters by network and decline code', async () => {
    expect(await listed('')).toEqual([paid.id]);
    expect(await listed('abandoned=1')).toHaveLength(2);
    expect(await listed('network=VISA')).toEqual([paid.id]);
    expect(await listed('network=AMEX')).toEqual([]);
    expect(await listed('decline_code=card_declined')).toEqual([]);
    expect((await dashboard('/payments?network=CARTE')).status).toBe(400);
    expect((await dashboard('/payments?abandoned=yes')).status).toBe(400);
  });
});

describe('the CSV export', () => {
  it('downloads the filtered list, never cached, its description defused as text', async () => {
    const reply = await dashboard(`/payments.csv?q=${last4}`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.headers.get('content-disposition')).toMatch(/^attachment; filename="?payments-\d{4}-\d{2}-\d{2}\.csv"?$/);
    const lines = (await reply.text()).split('\r\n');
    expect(lines[0]).toBe('id,created,reference,description,amount,currency,amount_refunded,payment_status,status,card_network,card_last4,decline_code,intent');
    expect(lines.slice(1)).toEqual([`${paid.id},${new Date(((await (await api(`/sessions/${paid.id}`)).json()) as Session).created).toISOString()},order-5001,"'=HYPERLINK(""https://evil.example""), mug",48.50,USD,10.00,partially_refunded,succeeded,VISA,${last4},,charge`, '']);
    // No e-mail: personal data stays out of a file that leaves the dashboard.
    expect(lines.join('\n')).not.toContain('shopper@');
  });

  it('exports the abandoned checkouts only when asked for, and answers only a signed-in browser', async () => {
    expect((await (await dashboard('/payments.csv')).text()).trim().split('\r\n')).toHaveLength(2);
    expect((await (await dashboard('/payments.csv?abandoned=1')).text()).trim().split('\r\n')).toHaveLength(3);
    expect((await dashboard('/payments.csv', {})).status).toBe(401);
    expect((await dashboard('/payments.csv?limit=5')).status).toBe(400);
  });
});
