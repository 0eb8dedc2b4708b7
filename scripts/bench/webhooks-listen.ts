/**
 * What `wallet-checkout listen` costs and how late it forwards (docs/webhooks.md#testing-webhooks-locally).
 *
 * The read: each pass of the listener is `GET /api/events?created_gte=<newest seen - 10 s>&limit=100`.
 * Timed over HTTP against a test server (SQLite) whose app has a history of 10,000 events over 30 days
 * and 10 events in the last seconds, beside what a follower without the window would read to find
 * them: the first page of 100, newest first. p50 / p99 of 300 runs each, interleaved, after 30 untimed.
 *
 * The delay: the listener (its source, through tsx, at its default --interval-ms 1000) forwarding to a
 * node:http receiver while 100 payments are made one after another (about 10 a second): the
 * receiver's clock at arrival minus the event's `created`. A pass comes every second, so p50 should
 * sit near half a second, p99 just under one.
 *
 *   npx tsx scripts/bench/webhooks-listen.ts
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Event } from '../../contracts';
import { startTestServer } from '../../testing/harness';
import { interleaved, median, percentile, round } from './stats';

const HISTORY = 10_000;
const RECENT = 10;
const RUNS = 300;
const PAYMENTS = 100;
const DAY_MS = 24 * 60 * 60 * 1000;
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

const server = await startTestServer();
try {
  const { appId, secretKey } = await server.merchant();
  const now = Date.now();
  const rows = Array.from({ length: HISTORY + RECENT }, (_, i) => {
    const created = i < HISTORY ? now - 30 * DAY_MS + Math.floor((i / HISTORY) * 30 * DAY_MS) : now - 5_000 + i - HISTORY;
    const id = `evt_${randomBytes(16).toString('base64url')}`;
    const body = JSON.stringify({ id, object: 'event', type: 'session.succeeded', created, app_id: appId, data: { object: { id: `cs_${randomBytes(16).toString('base64url')}`, object: 'checkout_session' } } });
    return { id, app_id: appId, type: 'session.succeeded', created, body, personal_data: 0, session_id: null };
  });
  for (let at = 0; at < rows.length; at += 500) await server.store.insertInto('events').values(rows.slice(at, at + 500)).execute();
  const timed = (query: string) => async () => {
    const started = performance.now();
    const reply = await fetch(`${server.url}/api/events?${query}`, { headers: { authorization: `Bearer ${secretKey}` } });
    const { data } = (await reply.json()) as { data: unknown[] };
    if (!reply.ok || data.length === 0) throw new Error(`GET /api/events?${query} answered ${reply.status} with ${data.length} events`);
    return performance.now() - started;
  };
  const window = timed(`created_gte=${now - 15_000}&limit=100`);
  const firstPage = timed('limit=100');
  await interleaved(30, window, firstPage);
  const reads = await interleaved(RUNS, window, firstPage);
  const figure = (ms: number[]) => `${round(median(ms))} / ${round(percentile(ms, 99))} ms`;
  console.log(`load average ${loadavg().map((n) => round(n, 1)).join(' ')}`);
  console.log(`a pass's read, the window (${RECENT} events):  p50 / p99 ${figure(reads.a)}`);
  console.log(`the first page of 100, newest first:   p50 / p99 ${figure(reads.b)}`);

  // The delay, on an app of its own (no history to skip).
  const merchant = await server.merchant();
  const delays: number[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      delays.push(Date.now() - (JSON.parse(body) as Event).created);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const listener = spawn(process.execPath, ['--import', 'tsx', 'packages/node/src/cli/main.ts', 'listen', '--forward-to', `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`], {
    cwd: repoRoot,
    env: { ...process.env, WALLET_CHECKOUT_URL: server.url, WALLET_CHECKOUT_SECRET_KEY: merchant.secretKey },
  });
  await new Promise<void>((resolve) => listener.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('Webhook signing secret') && resolve()));
  for (let i = 0; i < PAYMENTS; i++) {
    const session = await server.createSession(merchant.secretKey);
    await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-success-3ds') });
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const deadline = Date.now() + 10_000;
  while (delays.length < PAYMENTS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  listener.kill('SIGINT');
  receiver.close();
  console.log(`forwarded ${delays.length} of ${PAYMENTS}: delay from created to the receiver p50 ${median(delays)} ms, p99 ${percentile(delays, 99)} ms, max ${Math.max(...delays)} ms`);
} finally {
  await server.close();
}
