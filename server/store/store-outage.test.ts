/**
 * A store outage: the PostgreSQL store taken away while payments, reconciliation
 * and reads are in flight: its backends terminated (connections lost mid-work,
 * checked out and idle), then the cluster stopped hard and started again
 * seconds later. The server process stays up, answers 503 store_unavailable
 * with Retry-After while the store is gone, and once it is back every payment
 * settles with the service's ledger and the store agreeing: the short soak of
 * the unit suite, with one outage and kept cards charged by the merchant's
 * billing runs (merchant-initiated charges), and a shorter one of express checkouts priced
 * by a quote endpoint. Skipped where no PostgreSQL can be run.
 */
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startLookupServer } from '../../testing/apps-api';
import { startTestServer } from '../../testing/harness';
import { type ChildServer, startChildServer } from '../../testing/child-server';
import { findPostgresBinaries, type PostgresCluster, startPostgresCluster } from '../../testing/fleet/postgres-cluster';
import { runSoak, soakProblems } from '../../testing/soak';

const bin = process.env.TEST_DATABASE_URL ? undefined : findPostgresBinaries();
if (!bin) console.warn('\n[postgres] No PostgreSQL binaries of our own to stop: the store outage test is SKIPPED.\n');

/** What the merchant's server and the widget get while the store is down, and what an operator sees. */
interface DuringOutage {
  readiness: { status: number; body: string };
  createSession: { status: number; retryAfter: string | null; body: unknown };
  metrics: string;
}

