/**
 * The dashboard's "find any payment" on both engines (SQLite, and PostgreSQL
 * where the global setup started one): each kind of search term, the filters
 * (derived payment statuses, network, decline code, abandoned sessions), that
 * the SQL's derived status agrees with contracts/payment-status.ts, and that
 * each term reads an index.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PaymentStatus, PAYMENT_STATUSES, paymentStatusOf, SessionStatus } from '../../contracts';
import { createApp } from '../apps';
import { createDataCipher } from '../lib/data-cipher';
import { newSessionRow } from '../checkout/sessions';
import { paymentSearchOf } from '../checkout/payment-search';
import { emailIndexOf } from '../checkout/personal-data';
import { createTestDatabase, testDatabaseServer } from '../../testing/postgres';
import { eraseSessionAddresses } from './personal-data';
import { listSessions, type SessionListFilter, sessionPageQuery } from './session-list';
import type { SessionRow } from './sessions';
import { openStore, type Store } from '.';

const cipher = createDataCipher(Buffer.alloc(32, 9));

const engines = [
  { name: 'SQLite', available: true, databaseUrl: async () => ({ url: undefined, drop: async () => {} }) },
  { name: 'PostgreSQL', available: testDatabaseServer !== undefined, databaseUrl: () => createTestDatabase(testDatabaseServer!) },
];

for (const engine of engines) {
  describe.skipIf(!engine.available)(`finding payments on ${engine.name}`, () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wallet-checkout-search-'));
    let store: Store;
    let drop: () => Promise<void>;
    let appId: string;
    /** An app with many sessions, whose plans are those of a store in use. */
    let busyAppId: string;
    let sessions: SessionRow[];

    /** A session of the app, created at `created`, with `fields` over an open session's row. */
    const session = (id: string, created: number, fields: Partial<SessionRow> = {}): SessionRow => ({
      ...newSessionRow({ id: `cs_${id.padEnd(22, '0')}`, app_id: appId, amount: 1000, currency: 'USD', country_code: 'US', intent: 'charge', client_secret_hash: 'x', created, expires_at: created + 60_000 }),
      ...fields,
    });
    const paid = { status: 'succeeded', attempts: 1 } as const;

    beforeAll(async () => {
      const database = await engine.databaseUrl();
      drop = database.drop;
      store = await openStore(dataDir, database.url);
      const app = await createApp(store, { name: 'Search Shop', merchant_id: 'search_1', allowed_origins: ['https://shop.example'] });
      const other = await createApp(store, { name: 'Other Shop', merchant_id: 'search_2', allowed_origins: ['https://shop.example'] });
      if (!app.ok || !other.ok) throw new Error('no app');
      appId = app.value.app.id;
      sessions = [
        session('ref1001', 1, { ...paid, reference: 'order-1001', card_network: 'VISA', card_last4: '4242' }),
        session('ref1002', 2, { ...paid, reference: 'order-1002', card_network: 'MASTERCARD', card_last4: '4444' }),
        session('refx', 3, { ...paid, reference: 'xorder-10', description: 'Order 10 % off_all' }),
        session('usd', 4, { ...paid, amount: 4850, currency: 'USD', description: 'Large BLUE mug' }),
        session('kwd', 5, { ...paid, amount: 48500, currency: 'KWD' }),
        session('jpy', 6, { ...paid, amount: 4850, currency: 'JPY' }),
        session('email', 7, { ...paid, email_sealed: cipher.seal('Ada@Example.com'), email_index: emailIndexOf(cipher, 'Ada@Example.com') }),
        session('partial', 8, { ...paid, amount: 2000, amount_refunded: 500 }),
        session('refunded', 9, { ...paid, amount: 2000, amount_refunded: 2000 }),
        session('charged', 10, { ...paid, amount: 2000, amount_charged: 2500, amount_refunded: 2000 }),
        session('capturedpart', 11, { status: 'captured', attempts: 1, amount: 3000, amount_captured: 2000, amount_refunded: 1000 }),
        session('capturedall', 12, { status: 'captured', attempts: 1, amount: 3000, amount_captured: 2000, amount_refunded: 2000 }),
        session('declined', 13, { status: 'declined', attempts: 1, card_network: 'VISA', card_last4: '0002', decline_code: 'insufficient_funds' }),
        session('open', 14),
        session('expired', 15, { status: 'expired' }),
        session('expiredtried', 16, { status: 'expired', attempts: 1, decline_code: 'card_declined' }),
        session('wild', 17, { ...paid, reference: 'a*b?[c]', description: 'under_score' }),
        { ...session('otherapp', 18, { ...paid, reference: 'order-1003', card_last4: '4242' }), app_id: other.value.app.id },
      ];
      await store.insertInto('sessions').values(sessions).execute();
      const busy = await createApp(store, { name: 'Busy Shop', merchant_id: 'search_3', allowed_origins: ['https://shop.example'] });
      if (!busy.ok) throw new Error('no app');
      busyAppId = busy.value.app.id;
      const filler = Array.from({ length: 3000 }, (_, i) => ({
        ...session(`busy${String(i).padStart(5, '0')}`, 100 + i, { ...paid, reference: `bulk-${i}`, amount: 100 + (i % 997), card_network: i % 2 ? 'VISA' : 'MASTERCARD', card_last4: String(1000 + (i % 9000)), decline_code: i % 50 ? null : 'card_declined' }),
        app_id: busyAppId,
      }));
      for (let i = 0; i < filler.length; i += 200) await store.insertInto('sessions').values(filler.slice(i, i + 200)).execute();
      // PostgreSQL's autovacuum keeps statistics of a table in use; SQLite is never told any (as in production).
      if (engine.name === 'PostgreSQL') await sql`ANALYZE sessions`.execute(store);
    });
    afterAll(async () => {
      await store?.destroy();
      await drop?.();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const found = async (filter: Omit<SessionListFilter, 'appId' | 'limit'>) => {
      const page = await listSessions(store, { appId, limit: 50, ...filter });
      return page.rows.map((row) => row.id.slice(3).replace(/0+$/, ''));
    };
    const search = (q: string) => found({ search: paymentSearchOf(q, cipher) });

    it('finds a session by its id, exactly', async () => {
      expect(await search(sessions[3]!.id)).toEqual(['usd']);
      expect(await search(`${sessions[3]!.id.slice(0, -1)}1`)).toEqual([]);
    });

    it("finds references by their beginning, case-sensitive, never a number inside one, and no other app's", async () => {
      expect(await search('order-10')).toEqual(['ref1002', 'ref1001']);
      expect(await search('order-1001')).toEqual(['ref1001']);
      expect(await search('ORDER-10')).toEqual([]);
      expect(await search('1001')).toEqual([]);
      // Wildcards of either engine's pattern are the merchant's characters.
      expect(await search('a*b?[c')).toEqual(['wild']);
      expect(await search('a*')).toEqual(['wild']);
      expect(await search('order%')).toEqual([]);
    });

    it('finds the last four digits of the card', async () => {
      expect(await search('4242')).toEqual(['ref1001']);
      expect(await search('0002')).toEqual(['declined']);
    });

    it("finds an amount as the merchant writes it, exact in each payment's own currency", async () => {
      // 48.50 is 4850 cents and 48500 fils; no yen amount is 48.50.
      expect(await search('48.50')).toEqual(['kwd', 'usd']);
      expect(await search('48,5')).toEqual(['kwd', 'usd']);
      // 4850 is ¥4850 (and $4,850.00, KWD 4850.000: none here).
      expect(await search('4850')).toEqual(['jpy']);
      expect(await search('48.505')).toEqual([]);
    });

    it('finds a description by any part of it, in any case, its % and _ taken as they are', async () => {
      expect(await search('blue MUG')).toEqual(['usd']);
      expect(await search('% off')).toEqual(['refx']);
      expect(await search('10 _ off')).toEqual([]);
      expect(await search('10%')).toEqual([]);
      expect(await search('r_sc')).toEqual(['wild']);
    });

    it("finds the shopper's e-mail in any case through its blind index, never by opening a row", async () => {
      expect(await search(' ada@EXAMPLE.com ')).toEqual(['email']);
      expect(await search('ada@example.org')).toEqual([]);
      expect(paymentSearchOf('ada@example.com', cipher).emailIndex).not.toContain('ada');
    });

    it("forgets the e-mail's blind index when the retention period erases the e-mail", async () => {
      const email = sessions.find((row) => row.id.startsWith('cs_email'))!;
      expect(await eraseSessionAddresses(store, email.id, Date.now())).toBe(true);
      expect(await search('ada@example.com')).toEqual([]);
      expect((await store.selectFrom('sessions').select(['email_sealed', 'email_index']).where('id', '=', email.id).executeTakeFirst())).toEqual({ email_sealed: 'erased', email_index: null });
    });

    it('filters by card network and by the decline code, newest first', async () => {
      expect(await found({ network: 'VISA' })).toEqual(['declined', 'ref1001']);
      expect(await found({ declineCode: 'insufficient_funds' })).toEqual(['declined']);
      expect(await found({ declineCode: 'card_declined', hideAbandoned: true })).toEqual(['expiredtried']);
    });

    it('hides the sessions abandoned before any payment when asked: open, or expired with no attempt', async () => {
      const all = await found({});
      const shown = await found({ hideAbandoned: true });
      expect(all.filter((id) => !shown.includes(id))).toEqual(['expired', 'open']);
      expect(shown).toContain('expiredtried');
    });

    it('filters by payment status, derived ones included, as paymentStatusOf derives each', async () => {
      expect(await found({ paymentStatus: 'partially_refunded' })).toEqual(['capturedpart', 'charged', 'partial']);
      expect(await found({ paymentStatus: 'refunded' })).toEqual(['capturedall', 'refunded']);
      expect(await found({ paymentStatus: 'succeeded' })).not.toContain('partial');
      const rows = await store.selectFrom('sessions').selectAll().where('app_id', '=', appId).execute();
      for (const status of PAYMENT_STATUSES) {
        const expected = rows.filter((row) => paymentStatusOf({ ...row, status: SessionStatus.parse(row.status) }, false) === status).map((row) => row.id).sort();
        const listed = (await listSessions(store, { appId, limit: 50, paymentStatus: status as PaymentStatus })).rows.map((row) => row.id).sort();
        expect(listed, status).toEqual(expected);
      }
    });

    it.each<[string, Omit<SessionListFilter, 'appId' | 'limit'>, RegExp]>([
      ['the last four', { search: { last4: '4242', amounts: [] } }, /sessions_app_card_last4/],
      ['an e-mail', { search: { emailIndex: 'x', amounts: [] } }, /sessions_app_email_index/],
      ['an amount', { search: { amounts: [{ amount: 4850, currencies: ['USD'] }] } }, /sessions_app_amount/],
      ['a reference prefix', { search: { referencePrefix: 'order-10', amounts: [] } }, /sessions_app_reference/],
      ['a number: the last four, an amount and a reference, each', { search: paymentSearchOf('4242', cipher) }, /(?=[\s\S]*sessions_app_card_last4)(?=[\s\S]*sessions_app_amount)[\s\S]*sessions_app_reference/],
      ['a network', { network: 'VISA' }, /sessions_app_card_network/],
      ['a decline code', { declineCode: 'card_declined' }, /sessions_app_decline_code/],
    ])('reads %s from its index, not a scan of the table', async (_name, filter, index) => {
      const query = sessionPageQuery(store, { appId: busyAppId, limit: 20, ...filter }).compile();
      const explain = engine.name === 'PostgreSQL' ? 'EXPLAIN' : 'EXPLAIN QUERY PLAN';
      const plan = JSON.stringify((await store.executeQuery(CompiledQuery.raw(`${explain} ${query.sql}`, [...query.parameters]))).rows);
      expect(plan).toMatch(index);
      expect(plan).not.toMatch(/Seq Scan|SCAN sessions(?! USING)/);
    });
  });
}
