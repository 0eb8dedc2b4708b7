import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteFile } from '../../server/store';
import { FLOOR_SESSIONS, type FloorFixture, PAY_BODY, startFloor } from './floor-fixture';

describe('bare-pay.ts as the durable floor (BENCH_DURABLE_DATA_DIR)', () => {
  let fixture: FloorFixture;

  beforeAll(async () => {
    fixture = await startFloor();
  }, 60_000);

  afterAll(() => fixture?.stop());

  const pay = (sessionId: string) => fetch(`${fixture.url}/api/sessions/${sessionId}/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: PAY_BODY });

  it('commits what our pay commits: the claim and its attempt, then the outcome, the move and its event; a second pay of the session is refused', async () => {
    const db = new Database(sqliteFile(fixture.dir), { readonly: true });
    try {
      expect(db.prepare("SELECT count(*) AS n FROM sessions WHERE status = 'open'").get()).toEqual({ n: FLOOR_SESSIONS });

      const first = await pay('cs_durable3');
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual({ id: 'ch_1', status: 'succeeded' });
      expect((await pay('cs_durable3')).status).toBe(409);
      expect((await pay('cs_not_made')).status).toBe(409);

      const session = db.prepare("SELECT status, attempts, amount_charged, outcome FROM sessions WHERE id = 'cs_durable3'").get() as { status: string; attempts: number; amount_charged: number; outcome: string };
      expect(session).toMatchObject({ status: 'succeeded', attempts: 1, amount_charged: 2400 });
      expect(JSON.parse(session.outcome)).toEqual({ id: 'ch_1', status: 'succeeded' });
      const attempts = db.prepare('SELECT session_id, idempotency_key, status, request_sealed FROM charge_attempts').all() as { session_id: string; idempotency_key: string; status: string; request_sealed: string | null }[];
      expect(attempts).toHaveLength(1);
      // As ours: the request, kept while the outcome was unknown, goes with a known outcome.
      expect(attempts[0]).toEqual({ session_id: 'cs_durable3', idempotency_key: 'cs_durable3:attempt:1', status: 'succeeded', request_sealed: null });
      const events = db.prepare('SELECT type, session_id FROM events').all();
      expect(events).toEqual([{ type: 'session.succeeded', session_id: 'cs_durable3' }]);
      // Committed as our store commits: WAL.
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      db.close();
    }
  });
});
