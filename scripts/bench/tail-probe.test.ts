import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Child, startChild } from './children';
import { type FloorFixture, PAY_BODY, startFloor } from './floor-fixture';
import { sendPaced } from './paced';
import { schedulingSnapshot, tailFigures, type TailProbe, tailProbe, tailRows } from './tail';

describe('the tail probe inside the durable floor, driven by the paced sender', () => {
  let fixture: FloorFixture;
  let probe: TailProbe;
  let floor: Child;
  let url: string;

  beforeAll(async () => {
    probe = tailProbe();
    // The service as the bench's: every charge after 20 ms.
    fixture = await startFloor({ serviceDelayMs: 20, nodeArgs: probe.nodeArgs, env: probe.env });
    ({ floor, url } = fixture);
  }, 60_000);

  afterAll(async () => {
    await fixture?.stop();
    if (probe) rmSync(probe.dir, { recursive: true, force: true });
  });

  it('sends on schedule, never early, and splits each request at the service call with its commits on either side', async () => {
    let session = 0;
    const take = () => ({ path: `/api/sessions/cs_durable${session++}/pay`, headers: { 'content-type': 'application/json' }, body: PAY_BODY });
    await probe.open(floor.pid);
    const before = schedulingSnapshot(floor.pid, process.pid);
    const samples = await sendPaced(url, take, 10, 100);
    const after = schedulingSnapshot(floor.pid, process.pid);
    const server = await probe.close(floor.pid);

    expect(samples.map((s) => s.seq).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const sample of samples) expect(sample.sentMs).toBeGreaterThanOrEqual(sample.dueMs);
    // Each is due 10 ms after the one before, whatever the replies did; so the tenth leaves at least 90 ms after the first was due
    // (the first may itself leave late on a busy machine: its sending time is no measure of the schedule).
    const bySeq = [...samples].sort((a, b) => a.seq - b.seq);
    bySeq.slice(1).forEach((sample, i) => expect(sample.dueMs - bySeq[i]!.dueMs).toBeCloseTo(10, 6));
    expect(bySeq[9]!.sentMs - bySeq[0]!.dueMs).toBeGreaterThanOrEqual(90);

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
    const take = () => ({ path: '/api/sessions/cs_durable49/pay', headers: { 'content-type': 'application/json' }, body: PAY_BODY });
    await sendPaced(url, take, 1, 100);
    await probe.open(floor.pid);
    const server = await probe.close(floor.pid);
    expect(server.requests).toEqual([]);
    expect(server.commitsMs).toEqual([]);
  }, 30_000);
});

/** A server whose every request is one transaction of two inserts, BEGIN to COMMIT, as our store's synchronous transactions run them. */
const TRANSACTIONS_SERVER = `
import { createServer } from 'node:http';
import Database from 'better-sqlite3';
const db = new Database(process.env.DB_FILE);
db.pragma('journal_mode = WAL');
db.exec('CREATE TABLE t (x)');
const [begin, insert, commit] = ['BEGIN', 'INSERT INTO t VALUES (1)', 'COMMIT'].map((sql) => db.prepare(sql));
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    begin.run();
    insert.run();
    insert.run();
    commit.run();
    res.end('ok');
  });
});
server.listen(0, '127.0.0.1', () => console.log('READY http://127.0.0.1:' + server.address().port));
`;

describe('the tail probe in a server that commits transactions of several statements', () => {
  it('counts a commit per transaction, not its BEGIN', async () => {
    const probe = tailProbe();
    const dir = mkdtempSync(join(tmpdir(), 'tail-probe-transactions-'));
    const server = await startChild(['node', ...probe.nodeArgs, '--input-type=module', '-e', TRANSACTIONS_SERVER], { ...probe.env, DB_FILE: join(dir, 't.db') }, /^READY /);
    try {
      const url = server.readyLine.slice('READY '.length).trim();
      await probe.open(server.pid);
      for (let i = 0; i < 3; i++) await (await fetch(url, { method: 'POST' })).text();
      const window = await probe.close(server.pid);
      expect(window.commitsMs).toHaveLength(3);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
      rmSync(probe.dir, { recursive: true, force: true });
    }
  }, 30_000);
});
