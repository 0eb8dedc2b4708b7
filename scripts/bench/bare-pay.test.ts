import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Child, startChild } from './children';

/** The payment service, as far as the floor needs it: every charge succeeds. */
function fakeService(): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'ch_1', status: 'succeeded' })));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const token = JSON.stringify({ protocolVersion: 'ECv2', signedMessage: '{}' });
const payBody = JSON.stringify({ payment_data: { paymentMethodData: { info: {}, tokenizationData: { token } } } });

describe('bare-pay.ts as the durable floor (BENCH_DURABLE_DATA_DIR)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bare-pay-test-'));
  let service: Server;
  let floor: Child;
  let url: string;

  beforeAll(async () => {
    service = await fakeService();
    const serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
    floor = await startChild(['node', '--import', 'tsx', 'scripts/bench/bare-pay.ts'], {
      PAYMENT_SERVICE_URL: serviceUrl,
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
  });

  const pay = (sessionId: string) => fetch(`${url}/api/sessions/${sessionId}/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payBody });

  it('commits the attempt with its charge request and then its outcome, and refuses a second pay of the session', async () => {
    const first = await pay('cs_1');
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ id: 'ch_1', status: 'succeeded' });
    expect((await pay('cs_1')).status).toBe(409);

    const db = new Database(join(dir, 'bare.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT id, request, outcome FROM attempts').all() as { id: string; request: string; outcome: string }[];
      expect(rows).toHaveLength(1);
      expect(rows[0]?.id).toBe('cs_1:attempt:1');
      expect(JSON.parse(rows[0]?.request ?? '')).toMatchObject({ amount: 2400, metadata: { session_id: 'cs_1' } });
      expect(JSON.parse(rows[0]?.outcome ?? '')).toEqual({ id: 'ch_1', status: 'succeeded' });
      // Committed as our store commits: WAL.
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      db.close();
    }
  });
});
