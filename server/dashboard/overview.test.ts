/**
 * The overview's figures on both engines, from payments of known amounts and outcomes written at known
 * instants around a period in New York across the spring daylight-saving change (a 23-hour day): the
 * sums, the success rate, the counts, each day's bucket, and the period's two boundaries.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardOverview } from '../../contracts';
import { type App, createApp } from '../apps';
import { openStore, type Store } from '../store';
import { createTestDatabase, type TestDatabase, testDatabaseServer } from '../../testing/postgres';
import { insertPayments, type PaymentRow } from '../../testing/session-rows';
import { dashboardOverview } from './overview';
import { overviewDays } from './overview-days';

const HOUR_MS = 60 * 60 * 1000;
const at = (iso: string) => Date.parse(iso);
const ZONE = 'America/New_York';
const PERIOD = { from: '2026-03-07', to: '2026-03-09', time_zone: ZONE };

/** New York: EST (−05:00) until 2026-03-08 02:00, EDT (−04:00) after. */
const payments = (appId: string, other: string): PaymentRow[] => [
  { id: 'cs_first_instant', appId, status: 'succeeded', amount: 100, created: at('2026-03-07T00:00:00-05:00') },
  { id: 'cs_before_period', appId, status: 'succeeded', amount: 5, created: at('2026-03-06T23:59:59.999-05:00') },
  { id: 'cs_delivery_refunded_part', appId, status: 'succeeded', amount: 1000, amountCharged: 1200, amountRefunded: 200, created: at('2026-03-07T12:00:00-05:00') },
  { id: 'cs_declined_funds_1', appId, status: 'declined', amount: 300, declineCode: 'insufficient_funds', created: at('2026-03-08T01:30:00-05:00') },
  { id: 'cs_declined_funds_2', appId, status: 'declined', amount: 300, declineCode: 'insufficient_funds', created: at('2026-03-08T03:30:00-04:00') },
  { id: 'cs_captured_refunded', appId, status: 'captured', amount: 5000, amountCaptured: 3000, amountRefunded: 3000, created: at('2026-03-08T10:00:00-04:00') },
  { id: 'cs_hold_uncaptured', appId, status: 'authorized', amount: 900, intent: 'hold', created: at('2026-03-08T11:00:00-04:00') },
  { id: 'cs_declined_honor', appId, status: 'declined', amount: 400, declineCode: 'do_not_honor', created: at('2026-03-09T09:00:00-04:00') },
  { id: 'cs_abandoned', appId, status: 'open', amount: 700, created: at('2026-03-09T10:00:00-04:00') },
  { id: 'cs_expired', appId, status: 'expired', amount: 800, created: at('2026-03-09T11:00:00-04:00') },
  { id: 'cs_euro_last_instant', appId, status: 'succeeded', amount: 700, currency: 'EUR', created: at('2026-03-09T23:59:59.999-04:00') },
  { id: 'cs_after_period', appId, status: 'succeeded', amount: 9, created: at('2026-03-10T00:00:00-04:00') },
  { id: 'cs_other_app', appId: other, status: 'succeeded', amount: 50_000, created: at('2026-03-08T12:00:00-04:00') },
];

