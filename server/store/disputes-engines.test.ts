/**
 * The disputes' queries on both engines (as engines.test.ts does for the rest of the store): the service's dispute
 * mirrored on the session of its charge with its events, the cursor's compare-and-set, the list's keyset, whether a
 * session is disputed, and the period's disputed amounts per currency. PostgreSQL's run is skipped only where no server
 * could be started (testing/postgres-global-setup.ts says so).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceDispute } from '../../contracts';
import { createApp } from '../apps';
import { applyServiceDispute } from '../disputes/sync';
import { createTestDatabase, testDatabaseServer } from '../../testing/postgres';
import { advanceDisputeCursor, disputeCursor, disputedSessions, disputeSummary, isSessionDisputed, listDisputes, merchantAccountsWithPayments, sessionOfCharge } from './disputes';
import { openStore, type Store } from '.';

const engines = [
  { name: 'SQLite', available: true, databaseUrl: async () => ({ url: undefined as string | undefined, drop: async () => undefined }) },
  { name: 'PostgreSQL', available: testDatabaseServer !== undefined, databaseUrl: () => createTestDatabase(testDatabaseServer!) },
];

for (const engine of engines) {
  describe.skipIf(!engine.available)(`disputes on ${engine.name}`, () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wallet-checkout-disputes-'));
    let database: { url: string | undefined; drop(): Promise<void> };
    let store: Store;
    let appId: string;
    let sessions = 0;

    beforeAll(async () => {
      database = await engine.databaseUrl();
      store = await openStore(dataDir, database.url);
      const created = await createApp(store, { name: 'Disputed Shop', merchant_id: 'disputed_1', allowed_origins: ['https://shop.example'] });
      if (!created.ok) throw new Error(created.error.message);
      appId = created.value.app.id;
    });
    afterAll(async () => {
      await store?.destroy();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    /** A paid session whose attempt made charge `ch_<n>`, in `currency`: its id and its charge's. */
    async function paidSession(currency = 'USD'): Promise<{ sessionId: string; chargeId: string }> {
      const n = ++sessions;
      const [sessionId, chargeId, now] = [`cs_disputed_${n}`, `ch_disputed${n}`, Date.now()];
      await store
        .insertInto('sessions')
        .values({ id: sessionId, app_id: appId, status: 'succeeded', amount: 2400, currency, country_code: 'US', description: null, reference: null, intent: 'charge', client_secret_hash: `h${n}`, outcome: null, amount_captured: null, created: now, updated: now, expires_at: now + 1000 })
        .execute();
      await store
        .insertInto('charge_attempts')
        .values({ id: `att_disputed_${n}`, session_id: sessionId, attempt_no: 1, idempotency_key: `${sessionId}:attempt:1`, status: 'succeeded', source_type: 'walletpay', charge_id: chargeId, outcome: null, request_sealed: null, created: now, updated: now })
        .execute();
      return { sessionId, chargeId };
    }

    const serviceDispute = (chargeId: string, changes: Partial<ServiceDispute> = {}): ServiceDispute => ({
      id: `dp_service_${chargeId}`,
      object: 'dispute',
      charge: chargeId,
      amount: 2400,
      currency: 'usd',
      reason: 'fraudulent',
      status: 'needs_response',
      evidence_due_by: 2_000_000_000,
      evidence: null,
      evidence_submitted_at: null,
      sequence: 1,
      created: 1_900_000_000,
      ...changes,
    });
    const apply = (dispute: ServiceDispute) => store.transaction().execute((trx) => applyServiceDispute(trx, dispute, Date.now()));
    const eventTypes = async (sessionId: string) =>
      (await store.selectFrom('events').select(['type', 'body']).where('app_id', '=', appId).orderBy('created').execute()).filter((row) => row.body.includes(`"session_id":"${sessionId}"`)).map((row) => row.type);

    it("mirrors a dispute on its charge's session, once per change, with its events; a charge not ours is left alone", async () => {
      const { sessionId, chargeId } = await paidSession();
      expect(await sessionOfCharge(store, chargeId)).toEqual({ session_id: sessionId, app_id: appId });
      const created = await apply(serviceDispute(chargeId));
      expect(created?.changed).toBe(true);
      expect(created?.row).toMatchObject({ session_id: sessionId, app_id: appId, currency: 'USD', status: 'needs_response', evidence_due_by: 2_000_000_000_000 });
      expect((await apply(serviceDispute(chargeId)))?.changed).toBe(false);
      const evidence = { explanation: 'Delivered.', billing_address_check: null, address_verification: null, shipping: null };
      await apply(serviceDispute(chargeId, { status: 'under_review', evidence, evidence_submitted_at: 1_900_000_100, sequence: 2 }));
      expect(await isSessionDisputed(store, sessionId)).toBe(true);
      await apply(serviceDispute(chargeId, { status: 'won', evidence, evidence_submitted_at: 1_900_000_100, sequence: 3 }));
      expect(await isSessionDisputed(store, sessionId)).toBe(false);
      // The evidence call's reply read after the feed brought the decision: older, so it takes nothing back.
      const stale = await apply(serviceDispute(chargeId, { status: 'under_review', evidence, evidence_submitted_at: 1_900_000_100, sequence: 2 }));
      expect([stale?.changed, stale?.row.status]).toEqual([false, 'won']);
      expect(await eventTypes(sessionId)).toEqual(['dispute.created', 'dispute.updated', 'dispute.closed']);
      expect(await apply(serviceDispute('ch_not_ours'))).toBeUndefined();
    });

    it('records a dispute first seen closed as created and closed; a lost one keeps its session disputed', async () => {
      const { sessionId, chargeId } = await paidSession();
      await apply(serviceDispute(chargeId, { status: 'lost' }));
      // Recorded in the same millisecond: their order in the store is not theirs to keep.
      expect((await eventTypes(sessionId)).sort()).toEqual(['dispute.closed', 'dispute.created']);
      expect(await disputedSessions(store, [sessionId, 'cs_nobody'])).toEqual(new Set([sessionId]));
    });

    it('moves the cursor by compare-and-set: of two readers of the same page, one', async () => {
      expect(await disputeCursor(store, 'disputed_1')).toBe(0);
      const move = (from: number, to: number) => store.transaction().execute((trx) => advanceDisputeCursor(trx, 'disputed_1', from, to));
      expect(await Promise.all([move(0, 5), move(0, 5)])).toEqual(expect.arrayContaining([true, false]));
      expect(await move(0, 9)).toBe(false);
      expect(await move(5, 9)).toBe(true);
      expect(await disputeCursor(store, 'disputed_1')).toBe(9);
      expect(await merchantAccountsWithPayments(store)).toEqual(['disputed_1']);
      // An app that never took money has no disputes to read.
      const unpaid = await createApp(store, { name: 'Unpaid Shop', merchant_id: 'unpaid_1', allowed_origins: ['https://shop.example'] });
      expect(unpaid.ok).toBe(true);
      expect(await merchantAccountsWithPayments(store)).toEqual(['disputed_1']);
    });

    it('lists newest first by keyset, and by status', async () => {
      const all = await listDisputes(store, { appId, limit: 100 });
      expect(all.rows.length).toBeGreaterThanOrEqual(2);
      const first = await listDisputes(store, { appId, limit: 1 });
      expect(first).toMatchObject({ hasMore: true, rows: [{ id: all.rows[0]!.id }] });
      const last = first.rows[0]!;
      const next = await listDisputes(store, { appId, limit: 1, after: { created: Number(last.created), id: last.id } });
      expect(next.rows[0]?.id).toBe(all.rows[1]!.id);
      expect((await listDisputes(store, { appId, status: 'lost', limit: 100 })).rows.every((row) => row.status === 'lost')).toBe(true);
    });

    it("sums the period's open and lost amounts per currency and counts every status", async () => {
      const from = Date.now();
      const euros = await paidSession('EUR');
      await apply(serviceDispute(euros.chargeId, { amount: 1500, currency: 'eur' }));
      const dollars = await paidSession();
      await apply(serviceDispute(dollars.chargeId, { amount: 700, status: 'lost' }));
      const won = await paidSession();
      await apply(serviceDispute(won.chargeId, { amount: 900, status: 'won' }));
      const summary = await disputeSummary(store, appId, { from, to: Date.now() + 1 });
      expect(summary).toEqual({
        amounts: [
          { currency: 'EUR', amount: 1500, count: 1 },
          { currency: 'USD', amount: 700, count: 1 },
        ],
        statuses: { needs_response: 1, under_review: 0, won: 1, lost: 1 },
      });
    });
  });
}
