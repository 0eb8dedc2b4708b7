/**
 * /healthz, /readyz and /metrics on a real server: readiness follows the store
 * and the payment service; the metrics count what happened, per server.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMITS_PER_CHECKPOINT } from '../../common/store/checkpointer';
import { startTestServer, type TestServer } from '../../testing/harness';

let server: TestServer;
let secretKey: string;
beforeAll(async () => {
  server = await startTestServer();
  ({ secretKey } = await server.merchant());
});
afterAll(() => server.close());

const scrape = async (target: TestServer) => {
  const reply = await fetch(`${target.url}/metrics`);
  expect(reply.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return reply.text();
};
/** One sample's value, by metric name and exact labels as Prometheus prints them; 0 when absent. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
};

describe('health', () => {
  it('/healthz: the process answers', async () => {
    const reply = await fetch(`${server.url}/healthz`);
    expect(reply.status).toBe(200);
    expect(await reply.json()).toEqual({ status: 'ok' });
  });

  it('/readyz: ready when the store and the service answer', async () => {
    const reply = await fetch(`${server.url}/readyz`);
    expect(reply.status).toBe(200);
    expect(await reply.json()).toEqual({ status: 'ready', checks: { store: 'ok', payment_service: 'ok' } });
  });

  it('/readyz: 503 naming the payment service when it cannot be reached', async () => {
    // A port nothing listens on: the closed server's own.
    const gone = await startTestServer();
    const deadUrl = gone.url;
    await gone.close();
    const other = await startTestServer({ PAYMENT_SERVICE_URL: deadUrl, PAYMENT_SERVICE_KEY: 'sk_x', READINESS_TIMEOUT_MS: '500' });
    try {
      const reply = await fetch(`${other.url}/readyz`);
      expect(reply.status).toBe(503);
      expect(await reply.json()).toEqual({ status: 'not_ready', checks: { store: 'ok', payment_service: 'could not be reached' } });
    } finally {
      await other.close();
    }
  });
});

describe('metrics', () => {
  it('count requests by route template and status, charges by outcome, service calls, unsettled attempts', async () => {
    const pay = async (card: string) => {
      const session = await server.createSession(secretKey);
      return server.pay(session, { payment_data: await server.walletPaymentData(session, card) });
    };
    expect((await pay('visa-success-3ds')).status).toBe(200);
    expect((await pay('visa-decline-3ds')).status).toBe(200);
    // The service fails every try: the outcome is unknown and the attempt pending.
    server.sandbox!.setFaults({ rate: 1, kinds: ['error'] });
    const pending = await pay('visa-success-3ds');
    server.sandbox!.setFaults({ rate: 0 });
    expect((await pending.json()).outcome.status).toBe('pending');

    const text = await scrape(server);
    expect(sample(text, 'wallet_checkout_http_requests_total{method="POST",route="/api/sessions/:id/pay",status="200"}')).toBe(3);
    expect(sample(text, 'wallet_checkout_http_requests_total{method="GET",route="/api/sessions/:id/public",status="200"}')).toBe(3);
    expect(sample(text, 'wallet_checkout_http_request_duration_seconds_count{method="POST",route="/api/sessions",status="201"}')).toBe(3);
    expect(sample(text, 'wallet_checkout_charges_total{outcome="succeeded"}')).toBe(1);
    expect(sample(text, 'wallet_checkout_charges_total{outcome="declined"}')).toBe(1);
    expect(sample(text, 'wallet_checkout_charges_total{outcome="pending"}')).toBe(1);
    expect(sample(text, 'wallet_checkout_service_call_duration_seconds_count{operation="create_charge",result="ok"}')).toBe(2);
    expect(sample(text, 'wallet_checkout_service_call_errors_total{operation="create_charge",code="service_error"}')).toBe(1);
    expect(sample(text, 'wallet_checkout_unsettled_attempts{status="pending"}')).toBe(1);
    expect(sample(text, 'wallet_checkout_unsettled_attempts{status="in_flight"}')).toBe(0);
    expect(text).toContain('process_cpu_user_seconds_total');
    // Paths with ids never become labels.
    expect(text).not.toMatch(/route="[^"]*cs_/);

    await server.reconcile();
    expect(sample(await scrape(server), 'wallet_checkout_unsettled_attempts{status="pending"}')).toBe(0);
  });

  it("count SQLite's WAL checkpoints by who ran them: the worker's, none on the request connection", async () => {
    const checkpoints = (text: string) => ['worker', 'connection', 'failed'].map((by) => sample(text, `wallet_checkout_sqlite_checkpoints_total{by="${by}"}`));
    const [before] = checkpoints(await scrape(server));
    // Each session created is a commit; the worker is asked for a checkpoint every COMMITS_PER_CHECKPOINT of them.
    for (let i = 0; i < COMMITS_PER_CHECKPOINT; i++) await server.createSession(secretKey);
    let counts = checkpoints(await scrape(server));
    for (const deadline = Date.now() + 10_000; counts[0]! <= before! && Date.now() < deadline; await sleep(50)) counts = checkpoints(await scrape(server));
    expect(counts[0]).toBeGreaterThan(before!);
    expect(counts.slice(1)).toEqual([0, 0]);
    expect(await scrape(server)).toContain('wallet_checkout_sqlite_checkpoints_total{by="connection"} 0');
  });

  it('are kept per server: two servers in one process do not share counts', async () => {
    const other = await startTestServer();
    try {
      const series = 'wallet_checkout_http_requests_total{method="GET",route="/healthz",status="200"}';
      const before = sample(await scrape(server), series);
      await fetch(`${other.url}/healthz`);
      expect(sample(await scrape(other), series)).toBe(1);
      expect(sample(await scrape(server), series)).toBe(before);
    } finally {
      await other.close();
    }
  });
});