describe('the overview\'s days', () => {
  it('spans each calendar day of the zone, 23 hours on the day the clocks go forward, and fixed offsets of half and quarter hours', () => {
    const days = overviewDays('2026-03-07', '2026-03-09', ZONE);
    expect(days.map((day) => day.date)).toEqual(['2026-03-07', '2026-03-08', '2026-03-09']);
    expect(days.map((day) => new Date(day.start).toISOString())).toEqual(['2026-03-07T05:00:00.000Z', '2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z']);
    expect(days.map((day) => (day.end - day.start) / HOUR_MS)).toEqual([24, 23, 24]);
    expect(overviewDays('2026-10-31', '2026-11-01', ZONE).map((day) => (day.end - day.start) / HOUR_MS)).toEqual([24, 25]);
    expect(new Date(overviewDays('2026-06-01', '2026-06-01', 'Asia/Kolkata')[0]!.start).toISOString()).toBe('2026-05-31T18:30:00.000Z');
    expect(new Date(overviewDays('2026-06-01', '2026-06-01', 'Asia/Kathmandu')[0]!.end).toISOString()).toBe('2026-06-01T18:15:00.000Z');
    expect(overviewDays('2026-06-01', '2026-06-02', 'UTC').map((day) => new Date(day.start).toISOString())).toEqual(['2026-06-01T00:00:00.000Z', '2026-06-02T00:00:00.000Z']);
  });

  it('starts a day at the jump where the clocks skip midnight (Santiago, September 2026: 00:00 is 01:00)', () => {
    const [day] = overviewDays('2026-09-06', '2026-09-06', 'America/Santiago');
    expect(new Date(day!.start).toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect((day!.end - day!.start) / HOUR_MS).toBe(23);
  });
});

const engines = [
  { name: 'SQLite', available: true, database: async (): Promise<TestDatabase | undefined> => undefined },
  { name: 'PostgreSQL', available: testDatabaseServer !== undefined, database: () => createTestDatabase(testDatabaseServer!) },
];

for (const engine of engines) {
  describe.skipIf(!engine.available)(`the overview's figures on ${engine.name}`, () => {
    let dir: string;
    let database: TestDatabase | undefined;
    let store: Store;
    let app: App;
    let overview: DashboardOverview;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-overview-'));
      database = await engine.database();
      store = await openStore(dir, database?.url);
      const apps: App[] = [];
      for (const name of ['Overview Shop', 'Other Shop']) {
        const created = await createApp(store, { name, merchant_id: name.replace(/\W/g, '_'), allowed_origins: ['https://shop.example'] });
        if (!created.ok) throw new Error(created.error.message);
        apps.push(created.value.app);
      }
      app = apps[0]!;
      await insertPayments(store, payments(app.id, apps[1]!.id));
      const answered = await dashboardOverview(store, app, PERIOD);
      if (!answered.ok) throw new Error(answered.error.message);
      overview = answered.value;
    });
    afterAll(async () => {
      await store?.destroy();
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('sums what the period\'s payments took, refunded and kept, per currency: a charge\'s amount charged, a captured hold\'s amount captured', () => {
      expect(overview.currencies.map((currency) => currency.currency)).toEqual(['EUR', 'USD']);
      const [eur, usd] = overview.currencies;
      // 100 at the first instant + 1,200 charged (1,000 and a delivery option) + 3,000 captured of a 5,000 hold; the uncaptured hold took nothing.
      expect(usd).toMatchObject({ currency_exponent: 2, gross_volume: 4300, refunded: 3200, net: 1100 });
      expect(eur).toMatchObject({ currency_exponent: 2, gross_volume: 700, refunded: 0, net: 700 });
    });

    it('rates success over the payments that reached an outcome: paid (the hold too) against declined, abandoned and expired ones left out', () => {
      const [eur, usd] = overview.currencies;
      expect(usd!.outcomes).toEqual({ succeeded: 4, reached_outcome: 7, success_rate: 4 / 7 });
      expect(eur!.outcomes).toEqual({ succeeded: 1, reached_outcome: 1, success_rate: 1 });
    });

    it('buckets each day of the merchant\'s zone, the 23-hour one included, every day present', () => {
      const [eur, usd] = overview.currencies;
      expect(usd!.days).toEqual([
        { date: '2026-03-07', gross_volume: 1300, refunded: 200, net: 1100 },
        { date: '2026-03-08', gross_volume: 3000, refunded: 3000, net: 0 },
        { date: '2026-03-09', gross_volume: 0, refunded: 0, net: 0 },
      ]);
      expect(eur!.days.map((day) => day.gross_volume)).toEqual([0, 0, 700]);
    });

    it('counts the payments by status and the declined ones by reason, most first, the other app\'s and those outside the period left out', () => {
      expect(overview.statuses).toEqual(
        expect.arrayContaining([
          { status: 'succeeded', count: 3 },
          { status: 'declined', count: 3 },
          { status: 'captured', count: 1 },
          { status: 'authorized', count: 1 },
          { status: 'open', count: 1 },
          { status: 'expired', count: 1 },
        ]),
      );
      expect(overview.statuses).toHaveLength(6);
      expect(overview.statuses.slice(0, 2).map((row) => row.count)).toEqual([3, 3]);
      expect(overview.decline_codes).toEqual([
        { code: 'insufficient_funds', count: 2 },
        { code: 'do_not_honor', count: 1 },
      ]);
    });

    it('takes a period\'s first instant and leaves out its end, in another zone the days move', async () => {
      const utc = await dashboardOverview(store, app, { ...PERIOD, time_zone: 'UTC' });
      if (!utc.ok) throw new Error(utc.error.message);
      // In UTC the period ends at 2026-03-10T00:00Z: the euro payment (03:59:59.999Z on the 10th) is out, the one 5 ms before New York's period is in.
      expect(utc.value.currencies.map((currency) => currency.currency)).toEqual(['USD']);
      expect(utc.value.currencies[0]!.gross_volume).toBe(4305);
      const oneDay = await dashboardOverview(store, app, { from: '2026-03-10', to: '2026-03-10', time_zone: ZONE });
      if (!oneDay.ok) throw new Error(oneDay.error.message);
      expect(oneDay.value.currencies[0]).toMatchObject({ currency: 'USD', gross_volume: 9, days: [{ date: '2026-03-10', gross_volume: 9 }] });
      const empty = await dashboardOverview(store, app, { from: '2025-01-01', to: '2025-01-31', time_zone: ZONE });
      expect(empty.ok && empty.value).toMatchObject({ currencies: [], statuses: [], decline_codes: [] });
    });
  });
}
