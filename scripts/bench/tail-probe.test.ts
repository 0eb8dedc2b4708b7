import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Child, startChild } from './children';
import { sendPaced } from './paced';
import { schedulingSnapshot, tailFigures, type TailProbe, tailProbe, tailRows } from './tail';

/** The payment service, as far as the floor needs it: every charge succeeds after 20 ms. */
function slowService(): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"ch_1","status":"succeeded"}'), 20));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const token = JSON.stringify({ protocolVersion: 'ECv2', signedMessage: '{}' });
const payBody = JSON.stringify({ payment_data: { paymentMethodData: { info: {}, tokenizationData: { token } } } });

describe('the tail probe inside the durable floor, driven by the paced sender', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tail-probe-test-'));
  let service: Server;
  let probe: TailProbe;
  let floor: Child;
  let url: string;

  beforeAll(async () => {
    service = await slowService();
    probe = tailProbe();
    floor = await startChild(['node', ...probe.nodeArgs, '--import', 'tsx', 'scripts/bench/bare-pay.ts'], {
      ...probe.env,
      PAYMENT_SERVICE_URL: `http://127.0.0.1:${(service.address() as AddressInfo).port}`,
      PAYMENT_SERVICE_KEY: 'sk_test',
      BENCH_MERCHANT_ID: 'bench',
      BENCH_DURABLE_DATA_DIR: dir,
    }, /^READY /);
    url = floor.readyLine.slice('READY '.length).trim();
  }, 60_000);

  afterAll(async () => {
    await floor?.stop();
    await new Promise((resolve) => service?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
    if (probe) rmSync(probe.dir, { recursive: true, force: true });
  });

  it('sends on schedule, never early, and splits each request at the service call with its commits on either side', async () => {
    let session = 0;
    const take = () => ({ path: `/api/sessions/cs_${session++}/pay`, headers: { 'content-type': 'application/json' }, body: payBody });
    await probe.open(floor.pid);
    const before = schedulingSnapshot(floor.pid, process.pid);
    const samples = await sendPaced(url, take, 10, 100);
    const after = schedulingSnapshot(floor.pid, process.pid);
    const server = await probe.close(floor.pid);

    expect(samples.map((s) => s.seq).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const sample of samples) expect(sample.sentMs).toBeGreaterThanOrEqual(sample.dueMs);
    // The tenth is due 90 ms after the first, whatever the replies did.
    const sent = samples.map((s) => s.sentMs);
    expect(Math.max(...sent) - Math.min(...sent)).toBeGreaterThanOrEqual(89);

    // Two commits a pay, the attempt before the call and its outcome after, each timed on the floor's loop.
    expect(server.commitsMs).toHaveLength(20);
    const tail = tailFigures({ server, service: server, before, after, samples });
    expect(tail.split).toBe(10);
    for (const split of [tail.median, tail.slowest]) {
      expect(split.beforeSqlite).toBeGreaterThan(0);
      expect(split.afterSqlite).toBeGreaterThan(0);
      expect(split.beforeCall).toBeGreaterThanOrEqual(split.beforeSqlite);
      expect(split.call).toBeGreaterThanOrEqual(20);
      expect(split.toServer).toBeGreaterThanOrEqual(0);
      expect(split.back).toBeGreaterThanOrEqual(0);
      expect((split.toServer ?? 0) + split.beforeCall + split.call + split.after + (split.back ?? 0)).toBeCloseTo(split.total, 6);
    }
    expect(tail.senderLatenessMs?.p50).toBeGreaterThanOrEqual(0);
    expect(tail.server.eventLoopDelayMs.max).toBeGreaterThan(0);

    // npm run bench's rows: the split, the loop, the rig, each ours against both baselines.
    const rows = tailRows({ ours: { tailAt200: tail }, bare: { tailAt200: tail }, durable: { tailAt200: tail } });
    expect(rows).toHaveLength(3);
    expect(rows[0]?.[1]).toMatch(/^to server \d+\.\d, before \d+\.\d \(SQLite \d+\.\d\), call \d+\.\d/);
    expect(rows[1]?.[1]).toContain(`${tail.server.checkpoints.count} checkpoints`);
    expect(rows[2]?.[2]).toMatch(/^bare handler \d+\.\d ms; .*; durable floor /);
  }, 30_000);

  it('records nothing outside a window', async () => {
    const take = () => ({ path: '/api/sessions/cs_outside/pay', headers: { 'content-type': 'application/json' }, body: payBody });
    await sendPaced(url, take, 1, 100);
    await probe.open(floor.pid);
    const server = await probe.close(floor.pid);
    expect(server.requests).toEqual([]);
    expect(server.commitsMs).toEqual([]);
  }, 30_000);
});
