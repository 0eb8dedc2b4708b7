/**
 * GET /dashboard/api/overview over real HTTP, as the Overview page calls it: signed in only, the period
 * read at the edge (400 on a bad date, zone or range), and figures that match payments made through the
 * checkout (the sums themselves, on both engines: overview.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardOverview } from '../../contracts';
import { startTestServer, type TestServer } from '../../testing/harness';

let server: TestServer;
let secretKey: string;
let cookie: string;

/** A dashboard session's cookie for the app of `key`. */
async function signIn(key: string): Promise<string> {
  const signedIn = await fetch(`${server.url}/dashboard/api/session`, { method: 'POST', headers: { origin: server.url, 'content-type': 'application/json' }, body: JSON.stringify({ secret_key: key }) });
  expect(signedIn.status).toBe(201);
  return `wc_dashboard=${/wc_dashboard=([^;]*)/.exec(signedIn.headers.get('set-cookie') ?? '')?.[1] ?? ''}`;
}

beforeAll(async () => {
  // Reconciliation, which reads the service's disputes, is driven by the tests.
  server = await startTestServer({ RECONCILE_INTERVAL_MS: '3600000' });
  ({ secretKey } = await server.merchant({ merchant_id: 'overview' }));
  cookie = await signIn(secretKey);
});
afterAll(() => server.close());

const today = () => new Date().toISOString().slice(0, 10);
const overview = (query: string, headers: Record<string, string> = { cookie }) => fetch(`${server.url}/dashboard/api/overview?${query}`, { headers });

describe('GET /dashboard/api/overview', () => {
  it('answers 401 without a signed-in session', async () => {
    const reply = await overview(`from=${today()}&to=${today()}&time_zone=UTC`, {});
    expect(reply.status).toBe(401);
  });

  it.each([
    ['no period', 'time_zone=UTC', 'from'],
    ['a date that is no day', 'from=2026-02-30&to=2026-03-01&time_zone=UTC', 'from'],
    ['a date in another format', 'from=26/11/2026&to=2026-11-26&time_zone=UTC', 'from'],
    ['an end before the start', 'from=2026-11-26&to=2026-11-01&time_zone=UTC', 'to'],
    ['more than 366 days', 'from=2025-01-01&to=2026-01-02&time_zone=UTC', 'to'],
    ['an unknown time zone', 'from=2026-11-01&to=2026-11-26&time_zone=Mars/Olympus', 'time_zone'],
    ['a parameter it does not take', 'from=2026-11-01&to=2026-11-26&time_zone=UTC&currency=USD', 'currency'],
    ['a parameter given twice', 'from=2026-11-01&from=2026-11-02&to=2026-11-26&time_zone=UTC', 'from'],
  ])('answers 400 invalid_request naming the parameter for %s', async (_case, query, parameter) => {
    const reply = await overview(query);
    expect(reply.status).toBe(400);
    const body = (await reply.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.message).toContain(parameter);
  });

  it("sums the app's payments made today through the checkout: a paid one, a declined one and one left open", async () => {
    const paid = await server.createSession(secretKey, { amount: 2500, currency: 'USD' });
    expect((await server.pay(paid, { payment_data: await server.walletPaymentData(paid, 'visa-success-3ds') })).status).toBe(200);
    const declined = await server.createSession(secretKey, { amount: 1000, currency: 'USD' });
    await server.pay(declined, { payment_data: await server.walletPaymentData(declined, 'visa-insufficient-funds-3ds') });
    await server.createSession(secretKey, { amount: 700, currency: 'USD' });

    const reply = await overview(`from=${today()}&to=${today()}&time_zone=UTC`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    const body = (await reply.json()) as DashboardOverview;
    expect(body.currencies).toEqual([
      {
        currency: 'USD',
        currency_exponent: 2,
        gross_volume: 2500,
        refunded: 0,
        net: 2500,
        disputed: 0,
        disputes: 0,
        outcomes: { succeeded: 1, reached_outcome: 2, success_rate: 0.5 },
        days: [{ date: today(), gross_volume: 2500, refunded: 0, net: 2500 }],
      },
    ]);
    expect(body.dispute_statuses).toEqual([]);
    expect(body.statuses).toEqual(expect.arrayContaining([{ status: 'succeeded', count: 1 }, { status: 'declined', count: 1 }, { status: 'open', count: 1 }]));
    expect(body.decline_codes).toEqual([{ code: 'insufficient_funds', count: 1 }]);
  });

  it("counts the period's disputes, open or lost, with their amount per currency and their statuses, apart from the payments' net", async () => {
    const other = await server.merchant({ merchant_id: 'overview_disputes' });
    const disputed = await server.createSession(other.secretKey, { amount: 4200, currency: 'USD' });
    expect((await server.pay(disputed, { payment_data: await server.walletPaymentData(disputed, 'visa-dispute-fraudulent-3ds') })).status).toBe(200);
    await server.reconcile();

    const reply = await overview(`from=${today()}&to=${today()}&time_zone=UTC`, { cookie: await signIn(other.secretKey) });
    const body = (await reply.json()) as DashboardOverview;
    expect(body.currencies).toEqual([expect.objectContaining({ currency: 'USD', gross_volume: 4200, net: 4200, disputed: 4200, disputes: 1 })]);
    expect(body.dispute_statuses).toEqual([{ status: 'needs_response', count: 1 }]);
  });
});
