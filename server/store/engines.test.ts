/**
 * The store on both engines it runs on: SQLite (one instance) and PostgreSQL
 * (DATABASE_URL, several instances). Same migrations, same queries; these
 * tests run once per engine. PostgreSQL's run is skipped only where no
 * server could be started (testing/postgres-global-setup.ts says so).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, findAppBySecretKey } from '../apps';
import { createDataCipher } from '../lib/data-cipher';
import { hashSecret } from '../../common/secrets';
import { clientSecretOpens, createSession } from '../checkout/sessions';
import { findSession, recordKeptCard, sessionsWithCardToKeep, setSessionStatus } from './sessions';
import { advanceCardUpdateCursor, cardUpdateCursor, detachPaymentMethodRow, findLivePaymentMethod, insertPaymentMethod, listPaymentMethods, merchantAccountsWithLiveCards, unconfirmedDetaches, updateLivePaymentMethod } from './payment-methods';
import { recordLatestQuote } from './quotes';
import { deleteQuoteEndpoint, findQuoteEndpoint, replaceQuoteEndpoint } from './quote-endpoints';
import { createTestDatabase, testDatabaseServer } from '../../testing/postgres';
import { startTestServer } from '../../testing/harness';
import { type DirectKeyStatus, directKeysOf, insertDirectKey, moveDirectKey, purgeMessageIds, rememberMessageId } from './direct';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from '../../common/store/idempotency';
import { eventsOfSession } from './dashboard';
import { deleteDeadDashboardSessions, insertDashboardSession, moveDashboardSessionToKey, touchDashboardSession } from './dashboard-sessions';
import { backendMigrations } from './migrations';
import { listSessions, type SessionListFilter, sessionPageQuery } from './session-list';
import { lapsedHoldIds, lapsedHoldsQuery, nextExpiry, pastDueSessionIds, pastDueSessionsQuery } from './session-expiry';
import { eraseSessionAddresses, eventsWithPersonalDataQuery, sessionsWithPersonalData, sessionsWithPersonalDataQuery } from './personal-data';
import { openPostgres } from './postgres';
import { advanceTestClock, testClockOffset } from './test-clocks';
import { err, ok } from '../../common/result';
import { claimOriginVerification, dueOriginVerifications, originVerificationsOf, recordOriginCheck, syncOriginVerifications } from './origin-verifications';
import { type BackendDatabase, defaultStoreLimits, openDatabase, openStore, sqliteFile, type Store } from '.';

interface Engine {
  name: string;
  /** Where the store is: the env a server needs, and how to remove it. */
  provision(): Promise<{ dataDir: string; databaseUrl: string | undefined; remove(): Promise<void> }>;
}

