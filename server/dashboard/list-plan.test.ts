/**
 * The payment list by reference (the dashboard's search box, GET /api/sessions?reference=)
 * is read through an index that gives its rows in the list's order: before migration 0017,
 * SQLite walked all of the app's sessions newest first to find one reference (bench figure 9).
 * A later page starts its walk at the cursor (a row value: with `created < ? OR (created = ? AND id < ?)`
 * SQLite bound `created` alone, and the page after the 9,000th took 5 times the first).
 * The plan is asserted, not a time: a store that grows makes a scan slower, never a plan different.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore, type Store } from '../store';
import { paymentMethodPageQuery, type PaymentMethodListFilter } from '../store/payment-methods';
import { sessionPageQuery } from '../store/session-list';

let dir: string;
let store: Store;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-plan-'));
  store = await openStore(dir);
});
afterAll(async () => {
  await store.destroy();
  rmSync(dir, { recursive: true, force: true });
});

it('finds a reference through (app_id, reference, created, id) on SQLite, without walking the app\'s sessions', async () => {
  const query = sessionPageQuery(store, { appId: 'app_x', reference: 'order-1', limit: 20 }).compile();
  // EXPLAIN does not run the statement: any literal stands for its parameters.
  const plan = await sql.raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${query.sql.replace(/\?/g, "'x'")}`).execute(store);
  const steps = plan.rows.map((row) => row.detail).join('; ');
  expect(steps).toMatch(/USING (COVERING )?INDEX sessions_app_reference_created \(app_id=\? AND reference=\?\)/);
  expect(steps).not.toContain('TEMP B-TREE');
});

it('starts a later page\'s index walk at the cursor, both of its columns bound, on SQLite', async () => {
  const query = sessionPageQuery(store, { appId: 'app_x', after: { created: 1_000, id: 'cs_x' }, limit: 20 }).compile();
  const plan = await sql.raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${query.sql.replace(/\?/g, "'x'")}`).execute(store);
  const steps = plan.rows.map((row) => row.detail).join('; ');
  expect(steps).toContain('USING INDEX sessions_app_created (app_id=? AND (created,id)<(?,?))');
  expect(steps).not.toContain('TEMP B-TREE');
});

it("reads the Saved cards page through payment_methods' indexes in the list's order: a customer's cards through (app_id, customer, created, id), a status along (app_id, created, id)", async () => {
  const planOf = async (filter: Omit<PaymentMethodListFilter, 'appId' | 'limit'>) => {
    const query = paymentMethodPageQuery(store, { appId: 'app_x', limit: 20, ...filter }).compile();
    const plan = await sql.raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${query.sql.replace(/\?/g, "'x'")}`).execute(store);
    return plan.rows.map((row) => row.detail).join('; ');
  };
  const byCustomer = await planOf({ customer: 'cust_1', status: { is: 'expired', at: Date.now() } });
  expect(byCustomer).toMatch(/USING INDEX payment_methods_app_customer_created \(app_id=\? AND customer=\?\)/);
  // A status is a test on each row along the app's cards newest first, no sort: 0.6 ms at most for a page of 10,000 cards, 1 in 100 of that status (docs/dashboard.md).
  for (const is of ['active', 'expired', 'detached'] as const) {
    const byStatus = await planOf({ status: { is, at: Date.now() }, after: { created: 1_000, id: 'pm_x' } });
    expect(byStatus).toContain('USING INDEX payment_methods_app_created (app_id=? AND (created,id)<(?,?))');
    expect(byStatus).not.toContain('TEMP B-TREE');
  }
  expect(byCustomer).not.toContain('TEMP B-TREE');
});