describe.skipIf(!bin)('the PostgreSQL store lost mid-work, then back', () => {
  let cluster: PostgresCluster;
  const seen: DuringOutage[] = [];

  beforeAll(async () => {
    cluster = await startPostgresCluster(bin!);
  }, 60_000);

  afterAll(async () => {
    await cluster?.remove();
  });

  async function observe(server: ChildServer): Promise<void> {
    const readiness = await fetch(`${server.url}/readyz`);
    const created = await fetch(`${server.url}/api/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.demoSecretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 500, currency: 'USD', country_code: 'US' }),
    });
    seen.push({
      readiness: { status: readiness.status, body: await readiness.text() },
      createSession: { status: created.status, retryAfter: created.headers.get('retry-after'), body: await created.json() },
      metrics: await (await fetch(`${server.url}/metrics`)).text(),
    });
  }

  it('stays up, answers 503 store_unavailable meanwhile, and settles every payment once: 0 duplicates, 0 lost, 0 pending', async () => {
    const report = await runSoak({
      shoppers: 4,
      seconds: 12,
      faultRate: 0.1,
      crashes: 0,
      database: { cluster, url: cluster.url, outages: 1, outageMs: 3_000 },
      duringOutage: observe,
      drainTimeoutMs: 30_000,
      // Reconciliation every 300 ms: a pass is under way when the store goes.
      env: { RECONCILE_INTERVAL_MS: '300', LOG_LEVEL: 'warn' },
      // Cards kept, and charged by the merchant's billing runs through the outage too.
      mit: true,
    });
    const { server, audit, replies } = report;
    // Stopped even when an assertion below fails: the tests below take the database away again, and must see only their own servers.
    onTestFinished(async () => {
      await server.stop();
      rmSync(server.dataDir, { recursive: true, force: true });
    });
    expect(soakProblems(report), server.output()).toEqual([]);
    expect(audit.refunds.count, 'refunds were made through the outage too').toBeGreaterThan(0);
    expect(report.webhooks.recorded, 'events were recorded through the outage (soakProblems lists any never received, or received and never recorded)').toBeGreaterThan(0);
    expect(report.backendsTerminated, 'the server had connections to lose').toBeGreaterThan(0);
    expect(audit.succeeded, 'payments went through before and after the outage').toBeGreaterThan(0);
    expect(report.mit?.audit.succeeded, 'kept cards were charged without the shopper (soakProblems lists any duplicate, lost or mismatched)').toBeGreaterThan(0);
    // A shopper between payments when the store goes starts a new session every 200 ms until it is back: it meets the outage there, not at /pay.
    expect(replies.store_unavailable_503 + replies.other_error + (report.refusedBeforePay.store_unavailable ?? 0), 'some shopper met the outage').toBeGreaterThan(0);
    expect(report.otherErrors, server.output()).toEqual({});

    // The process that lived through it all still answers, and takes a new payment.
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);

    const [outage] = seen;
    expect(outage?.readiness.status).toBe(503);
    expect(JSON.parse(outage!.readiness.body)).toEqual({ status: 'not_ready', checks: { store: 'unavailable', payment_service: 'ok' } });
    expect(outage?.createSession).toMatchObject({ status: 503, retryAfter: expect.stringMatching(/^\d+$/), body: { error: { code: 'store_unavailable' } } });
    expect(outage?.metrics).toMatch(/^wallet_checkout_store_errors_total\{kind="unavailable"\} [1-9]/m);
  }, 90_000);

  it('an express soak through an outage: every charge its session quote total, no older quote paid', async () => {
    const report = await runSoak({
      shoppers: 3,
      seconds: 4,
      faultRate: 0.1,
      crashes: 0,
      database: { cluster, url: cluster.url, outages: 1, outageMs: 1_000 },
      drainTimeoutMs: 30_000,
      env: { RECONCILE_INTERVAL_MS: '300', LOG_LEVEL: 'warn' },
      express: true,
    });
    const { server, express } = report;
    onTestFinished(async () => {
      await server.stop();
      rmSync(server.dataDir, { recursive: true, force: true });
    });
    expect(soakProblems(report), server.output()).toEqual([]);
    expect(express?.relays.priced, 'the sheets were priced by the endpoint').toBeGreaterThan(0);
    expect(express?.quoteAudit.charges, 'charges were held to their quotes').toBeGreaterThan(0);
    expect(report.audit.succeeded).toBeGreaterThan(0);
    expect(report.otherErrors, server.output()).toEqual({});
  }, 90_000);

  it("the apps API says so in Google's shape (503 UNAVAILABLE, Retry-After), and answers again once the store is back", async () => {
    const lookup = await startLookupServer({ DATABASE_URL: cluster.url });
    try {
      const { id } = await lookup.createApp();
      const token = await lookup.token(['storage.file']);
      const get = () => fetch(`${lookup.url}/v3/apps/${id}`, { headers: { authorization: `Bearer ${token}` } });
      expect((await get()).status).toBe(200);
      await cluster.crash();
      try {
        const down = await get();
        expect(down.status).toBe(503);
        expect(down.headers.get('retry-after')).toBe('5');
        expect(await down.json()).toMatchObject({ error: { code: 503, status: 'UNAVAILABLE', errors: [{ reason: 'backendError' }] } });
      } finally {
        await cluster.start();
      }
      expect((await get()).status).toBe(200);
    } finally {
      await lookup.close();
    }
  }, 30_000);

  it('a hung database (accepts, answers nothing) turns into 503 store_unavailable, not requests waiting forever, then recovers', async () => {
    const server = await startTestServer({ DATABASE_URL: cluster.url, DATABASE_CONNECT_TIMEOUT_MS: '500', DATABASE_STATEMENT_TIMEOUT_MS: '500' });
    try {
      const { secretKey } = await server.merchant();
      const session = await server.createSession(secretKey);
      const paymentData = await server.walletPaymentData(session, 'visa-success-3ds');
      const read = () => fetch(`${server.url}/api/sessions/${session.id}`, { headers: { authorization: `Bearer ${secretKey}` } });
      await cluster.freeze();
      try {
        // More requests than the pool has connections: the ones waiting for a connection are bounded too.
        const replies = await Promise.all([...Array.from({ length: 12 }, read), server.pay(session, { payment_data: paymentData })]);
        for (const reply of replies) {
          expect(reply.status).toBe(503);
          expect(await reply.json()).toMatchObject({ error: { code: 'store_unavailable' } });
        }
      } finally {
        await cluster.thaw();
      }
      expect((await read()).status).toBe(200);
      const paid = await server.pay(session, { payment_data: paymentData });
      expect((await paid.json()).outcome.status).toBe('succeeded');
    } finally {
      await server.close();
    }
  }, 30_000);

  it('a server started while the database is down waits for it, then migrates and serves', async () => {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('CREATE DATABASE started_in_outage');
    await admin.end();
    const url = new URL(cluster.url);
    url.pathname = '/started_in_outage';
    await cluster.crash();
    // The database's port, answered by a stand-in that hangs up at once: the server's first tries are seen.
    let seen = () => undefined as void;
    const tried = new Promise<void>((resolve) => (seen = resolve));
    const standIn = createServer((socket) => {
      socket.destroy();
      seen();
    });
    await new Promise<void>((resolve) => standIn.listen(Number(url.port), '127.0.0.1', resolve));
    const starting = startChildServer({ env: { DATABASE_URL: url.toString(), LOG_LEVEL: 'warn' }, startTimeoutMs: 60_000 });
    await tried;
    await new Promise<void>((resolve) => standIn.close(() => resolve()));
    await cluster.start();
    const server = await starting;
    try {
      expect(server.output()).toContain('the store is unavailable at start: waiting for it');
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      const created = await fetch(`${server.url}/api/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.demoSecretKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 500, currency: 'USD', country_code: 'US' }),
      });
      expect(created.status).toBe(201);
    } finally {
      await server.stop();
      rmSync(server.dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