const cipher = createDataCipher(Buffer.alloc(32, 7));
const tempDir = () => mkdtempSync(join(tmpdir(), 'wallet-checkout-store-'));
const engines: (Engine & { available: boolean })[] = [
  {
    name: 'SQLite',
    available: true,
    async provision() {
      const dataDir = tempDir();
      return { dataDir, databaseUrl: undefined, remove: async () => rmSync(dataDir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'PostgreSQL',
    available: testDatabaseServer !== undefined,
    async provision() {
      const dataDir = tempDir();
      const database = await createTestDatabase(testDatabaseServer!);
      return {
        dataDir,
        databaseUrl: database.url,
        async remove() {
          await database.drop();
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  },
];

for (const engine of engines) {
  describe.skipIf(!engine.available)(`the store on ${engine.name}`, () => {
    let where: Awaited<ReturnType<Engine['provision']>>;
    let store: Store;

    beforeAll(async () => {
      where = await engine.provision();
      store = await openStore(where.dataDir, where.databaseUrl);
    });
    afterAll(async () => {
      await store?.destroy();
      await where?.remove();
    });

    const newApp = async () => {
      const created = await createApp(store, { name: 'Engine Shop', merchant_id: 'engine_1', allowed_origins: ['https://shop.example'] });
      if (!created.ok) throw new Error(created.error.message);
      return { ...created.value.app, keyHash: hashSecret(created.value.secretKey) };
    };
    /** Who creates the app's sessions: the app, with its secret key. */
    const callerOf = (app: { id: string; keyHash: string }) => ({ appId: app.id, keyHash: app.keyHash });

    it("reads a session's events for the dashboard's timeline, with a refund event's body (the refund it reports) and no other's", async () => {
      const app = await newApp();
      const row = (id: string, type: string, created: number, body: string, personal_data = 0) => ({ id, app_id: app.id, type, created, body, personal_data, session_id: 'cs_timeline' });
      await store
        .insertInto('events')
        .values([row('evt_timeline_paid', 'session.succeeded', 1, 'sealed-body', 1), row('evt_timeline_refund', 'refund.succeeded', 2, '{"data":{"object":{"object":"refund","id":"re_1"}}}')])
        .execute();
      expect(await eventsOfSession(store, app.id, 'cs_timeline')).toEqual([
        { id: 'evt_timeline_paid', type: 'session.succeeded', created: 1, refund_body: null },
        { id: 'evt_timeline_refund', type: 'refund.succeeded', created: 2, refund_body: '{"data":{"object":{"object":"refund","id":"re_1"}}}' },
      ]);
    });

    it('migrates once: every migration recorded, opening again changes nothing', async () => {
      const again = await openStore(where.dataDir, where.databaseUrl);
      await again.destroy();
      const tables = (await store.introspection.getTables()).map((table) => table.name);
      expect(tables).toEqual(expect.arrayContaining(['apps', 'sessions', 'charge_attempts', 'idempotency_keys', 'direct_keys', 'wallet_messages']));
      const ran = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(store);
      expect(ran.rows.map((row) => row.name)).toEqual(Object.keys(backendMigrations));
    });

    it("keeps each app's origins' verification rows in step with its list, claims a due one once, and counts failed checks", async () => {
      const created = await createApp(store, { name: 'Platform Shop', merchant_id: 'engine_platform', allowed_origins: ['https://a.example', 'https://b.example'], google_pay_mode: 'platform' });
      if (!created.ok) throw new Error(created.error.message);
      const { id } = created.value.app;
      const rows = await originVerificationsOf(store, id);
      expect(rows.map((row) => row.origin)).toEqual(['https://a.example', 'https://b.example']);
      // Two syncs at once (two requests saving the list): one row per origin, and the rows already there keep their tokens.
      await Promise.all([syncOriginVerifications(store, id, ['https://b.example', 'https://c.example'], 5), syncOriginVerifications(store, id, ['https://b.example', 'https://c.example'], 6)]);
      const synced = await originVerificationsOf(store, id);
      expect(synced.map((row) => row.origin).sort()).toEqual(['https://b.example', 'https://c.example']);
      expect(synced.find((row) => row.origin === 'https://b.example')!.token).toBe(rows[1]!.token);

      const far = 2 ** 42;
      const due = (await dueOriginVerifications(store, far, 100)).filter((row) => row.app_id === id);
      expect(due).toHaveLength(2);
      const [first] = due;
      const claims = await Promise.all([claimOriginVerification(store, first!, far + 1), claimOriginVerification(store, first!, far + 2)]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect((await dueOriginVerifications(store, far, 100)).filter((row) => row.app_id === id)).toHaveLength(1);

      const failed = await recordOriginCheck(store, id, first!.origin, { ok: false, reason: 'the origin answered HTTP 404' }, far, far + 10);
      const again = await recordOriginCheck(store, id, first!.origin, { ok: false, reason: 'connection refused' }, far + 1, far + 11);
      expect(failed).toMatchObject({ failures: 1, verified_at: null });
      expect(again).toMatchObject({ failures: 2, last_failure: 'connection refused', last_checked: far + 1, next_check: far + 11 });
      expect(typeof again!.next_check).toBe('number');
      expect(await recordOriginCheck(store, id, first!.origin, { ok: true }, far + 2, far + 12)).toMatchObject({ failures: 0, last_failure: null, verified_at: far + 2 });
      expect(await recordOriginCheck(store, id, 'https://gone.example', { ok: true }, far, far)).toBeUndefined();
    });

    it('moves a session priced by a quote only while that quote is still its latest (the claim of checkout/pay.ts)', async () => {
      const app = await newApp();
      const sessionIds = await Promise.all(
        [1, 2].map(async () => {
          const created = await createSession(store, cipher, callerOf(app), { amount: 2400, currency: 'USD', country_code: 'US' });
          if (!created.ok) throw new Error(created.error.message);
          return created.value.session.id;
        }),
      );
      const [quoted, unquoted] = sessionIds as [string, string];
      const claim = (id: string, latestQuote: string | null) => store.transaction().execute((trx) => setSessionStatus(trx, id, ['open'], 'processing', {}, { latest_quote: latestQuote }));
      expect(await recordLatestQuote(store, quoted, ['open'], '{"id":"qt_first"}', () => true)).toBe(true);
      expect(await recordLatestQuote(store, quoted, ['open'], '{"id":"qt_second"}', () => true)).toBe(true);
      // Priced by the first quote, or by none: a newer one was recorded since.
      expect(await claim(quoted, '{"id":"qt_first"}')).toBeUndefined();
      expect(await claim(quoted, null)).toBeUndefined();
      expect(await claim(quoted, '{"id":"qt_second"}')).toMatchObject({ status: 'processing', latest_quote: '{"id":"qt_second"}' });
      // A session never quoted holds null, which the claim compares as such.
      expect(await claim(unquoted, '{"id":"qt_first"}')).toBeUndefined();
      expect(await claim(unquoted, null)).toMatchObject({ status: 'processing' });
      // Once claimed, no quote is recorded any more.
      expect(await recordLatestQuote(store, quoted, ['open'], '{"id":"qt_third"}', () => true)).toBe(false);
    });

    it('records a quote only over one it replaces, whatever order they come in, and two at once as one of them', async () => {
      const created = await createSession(store, cipher, callerOf(await newApp()), { amount: 2400, currency: 'USD', country_code: 'US' });
      if (!created.ok) throw new Error(created.error.message);
      const id = created.value.session.id;
      const quote = (asked: number) => JSON.stringify({ id: `qt_${asked}`, created: asked });
      const askedNoLater = (asked: number) => (stored: string) => (JSON.parse(stored) as { created: number }).created <= asked;
      const latest = async () => (await findSession(store, id))?.latest_quote;
      expect(await recordLatestQuote(store, id, ['open'], quote(3), askedNoLater(3))).toBe(true);
      // Asked before the one stored, answered after it: the session stays payable, its latest unchanged.
      expect(await recordLatestQuote(store, id, ['open'], quote(2), askedNoLater(2))).toBe(true);
      expect(await latest()).toBe(quote(3));
      expect(await recordLatestQuote(store, id, ['open'], quote(4), askedNoLater(4))).toBe(true);
      expect(await latest()).toBe(quote(4));
      // Two answers at once: the compare-and-set leaves the later asked stored.
      await Promise.all([recordLatestQuote(store, id, ['open'], quote(6), askedNoLater(6)), recordLatestQuote(store, id, ['open'], quote(5), askedNoLater(5))]);
      expect(await latest()).toBe(quote(6));
    });

    it('keeps one live payment method per app, customer and card, detaches it once, and pages them newest first', async () => {
      const app = await newApp();
      const row = (id: string, customer: string, created: number) => ({
        id, app_id: app.id, customer, fingerprint: 'fp_1', service_payment_method: `pm_service_${id}`, network: 'VISA', last4: '4242', exp_month: 12, exp_year: 2040,
        token_kind: 'card', agreement: '{}', network_transaction_reference: '123456789012345', country_code: 'US', created, updated: created, detached: null, service_detached: null,
      });
      const pm = (suffix: string) => `pm_${app.id.slice(-8)}_${suffix}`;
      await insertPaymentMethod(store, row(pm('a'), 'cus_1', 2 ** 41));
      // The partial unique index: a second live row of the customer's card is refused, another customer's is not.
      await expect(insertPaymentMethod(store, row(pm('b'), 'cus_1', 2 ** 41 + 1))).rejects.toThrow();
      await insertPaymentMethod(store, row(pm('c'), 'cus_2', 2 ** 41 + 2));
      expect((await findLivePaymentMethod(store, app.id, 'cus_1', 'fp_1'))?.id).toBe(pm('a'));
      expect(await detachPaymentMethodRow(store, pm('a'), 2 ** 41 + 3)).toMatchObject({ id: pm('a'), detached: 2 ** 41 + 3 });
      expect(await detachPaymentMethodRow(store, pm('a'), 2 ** 41 + 4)).toBeUndefined();
      expect(await updateLivePaymentMethod(store, pm('a'), { last4: '0000' })).toBeUndefined();
      expect(await findLivePaymentMethod(store, app.id, 'cus_1', 'fp_1')).toBeUndefined();
      // Detached, the card may be kept anew.
      await insertPaymentMethod(store, row(pm('d'), 'cus_1', 2 ** 41 + 5));
      const first = await listPaymentMethods(store, { appId: app.id, limit: 2 });
      expect([first.rows.map((r) => r.id), first.hasMore]).toEqual([[pm('d'), pm('c')], true]);
      const last = first.rows.at(-1)!;
      expect((await listPaymentMethods(store, { appId: app.id, limit: 2, after: { created: last.created, id: last.id } })).rows.map((r) => r.id)).toEqual([pm('a')]);
      expect((await listPaymentMethods(store, { appId: app.id, customer: 'cus_1', limit: 10 })).rows.map((r) => r.id)).toEqual([pm('d'), pm('a')]);
      expect(await unconfirmedDetaches(store, 100)).toContainEqual({ id: pm('a'), service_payment_method: `pm_service_${pm('a')}`, merchant_id: 'engine_1' });
      expect(await merchantAccountsWithLiveCards(store)).toContain('engine_1');
    });

    it("moves a merchant account's card-update cursor once from where it was read, and keeps a paid session's card once", async () => {
      const merchant = `cursor_${Date.now()}`;
      const advance = (from: number, to: number) => store.transaction().execute((trx) => advanceCardUpdateCursor(trx, merchant, from, to));
      expect(await cardUpdateCursor(store, merchant)).toBe(0);
      expect([await advance(0, 5), await advance(0, 7), await advance(5, 9), await advance(5, 11)]).toEqual([true, false, true, false]);
      expect(await cardUpdateCursor(store, merchant)).toBe(9);

      const app = await newApp();
      const save = { customer: 'cus_1', usage: 'unscheduled' };
      const created = await createSession(store, cipher, callerOf(app), { amount: 2400, currency: 'USD', country_code: 'US', save_payment_method: save });
      if (!created.ok) throw new Error(created.error.message);
      const id = created.value.session.id;
      await store.transaction().execute((trx) => setSessionStatus(trx, id, ['open'], 'succeeded', {}));
      expect((await sessionsWithCardToKeep(store, ['succeeded'], 1000)).map((row) => row.id)).toContain(id);
      expect(await recordKeptCard(store, id, { payment_method: 'pm_first' })).toBe(true);
      expect(await recordKeptCard(store, id, { payment_method: 'pm_second' })).toBe(false);
      expect(await recordKeptCard(store, id, { payment_method_error: '{}' })).toBe(false);
      expect((await findSession(store, id))?.payment_method).toBe('pm_first');
      expect((await sessionsWithCardToKeep(store, ['succeeded'], 1000)).map((row) => row.id)).not.toContain(id);
    });

    it("keeps one quote endpoint per app, replaced whole, and removes it once", async () => {
      const app = await newApp();
      await replaceQuoteEndpoint(store, { app_id: app.id, url: 'https://a.example/quotes', secret_sealed: 'sealed-1', created: 2 ** 41 });
      await replaceQuoteEndpoint(store, { app_id: app.id, url: 'https://b.example/quotes', secret_sealed: 'sealed-2', created: 2 ** 41 + 1 });
      expect(await findQuoteEndpoint(store, app.id)).toEqual({ app_id: app.id, url: 'https://b.example/quotes', secret_sealed: 'sealed-2', created: 2 ** 41 + 1 });
      expect(await deleteQuoteEndpoint(store, app.id)).toBe(true);
      expect(await deleteQuoteEndpoint(store, app.id)).toBe(false);
      expect(await findQuoteEndpoint(store, app.id)).toBeUndefined();
    });

    it('keeps ms timestamps and amounts past 2^31 as numbers, and booleans as 0/1', async () => {
      const app = await newApp();
      const session = await createSession(store, cipher, callerOf(app), { amount: 99_999_999_999, currency: 'JPY', country_code: 'JP' });
      if (!session.ok) throw new Error(session.error.message);
      const row = await findSession(store, session.value.session.id);
      expect(row).toMatchObject({ amount: 99_999_999_999, created: session.value.session.created });
      expect(typeof row?.created).toBe('number');
      expect(row!.created).toBeGreaterThan(2 ** 31);
      const flag = await store.selectFrom('apps').select('security_assessment_passed').where('id', '=', app.id).executeTakeFirstOrThrow();
      expect(flag.security_assessment_passed).toBe(0);
    });

    it('finds a session by id and by its client secret only', async () => {
      const app = await newApp();
      const created = await createSession(store, cipher, callerOf(app), { amount: 2400, currency: 'usd', country_code: 'us', description: 'Coffee' });
      if (!created.ok) throw new Error(created.error.message);
      const { id, client_secret } = created.value.session;
      const found = await findSession(store, id);
      expect(found).toMatchObject({ id, app_id: app.id, status: 'open', currency: 'USD', attempts: 0, outcome: null });
      expect(clientSecretOpens(found!, client_secret)).toBe(true);
      expect(clientSecretOpens(found!, `${client_secret}x`)).toBe(false);
      expect(await findSession(store, 'cs_missing')).toBeUndefined();
    });

    it('refuses a second attempt with the same idempotency key or number', async () => {
      const app = await newApp();
      const created = await createSession(store, cipher, callerOf(app), { amount: 100, currency: 'USD', country_code: 'US' });
      if (!created.ok) throw new Error(created.error.message);
      const attempt = (id: string, attemptNo: number, key: string) =>
        store
          .insertInto('charge_attempts')
          .values({ id, session_id: created.value.session.id, attempt_no: attemptNo, idempotency_key: key, status: 'in_flight', source_type: 'walletpay', charge_id: null, outcome: null, request_sealed: null, created: Date.now(), updated: Date.now() })
          .execute();
      await attempt('att_1', 1, `${created.value.session.id}:attempt:1`);
      await expect(attempt('att_2', 2, `${created.value.session.id}:attempt:1`)).rejects.toThrow();
      await expect(attempt('att_3', 1, `${created.value.session.id}:attempt:9`)).rejects.toThrow();
    });

    it('claims an idempotency key once: replay, mismatch, in progress, release', async () => {
      const claim = (key: string, fingerprint: string) => claimIdempotencyKey(store, { scope: 'app_1', key, fingerprint, now: Date.now() });
      expect(await claim('k1', 'f1')).toEqual({ kind: 'claimed' });
      expect(await claim('k1', 'f1')).toEqual({ kind: 'in_progress' });
      expect(await claim('k1', 'f2')).toEqual({ kind: 'mismatch' });
      await completeIdempotencyKey(store, 'app_1', 'k1', { status: 201, body: '{"id":1}' });
      expect(await claim('k1', 'f1')).toEqual({ kind: 'replay', reply: { status: 201, body: '{"id":1}' } });
      await releaseIdempotencyKey(store, 'app_1', 'k1');
      expect(await claim('k1', 'f1')).toMatchObject({ kind: 'replay' });

      expect(await claim('k2', 'f1')).toEqual({ kind: 'claimed' });
      await releaseIdempotencyKey(store, 'app_1', 'k2');
      expect(await claim('k2', 'f1')).toEqual({ kind: 'claimed' });
      // Of concurrent claims of one new key, exactly one wins.
      const racing = await Promise.all(Array.from({ length: 8 }, () => claim('k3', 'f1')));
      expect(racing.filter((c) => c.kind === 'claimed')).toHaveLength(1);
    });

    it('lets a retry take over a claim left unfinished for longer than any request runs, once', async () => {
      const claimAt = (now: number, fingerprint = 'f1') => claimIdempotencyKey(store, { scope: 'app_2', key: 'k1', fingerprint, now, abandonedAfterMs: 60_000 });
      expect(await claimAt(1_000_000)).toEqual({ kind: 'claimed' });
      expect(await claimAt(1_059_999)).toEqual({ kind: 'in_progress' });
      expect(await claimAt(1_060_000, 'f2')).toEqual({ kind: 'mismatch' });
      const racing = await Promise.all(Array.from({ length: 8 }, () => claimAt(1_060_000)));
      expect(racing.filter((c) => c.kind === 'claimed')).toHaveLength(1);
      expect(await claimAt(1_060_001)).toEqual({ kind: 'in_progress' });
      await completeIdempotencyKey(store, 'app_2', 'k1', { status: 201, body: '{}' });
      expect(await claimAt(9_000_000)).toMatchObject({ kind: 'replay' });
    });

    it("remembers a token's message id once across instances, and purges it after expiry", async () => {
      const [first, second] = [store, await openStore(where.dataDir, where.databaseUrl)];
      try {
        const expires = Date.UTC(2026, 0, 1);
        // Two instances receive the same token at once: exactly one may open it.
        const racing = await Promise.all([first, second, first, second].map((instance) => rememberMessageId(instance, 'msg-replayed', expires)));
        expect(racing.filter(Boolean)).toHaveLength(1);
        expect(await rememberMessageId(second, 'msg-other', expires + 1000)).toBe(true);
        expect(await purgeMessageIds(first, expires + 1)).toBe(1);
        expect(await rememberMessageId(second, 'msg-replayed', expires)).toBe(true);
        expect(await rememberMessageId(first, 'msg-other', expires + 1000)).toBe(false);
      } finally {
        await second.destroy();
      }
    });

    it("keeps direct-mode keys per app, the newest registered first, and moves each only from the status it is in", async () => {
      const app = await newApp();
      const row = (id: string, created: number) => ({ id, app_id: app.id, status: 'pending', public_key: `pk_${id}`, private_key_sealed: 'v1.x', created, registered: null, retired: null });
      await insertDirectKey(store, row('dk_old', 1000));
      await insertDirectKey(store, row('dk_new', 2000));
      const move = (keyId: string, from: DirectKeyStatus[], to: 'registered' | 'retired', now: number) => moveDirectKey(store, { appId: app.id, keyId, from, to, now });
      expect(await move('dk_new', ['pending'], 'registered', 3000)).toBe(true);
      expect(await move('dk_old', ['pending'], 'registered', 4000)).toBe(true);
      expect(await move('dk_old', ['pending'], 'registered', 5000)).toBe(false);
      expect((await directKeysOf(store, app.id, ['registered'])).map((key) => key.id)).toEqual(['dk_old', 'dk_new']);
      expect(await move('dk_old', ['pending', 'registered'], 'retired', 6000)).toBe(true);
      expect(await directKeysOf(store, app.id, ['registered'])).toMatchObject([{ id: 'dk_new', registered: 3000 }]);
      expect((await directKeysOf(store, app.id)).map((key) => [key.id, key.status])).toEqual([['dk_old', 'retired'], ['dk_new', 'registered']]);
      // Made and registered within the same clock ticks as dk_new: the later registration is still the newest, whatever the ids.
      await insertDirectKey(store, row('dk_a_later', 2000));
      expect(await move('dk_a_later', ['pending'], 'registered', 3000)).toBe(true);
      expect((await directKeysOf(store, app.id, ['registered'])).map((key) => key.id)).toEqual(['dk_a_later', 'dk_new']);
    });

    it('lists an app\'s sessions newest first by (created, id), a page after a cursor, filters combined', async () => {
      const app = await newApp();
      const other = await newApp();
      const row = (id: string, appId: string, created: number, status: string, reference: string | null) =>
        ({ id, app_id: appId, status, amount: 100, currency: 'USD', country_code: 'US', description: null, reference, intent: 'charge', client_secret_hash: 'x', outcome: null, amount_captured: null, created, updated: created, expires_at: created + 60_000 });
      await store
        .insertInto('sessions')
        .values([
          row('cs_a', app.id, 1000, 'open', 'r1'),
          row('cs_b', app.id, 2000, 'succeeded', 'r1'),
          row('cs_c', app.id, 2000, 'open', null),
          row('cs_d', app.id, 2000, 'open', 'r2'),
          row('cs_e', app.id, 3000, 'succeeded', 'r1'),
          row('cs_z', other.id, 2500, 'open', 'r1'),
        ])
        .execute();
      const ids = async (filter: Partial<SessionListFilter>) => {
        const page = await listSessions(store, { appId: app.id, limit: 10, ...filter });
        return [page.rows.map((session) => session.id), page.hasMore];
      };
      expect(await ids({})).toEqual([['cs_e', 'cs_d', 'cs_c', 'cs_b', 'cs_a'], false]);
      expect(await ids({ limit: 2 })).toEqual([['cs_e', 'cs_d'], true]);
      expect(await ids({ limit: 2, after: { created: 2000, id: 'cs_d' } })).toEqual([['cs_c', 'cs_b'], true]);
      expect(await ids({ limit: 2, after: { created: 2000, id: 'cs_b' } })).toEqual([['cs_a'], false]);
      expect(await ids({ status: 'succeeded' })).toEqual([['cs_e', 'cs_b'], false]);
      expect(await ids({ reference: 'r1', createdGte: 2000, createdLt: 3000 })).toEqual([['cs_b'], false]);
      expect(await ids({ status: 'open', createdGte: 2000, after: { created: 2000, id: 'cs_d' } })).toEqual([['cs_c'], false]);
    });

    it.each<[string, Partial<SessionListFilter>]>([
      ['no filter', {}],
      ['a status', { status: 'open' }],
      ['a reference', { reference: 'r1' }],
      ['a created range after a cursor', { createdGte: 1000, createdLt: 5000, after: { created: 3000, id: 'cs_x' } }],
    ])('answers a page of sessions with %s from an index, not a scan of the table', async (_name, filter) => {
      const page = sessionPageQuery(store, { appId: 'app_x', limit: 10, ...filter }).compile();
      // PostgreSQL plans a scan of a table this small whatever its indexes: told not to, it shows whether one serves.
      const plan = await store.transaction().execute(async (trx) => {
        if (engine.name === 'PostgreSQL') await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        const explain = engine.name === 'PostgreSQL' ? 'EXPLAIN' : 'EXPLAIN QUERY PLAN';
        const result = await trx.executeQuery(CompiledQuery.raw(`${explain} ${page.sql}`, [...page.parameters]));
        return JSON.stringify(result.rows);
      });
      expect(plan).toMatch(/sessions_app_(created|status_created|reference)/);
      expect(plan).not.toMatch(/Seq Scan|SCAN sessions(?! USING)/);
    });

    it("carries each app's secret key over to app_secret_keys: it keeps working, without expiry", async () => {
      const database = await engine.provision();
      const upTo0009 = Object.fromEntries(Object.entries(backendMigrations).filter(([name]) => name < '0010'));
      const open = (migrations: typeof backendMigrations) =>
        database.databaseUrl
          ? openPostgres<BackendDatabase>(database.databaseUrl, migrations, { limits: defaultStoreLimits, onError: () => undefined })
          : openDatabase<BackendDatabase>(sqliteFile(database.dataDir), migrations);
      try {
        const before = await open(upTo0009);
        const app = { id: 'app_before0010', name: 'Old Shop', merchant_id: 'old_1', secret_key_hash: hashSecret('sk_test_old'), allowed_origins: '["https://old.example"]', auth_methods: '["PAN_ONLY"]', card_networks: '["VISA"]', environment: 'SANDBOX', decryption_mode: 'gateway', created: 1_000 };
        await before.insertInto('apps').values(app).execute();
        await before.destroy();
        const after = await open(backendMigrations);
        try {
          expect(await findAppBySecretKey(after, 'sk_test_old')).toMatchObject({ id: app.id, name: 'Old Shop' });
          expect(await findAppBySecretKey(after, 'sk_test_other')).toBeUndefined();
          expect(await after.selectFrom('app_secret_keys').selectAll().execute()).toEqual([{ hash: app.secret_key_hash, app_id: app.id, created: 1_000, expires: null }]);
        } finally {
          await after.destroy();
        }
      } finally {
        await database.remove();
      }
    });

    it('gives every session made before 0013 the 24 hours a session lives by default', async () => {
      const database = await engine.provision();
      const upTo0012 = Object.fromEntries(Object.entries(backendMigrations).filter(([name]) => name < '0013'));
      const open = (migrations: typeof backendMigrations) =>
        database.databaseUrl
          ? openPostgres<BackendDatabase>(database.databaseUrl, migrations, { limits: defaultStoreLimits, onError: () => undefined })
          : openDatabase<BackendDatabase>(sqliteFile(database.dataDir), migrations);
      try {
        const before = await open(upTo0012);
        const app = { id: 'app_before0013', name: 'Old Shop', merchant_id: 'old_1', secret_key_hash: hashSecret('sk_test_old'), allowed_origins: '[]', auth_methods: '["PAN_ONLY"]', card_networks: '["VISA"]', environment: 'SANDBOX', decryption_mode: 'gateway', created: 1_000 };
        await before.insertInto('apps').values(app).execute();
        const session = { id: 'cs_before0013', app_id: app.id, status: 'open', amount: 100, currency: 'USD', country_code: 'US', intent: 'charge', client_secret_hash: 'x', created: 5_000_000_000_000, updated: 5_000_000_000_000 };
        await before.insertInto('sessions').values(session as never).execute();
        await before.destroy();
        const after = await open(backendMigrations);
        try {
          expect(await findSession(after, session.id)).toMatchObject({ id: session.id, expires_at: session.created + 24 * 60 * 60 * 1000 });
        } finally {
          await after.destroy();
        }
      } finally {
        await database.remove();
      }
    });

    it('finds the sessions past due that can still expire, oldest due first, and the lapsed holds, each from its partial index', async () => {
      const app = await newApp();
      const row = (id: string, status: string, expiresAt: number, updated = 1) =>
        ({ id, app_id: app.id, status, amount: 100, currency: 'USD', country_code: 'US', description: null, reference: null, intent: 'charge', client_secret_hash: 'x', outcome: null, amount_captured: null, created: 1, updated, expires_at: expiresAt });
      await store
        .insertInto('sessions')
        .values([
          row('cs_due_late', 'open', 3000),
          row('cs_due_early', 'declined', 2000),
          row('cs_due_challenged', 'requires_authentication', 2500),
          row('cs_due_paid', 'succeeded', 1000),
          row('cs_due_busy', 'processing', 1000),
          row('cs_not_due', 'open', 9000),
          row('cs_hold_old', 'authorized', 1000, 100),
          row('cs_hold_new', 'authorized', 1000, 900),
          row('cs_hold_captured', 'captured', 1000, 50),
        ])
        .execute();
      expect(await pastDueSessionIds(store, 5000, 10)).toEqual(['cs_due_early', 'cs_due_challenged', 'cs_due_late']);
      expect(await pastDueSessionIds(store, 5000, 1)).toEqual(['cs_due_early']);
      expect(await nextExpiry(store)).toBe(2000);
      expect(await lapsedHoldIds(store, 500)).toEqual(['cs_hold_old']);
      const planOf = (query: { sql: string; parameters: readonly unknown[] }) =>
        store.transaction().execute(async (trx) => {
          if (engine.name === 'PostgreSQL') await sql`SET LOCAL enable_seqscan = off`.execute(trx);
          const explain = engine.name === 'PostgreSQL' ? 'EXPLAIN' : 'EXPLAIN QUERY PLAN';
          return JSON.stringify((await trx.executeQuery(CompiledQuery.raw(`${explain} ${query.sql}`, [...query.parameters]))).rows);
        });
      const sweep = await planOf(pastDueSessionsQuery(store, 5000, 10).compile());
      expect(sweep).toMatch(/sessions_expirable/);
      expect(sweep).not.toMatch(/Seq Scan|SCAN sessions(?! USING)/);
      const holds = await planOf(lapsedHoldsQuery(store, 500, 10).compile());
      expect(holds).toMatch(/sessions_authorized/);
      expect(holds).not.toMatch(/Seq Scan|SCAN sessions(?! USING)/);
    });

    it('finds the sessions and events still holding addresses or an e-mail from their partial indexes, and erases each a session had', async () => {
      const app = await newApp();
      const row = (id: string, created: number, sealed: { onFile?: string; wallet?: string; shipping?: string; email?: string } = {}) => ({
        id, app_id: app.id, status: 'succeeded', amount: 100, currency: 'USD', country_code: 'US', description: null, reference: null, intent: 'charge', client_secret_hash: 'x', outcome: null, amount_captured: null, created, updated: created, expires_at: created + 1,
        billing_address_on_file_sealed: sealed.onFile ?? null, billing_address_sealed: sealed.wallet ?? null, shipping_address_sealed: sealed.shipping ?? null, email_sealed: sealed.email ?? null,
      });
      await store
        .insertInto('sessions')
        .values([row('cs_pd_both', 10, { onFile: 'v1.a', wallet: 'v1.b' }), row('cs_pd_wallet', 20, { wallet: 'v1.c' }), row('cs_pd_none', 5), row('cs_pd_recent', 9000, { onFile: 'v1.d' }), row('cs_pd_express', 30, { shipping: 'v1.e', email: 'v1.f' })])
        .execute();
      expect(await sessionsWithPersonalData(store, 5000, 10)).toEqual(['cs_pd_both', 'cs_pd_wallet', 'cs_pd_express']);
      expect(await eraseSessionAddresses(store, 'cs_pd_express', 7000)).toBe(true);
      expect(await store.selectFrom('sessions').select(['billing_address_sealed', 'shipping_address_sealed', 'email_sealed']).where('id', '=', 'cs_pd_express').executeTakeFirst()).toEqual({
        billing_address_sealed: null,
        shipping_address_sealed: 'erased',
        email_sealed: 'erased',
      });
      expect(await eraseSessionAddresses(store, 'cs_pd_wallet', 7000)).toBe(true);
      expect(await eraseSessionAddresses(store, 'cs_pd_wallet', 7001)).toBe(false);
      expect(await store.selectFrom('sessions').select(['billing_address_on_file_sealed', 'billing_address_sealed', 'personal_data_erased']).where('id', '=', 'cs_pd_wallet').executeTakeFirst()).toEqual({
        billing_address_on_file_sealed: null,
        billing_address_sealed: 'erased',
        personal_data_erased: 7000,
      });
      expect(await sessionsWithPersonalData(store, 5000, 10)).toEqual(['cs_pd_both']);
      for (const query of [sessionsWithPersonalDataQuery(store, 5000, 10).compile(), eventsWithPersonalDataQuery(store, 5000, 10).compile()]) {
        const plan = await store.transaction().execute(async (trx) => {
          if (engine.name === 'PostgreSQL') await sql`SET LOCAL enable_seqscan = off`.execute(trx);
          const explain = engine.name === 'PostgreSQL' ? 'EXPLAIN' : 'EXPLAIN QUERY PLAN';
          return JSON.stringify((await trx.executeQuery(CompiledQuery.raw(`${explain} ${query.sql}`, [...query.parameters]))).rows);
        });
        expect(plan).toMatch(/sessions_personal_data_created|events_personal_data_created/);
        expect(plan).not.toMatch(/Seq Scan|SCAN (sessions|events)(?! USING)/);
      }
    });

    it("moves one app's clock (or one session's) by backdating its rows only, adds up its offset, and rolls back when the service does not follow", async () => {
      const [app, other] = [await newApp(), await newApp()];
      const row = (id: string, appId: string) =>
        ({ id, app_id: appId, status: 'open', amount: 100, currency: 'USD', country_code: 'US', description: null, reference: null, intent: 'charge', client_secret_hash: 'x', outcome: null, amount_captured: null, created: 100_000, updated: 100_000, expires_at: 200_000 });
      await store.insertInto('sessions').values([row('cs_clock_mine', app.id), row('cs_clock_alone', app.id), row('cs_clock_theirs', other.id)]).execute();
      const attempt = (sessionId: string, chargeId: string) =>
        ({ id: `ca_${sessionId}`, session_id: sessionId, attempt_no: 1, idempotency_key: `${sessionId}:attempt:1`, status: 'succeeded', source_type: 'network_token', charge_id: chargeId, outcome: null, request_sealed: null, authentication_session: null, payment_method: null, created: 100_000, updated: 100_000 });
      await store.insertInto('charge_attempts').values([attempt('cs_clock_mine', 'ch_mine'), attempt('cs_clock_alone', 'ch_alone'), attempt('cs_clock_theirs', 'ch_theirs')]).execute();
      const key = (scope: string) => ({ scope, key: 'k', fingerprint: 'f', status_code: 200, response_body: '{}', created: 100_000 });
      await store.insertInto('idempotency_keys').values([key(app.id), key(`${app.id}:/api/keys/roll`), key(`${app.id}:/api/sessions/cs_clock_alone/capture`), key(other.id), key(`${other.id}:/api/keys/roll`)]).execute();
      const times = async () => ({
        sessions: Object.fromEntries((await store.selectFrom('sessions').select(['id', 'created', 'expires_at']).where('id', 'like', 'cs_clock_%').execute()).map((r) => [r.id, [Number(r.created), Number(r.expires_at)]])),
        keys: Object.fromEntries((await store.selectFrom('idempotency_keys').select(['scope', 'created']).where('scope', 'in', [app.id, other.id, `${app.id}:/api/keys/roll`, `${other.id}:/api/keys/roll`, `${app.id}:/api/sessions/cs_clock_alone/capture`]).execute()).map((r) => [r.scope, Number(r.created)])),
      });

      const refused = await advanceTestClock(store, { appId: app.id }, 60_000, 1, async (charges) => {
        expect(charges).toEqual(['ch_alone', 'ch_mine']);
        return err('service down');
      });
      expect(refused).toEqual(err('service down'));
      expect(await testClockOffset(store, app.id)).toBe(0);
      expect((await times()).sessions['cs_clock_mine']).toEqual([100_000, 200_000]);

      for (let i = 0; i < 2; i++) expect(await advanceTestClock(store, { appId: app.id }, 10_000, 1, async () => ok('followed'))).toEqual(ok('followed'));
      expect(await advanceTestClock(store, { appId: app.id, sessionId: 'cs_clock_alone' }, 5_000, 1, async (charges) => ok(charges))).toEqual(ok(['ch_alone']));
      expect(await testClockOffset(store, app.id)).toBe(20_000);
      expect(await testClockOffset(store, other.id)).toBe(0);
      expect(await times()).toEqual({
        sessions: { cs_clock_mine: [80_000, 180_000], cs_clock_alone: [75_000, 175_000], cs_clock_theirs: [100_000, 200_000] },
        keys: { [app.id]: 80_000, [`${app.id}:/api/keys/roll`]: 80_000, [`${app.id}:/api/sessions/cs_clock_alone/capture`]: 75_000, [other.id]: 100_000, [`${other.id}:/api/keys/roll`]: 100_000 },
      });
    });

    it('lets one of three concurrent payments of a session claim it: one charge', async () => {
      const database = await engine.provision();
      const server = await startTestServer({ ...(database.databaseUrl && { DATABASE_URL: database.databaseUrl }) });
      try {
        const { secretKey } = await server.merchant();
        const session = await server.createSession(secretKey);
        const paymentData = await server.walletPaymentData(session, 'visa-success-3ds');
        server.sandbox!.setFaults({ rate: 1, kinds: ['latency'], latencyMs: 200 });
        const replies = await Promise.all([1, 2, 3].map(() => server.pay(session, { payment_data: paymentData })));
        const statuses = replies.map((reply) => reply.status).sort();
        expect(statuses).toEqual([200, 409, 409]);
        expect((await server.sandbox!.ledger()).filter((entry) => entry.idempotency_key?.startsWith(`${session.id}:`))).toHaveLength(1);
        expect(await findSession(server.store, session.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
      } finally {
        await server.close();
        await database.remove();
      }
    });

    it('lets concurrent refunds of a session give back no more than was paid: each reservation is a compare-and-set', async () => {
      const database = await engine.provision();
      const server = await startTestServer({ ...(database.databaseUrl && { DATABASE_URL: database.databaseUrl }) });
      try {
        const { secretKey } = await server.merchant();
        const session = await server.createSession(secretKey, { amount: 2400 });
        await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-success-3ds') });
        // Slow refunds, so that all of them are reserved while the first are still at the service.
        server.sandbox!.setFaults({ rate: 1, kinds: ['latency'], latencyMs: 100 });
        const replies = await Promise.all(Array.from({ length: 12 }, () => server.merchantPost(secretKey, `/api/sessions/${session.id}/refunds`, { amount: 500 })));
        expect(replies.map((reply) => reply.status).sort()).toEqual([...Array<number>(4).fill(201), ...Array<number>(8).fill(409)]);
        expect(await findSession(server.store, session.id)).toMatchObject({ amount_refunded: 2000 });
        const refunds = (await server.sandbox!.ledger()).filter((entry) => entry.operation === 'refund' && entry.idempotency_key?.startsWith(`${session.id}:`));
        expect(refunds.reduce((sum, entry) => sum + (entry.refund?.amount ?? 0), 0)).toBe(2000);
      } finally {
        await server.close();
        await database.remove();
      }
    });

    it("keeps a dashboard session live while its key is, reading the key's expiry in the statement that touches it", async () => {
      const created = await createApp(store, { name: 'Engine Shop', merchant_id: 'engine_1', allowed_origins: ['https://shop.example'] });
      if (!created.ok) throw new Error(created.error.message);
      const appId = created.value.app.id;
      const keyHash = hashSecret(created.value.secretKey);
      const now = Date.now();
      const live = { lastSeen: now - 60_000, created: now - 60_000, now };
      await insertDashboardSession(store, { token_hash: 'dash_a', app_id: appId, key_hash: keyHash, csrf_token: 'c', created: now, last_seen: now });
      await insertDashboardSession(store, { token_hash: 'dash_b', app_id: appId, key_hash: keyHash, csrf_token: 'c', created: now, last_seen: now });
      expect(await touchDashboardSession(store, 'dash_a', live)).toMatchObject({ app_id: appId, key_hash: keyHash, last_seen: now });
      // Another key of the app, and the key of the first session expiring: b moves, a ends.
      const other = hashSecret(`${created.value.secretKey}-2`);
      await store.insertInto('app_secret_keys').values({ hash: other, app_id: appId, created: now, expires: null }).execute();
      await moveDashboardSessionToKey(store, { tokenHash: 'dash_b', appId, keyHash: other });
      await store.updateTable('app_secret_keys').set({ expires: now }).where('hash', '=', keyHash).execute();
      expect(await touchDashboardSession(store, 'dash_a', live)).toBeUndefined();
      expect(await touchDashboardSession(store, 'dash_b', live)).toMatchObject({ key_hash: other });
      await deleteDeadDashboardSessions(store, live);
      expect((await store.selectFrom('dashboard_sessions').select('token_hash').where('app_id', '=', appId).execute()).map((row) => row.token_hash)).toEqual(['dash_b']);
    });
  });
}
