import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FloorFixture, PAY_BODY, startFloor } from './floor-fixture';

describe('bare-pay.ts as the durable floor (BENCH_DURABLE_DATA_DIR)', () => {
  let fixture: FloorFixture;

  beforeAll(async () => {
    fixture = await startFloor();
  }, 60_000);

  afterAll(() => fixture?.stop());

  const pay = (sessionId: string) => fetch(`${fixture.url}/api/sessions/${sessionId}/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: PAY_BODY });

  it('commits the attempt with its charge request and then its outcome, and refuses a second pay of the session', async () => {
    const first = await pay('cs_1');
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ id: 'ch_1', status: 'succeeded' });
    expect((await pay('cs_1')).status).toBe(409);

    const db = new Database(join(fixture.dir, 'bare.db'), { readonly: true });
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
