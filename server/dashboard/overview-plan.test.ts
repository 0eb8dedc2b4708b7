/**
 * The overview's two statements are read through indexes, on both engines: the sums through migration
 * 0028's covering (app_id, created, status, currency, amounts...), one range per day and no table row;
 * the decline reasons through (app_id, status, created, id). The plan is asserted, not a time (bench
 * figure 12 times them on 100,000 sessions): a store that grows makes a scan slower, never a plan different.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../apps';
import { openStore, type Store } from '../store';
import { declineCodesQuery, overviewSumsQuery } from '../store/overview';
import { createTestDatabase, type TestDatabase, testDatabaseServer } from '../../testing/postgres';
import { insertPayments } from '../../testing/session-rows';
import { overviewDays } from './overview-days';

const DAY_MS = 24 * 60 * 60 * 1000;
const days = overviewDays('2026-03-01', '2026-03-30', 'Europe/Paris');
const period = { start: days[0]!.start, end: days[days.length - 1]!.end };

describe('on SQLite', () => {
  let dir: string;
  let store: Store;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-overview-plan-'));
    store = await openStore(dir);
  });
  afterAll(async () => {
    await store.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const planOf = async (query: CompiledQuery) => {
    const plan = await store.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]));
    return plan.rows.map((row) => row.detail).join('; ');
  };

  it('sums each day along the covering index, one range a day, reading no table row', async () => {
    const steps = await planOf(overviewSumsQuery('app_x', days).compile(store));
    expect(steps).toContain('SCAN days; SEARCH s USING COVERING INDEX sessions_app_created_money (app_id=? AND created>? AND created<?)');
    expect(steps).not.toMatch(/SCAN s\b/);
  });

  it('counts the declines through (app_id, status, created)', async () => {
    const steps = await planOf(declineCodesQuery(store, 'app_x', period).compile());
    expect(steps).toMatch(/SEARCH sessions USING INDEX sessions_app_status_created \(app_id=\? AND status=\? AND created>\? AND created<\?\)/);
  });
});

describe.skipIf(testDatabaseServer === undefined)('on PostgreSQL', () => {
  let dir: string;
  let database: TestDatabase;
  let store: Store;
  let appId: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-overview-plan-'));
    database = await createTestDatabase(testDatabaseServer!);
    store = await openStore(dir, database.url);
    // PostgreSQL plans by its statistics: a year of 3,000 payments of two apps each, vacuumed and analysed as autovacuum would have.
    const apps: string[] = [];
    for (const name of ['Plan Shop', 'Neighbour Shop']) {
      const created = await createApp(store, { name, merchant_id: name.replace(/\W/g, '_'), allowed_origins: ['https://shop.example'] });
      if (!created.ok) throw new Error(created.error.message);
      apps.push(created.value.app.id);
    }
    appId = apps[0]!;
    const yearEnd = days[days.length - 1]!.end;
    for (const app of apps) {
      await insertPayments(store, Array.from({ length: 3000 }, (_, i) => ({ id: `cs_${app}_${i}`, appId: app, status: i % 5 === 0 ? 'declined' : 'succeeded', declineCode: 'do_not_honor', amount: 1000, created: yearEnd - Math.floor((i / 3000) * 365 * DAY_MS) })));
    }
    await sql`VACUUM ANALYZE sessions`.execute(store);
  });
  afterAll(async () => {
    await store?.destroy();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const planOf = async (query: CompiledQuery) => {
    const plan = await store.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN ${query.sql}`, [...query.parameters]));
    return plan.rows.map((row) => row['QUERY PLAN']).join('\n');
  };

  it('sums each day with an index-only scan of the covering index, one range a day', async () => {
    const plan = await planOf(overviewSumsQuery(appId, days).compile(store));
    expect(plan).toMatch(/Index Only Scan using sessions_app_created_money on sessions s/);
    expect(plan).toMatch(/Index Cond: \(\(app_id = .*\) AND \(created >= "\*VALUES\*"\.column2\) AND \(created < "\*VALUES\*"\.column3\)/);
    expect(plan).not.toContain('Seq Scan on sessions');
  });

  it('counts the declines through (app_id, status, created)', async () => {
    const plan = await planOf(declineCodesQuery(store, appId, period).compile());
    expect(plan).toMatch(/Index Scan using sessions_app_status_created on sessions|Bitmap Index Scan on sessions_app_status_created/);
    expect(plan).toMatch(/Index Cond: \(\(app_id = .*\) AND \(status = 'declined'::text\) AND \(created >= .*\) AND \(created < .*\)\)/);
  });
});
