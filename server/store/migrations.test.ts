/**
 * Migrations that change what is already stored, run over a store made by the
 * migrations before them, as an upgrade would find it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { getApp } from '../apps';
import { createSession } from '../checkout/sessions';
import { createDataCipher } from '../lib/data-cipher';
import { backendMigrations } from './migrations';
import { type BackendDatabase, openDatabase, sqliteFile } from '.';

const cipher = createDataCipher(Buffer.alloc(32, 3));
const migrationsBefore = (name: string) => Object.fromEntries(Object.entries(backendMigrations).filter(([id]) => id < name));

describe('0018: events carry the session they are about', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it("fills session_id for the events recorded before it, from a session event's object and a refund event's session", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-migration-'));
    dirs.push(dir);
    const before = await openDatabase<BackendDatabase>(sqliteFile(dir), migrationsBefore('0018'));
    // Written as the store stood then (createApp writes tables of later migrations too).
    await sql`INSERT INTO apps (id, name, merchant_id, secret_key_hash, allowed_origins, auth_methods, card_networks, environment, created) VALUES ('app_upgrade', 'Upgrade Shop', 'm_upgrade', 'hash_upgrade', '["https://shop.example"]', '["PAN_ONLY"]', '["VISA"]', 'SANDBOX', 1)`.execute(before);
    await sql`INSERT INTO app_secret_keys (hash, app_id, created, expires) VALUES ('hash_upgrade', 'app_upgrade', 1, NULL)`.execute(before);
    const app = await getApp(before, 'app_upgrade');
    if (!app) throw new Error('no app');
    const session = await createSession(before, cipher, { appId: app.id, keyHash: 'hash_upgrade' }, { amount: 1200, currency: 'usd', country_code: 'us' });
    if (!session.ok) throw new Error(session.error.message);
    const sessionId = session.value.session.id;
    const event = (id: string, type: string, object: object) =>
      sql`INSERT INTO events (id, app_id, type, created, body, personal_data) VALUES (${id}, ${app.id}, ${type}, ${Date.now()}, ${JSON.stringify({ id, object: 'event', type, data: { object } })}, 0)`.execute(before);
    await event('evt_session', 'session.succeeded', { id: sessionId, object: 'checkout_session' });
    await event('evt_refund', 'refund.succeeded', { id: 're_1', object: 'refund', session_id: sessionId });
    await before.destroy();

    const after = await openDatabase<BackendDatabase>(sqliteFile(dir), backendMigrations);
    const rows = await after.selectFrom('events').select(['id', 'session_id']).orderBy('id').execute();
    await after.destroy();
    expect(rows).toEqual([
      { id: 'evt_refund', session_id: sessionId },
      { id: 'evt_session', session_id: sessionId },
    ]);
  });
});

describe('0019: no index another one already serves', () => {
  it('leaves no table with an index whose columns begin another index of the same table', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-migration-'));
    try {
      const store = await openDatabase<BackendDatabase>(sqliteFile(dir), backendMigrations);
      const indexes = (
        await sql<{ table: string; name: string; partial: number; unique: number }>`SELECT m.name AS "table", i.name AS name, i.partial AS partial, i."unique" AS "unique" FROM sqlite_master m, pragma_index_list(m.name) i WHERE m.type = 'table'`.execute(store)
      ).rows;
      const columnsOf = async (name: string) => (await sql<{ name: string }>`SELECT name FROM pragma_index_info(${name})`.execute(store)).rows.map((c) => c.name).join(',');
      // A unique index is a rule, and a partial one holds other rows: neither is a plain index's copy.
      const plain = await Promise.all(indexes.filter((i) => !i.partial && !i.unique).map(async (i) => ({ ...i, columns: await columnsOf(i.name) })));
      const every = await Promise.all(indexes.filter((i) => !i.partial).map(async (i) => ({ ...i, columns: await columnsOf(i.name) })));
      await store.destroy();
      const served = plain.filter((short) => every.some((long) => long.table === short.table && long.name !== short.name && `${long.columns},`.startsWith(`${short.columns},`)));
      expect(served.map((i) => i.name)).toEqual([]);
      expect(plain.length).toBeGreaterThan(10);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('0020: a dashboard session stands on a secret key', () => {
  it('ends the sessions open at the upgrade (they were tied to no key) and ties every new one to its key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-migration-'));
    try {
      const before = await openDatabase<BackendDatabase>(sqliteFile(dir), migrationsBefore('0020'));
      // Written as the store stood then: createApp now writes tables later migrations make.
      await sql`INSERT INTO apps (id, name, merchant_id, secret_key_hash, allowed_origins, auth_methods, card_networks, environment, created) VALUES ('app_upgrade', 'Upgrade Shop', 'm_upgrade', 'hash_upgrade', '["https://shop.example"]', '["PAN_ONLY"]', '["VISA"]', 'SANDBOX', 1)`.execute(before);
      const now = Date.now();
      await sql`INSERT INTO dashboard_sessions (token_hash, app_id, csrf_token, created, last_seen) VALUES ('t_open', 'app_upgrade', 'c', ${now}, ${now})`.execute(before);
      await before.destroy();

      const after = await openDatabase<BackendDatabase>(sqliteFile(dir), backendMigrations);
      try {
        expect(await after.selectFrom('dashboard_sessions').selectAll().execute()).toEqual([]);
        const columns = (await sql<{ name: string; notnull: number }>`SELECT name, "notnull" FROM pragma_table_info('dashboard_sessions')`.execute(after)).rows;
        expect(columns).toContainEqual({ name: 'key_hash', notnull: 1 });
        // A key that is not one of app_secret_keys' cannot hold a session.
        await expect(sql`INSERT INTO dashboard_sessions (token_hash, app_id, key_hash, csrf_token, created, last_seen) VALUES ('t_new', 'app_upgrade', 'no-such-key', 'c', ${now}, ${now})`.execute(after)).rejects.toThrow(/FOREIGN KEY/);
      } finally {
        await after.destroy();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('0021: every allowed origin gets its verification, not verified', () => {
  it("gives each existing app's origins a row and a token of its own, due for a check at once", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-migration-'));
    try {
      const before = await openDatabase<BackendDatabase>(sqliteFile(dir), migrationsBefore('0021'));
      const app = (id: string, origins: string[], mode: string) =>
        sql`INSERT INTO apps (id, name, merchant_id, secret_key_hash, allowed_origins, auth_methods, card_networks, environment, created, google_pay_mode) VALUES (${id}, ${id}, ${id}, ${`hash_${id}`}, ${JSON.stringify(origins)}, '["PAN_ONLY"]', '["VISA"]', 'SANDBOX', 1, ${mode})`.execute(before);
      await app('app_platform', ['https://a.example', 'https://b.example'], 'platform');
      await app('app_merchant', ['https://a.example'], 'merchant');
      await before.destroy();

      const started = Date.now();
      const after = await openDatabase<BackendDatabase>(sqliteFile(dir), backendMigrations);
      const rows = await after.selectFrom('origin_verifications').selectAll().orderBy('app_id').orderBy('origin').execute();
      await after.destroy();
      expect(rows.map((row) => [row.app_id, row.origin, row.verified_at, row.last_checked, row.failures])).toEqual([
        ['app_merchant', 'https://a.example', null, null, 0],
        ['app_platform', 'https://a.example', null, null, 0],
        ['app_platform', 'https://b.example', null, null, 0],
      ]);
      expect(rows.every((row) => /^wcv_[A-Za-z0-9_-]{32}$/.test(row.token) && row.next_check >= started && row.next_check <= Date.now())).toBe(true);
      expect(new Set(rows.map((row) => row.token)).size).toBe(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('0030: the search reads the card and the decline as columns', () => {
  it("fills each paid session's card network, last four and decline code from its stored outcome", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-migration-'));
    try {
      const before = await openDatabase<BackendDatabase>(sqliteFile(dir), migrationsBefore('0030'));
      await sql`INSERT INTO apps (id, name, merchant_id, secret_key_hash, allowed_origins, auth_methods, card_networks, environment, created) VALUES ('app_upgrade', 'Upgrade Shop', 'm_upgrade', 'hash_upgrade', '["https://shop.example"]', '["PAN_ONLY"]', '["VISA"]', 'SANDBOX', 1)`.execute(before);
      const session = (id: string, status: string, outcome: object | null) =>
        sql`INSERT INTO sessions (id, app_id, status, amount, currency, country_code, intent, client_secret_hash, outcome, created, updated, expires_at) VALUES (${id}, 'app_upgrade', ${status}, 1200, 'USD', 'US', 'charge', 'x', ${outcome && JSON.stringify(outcome)}, 1, 1, 2)`.execute(before);
      const card = { network: 'VISA', last4: '4242', auth_method: 'PAN_ONLY', exp_month: 12, exp_year: 2030 };
      await session('cs_paid', 'succeeded', { status: 'succeeded', charge_id: 'ch_1', card, failure_code: null, failure_message: null });
      await session('cs_declined', 'declined', { status: 'declined', charge_id: 'ch_2', card: { ...card, last4: '0002' }, failure_code: 'insufficient_funds', failure_message: 'Insufficient funds' });
      await session('cs_open', 'open', null);
      await before.destroy();

      const after = await openDatabase<BackendDatabase>(sqliteFile(dir), backendMigrations);
      const rows = await after.selectFrom('sessions').select(['id', 'card_network', 'card_last4', 'decline_code', 'email_index']).orderBy('id').execute();
      await after.destroy();
      expect(rows).toEqual([
        { id: 'cs_declined', card_network: 'VISA', card_last4: '0002', decline_code: 'insufficient_funds', email_index: null },
        { id: 'cs_open', card_network: null, card_last4: null, decline_code: null, email_index: null },
        { id: 'cs_paid', card_network: 'VISA', card_last4: '4242', decline_code: null, email_index: null },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('0032: a session carries whether it is disputed', () => {
  it('marks the sessions with an open or a lost dispute before it, not those whose disputes were all won', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-migration-'));
    try {
      const before = await openDatabase<BackendDatabase>(sqliteFile(dir), migrationsBefore('0032'));
      await sql`INSERT INTO apps (id, name, merchant_id, secret_key_hash, allowed_origins, auth_methods, card_networks, environment, created) VALUES ('app_upgrade', 'Upgrade Shop', 'm_upgrade', 'hash_upgrade', '["https://shop.example"]', '["PAN_ONLY"]', '["VISA"]', 'SANDBOX', 1)`.execute(before);
      const disputedAs = async (id: string, statuses: string[]) => {
        await sql`INSERT INTO sessions (id, app_id, status, amount, currency, country_code, intent, client_secret_hash, created, updated, expires_at) VALUES (${id}, 'app_upgrade', 'succeeded', 1200, 'USD', 'US', 'charge', 'x', 1, 1, 2)`.execute(before);
        for (const [i, status] of statuses.entries())
          await sql`INSERT INTO disputes (id, app_id, session_id, service_dispute_id, service_sequence, charge_id, amount, currency, reason, status, evidence_due_by, created, updated) VALUES (${`dp_${id}_${i}`}, 'app_upgrade', ${id}, ${`sdp_${id}_${i}`}, ${i}, ${`ch_${id}`}, 1200, 'USD', 'fraudulent', ${status}, 9, 1, 1)`.execute(before);
      };
      await disputedAs('cs_open', ['needs_response']);
      await disputedAs('cs_reviewed', ['under_review']);
      await disputedAs('cs_lost', ['won', 'lost']);
      await disputedAs('cs_won', ['won']);
      await disputedAs('cs_none', []);
      await before.destroy();

      const after = await openDatabase<BackendDatabase>(sqliteFile(dir), backendMigrations);
      const rows = await after.selectFrom('sessions').select(['id', 'disputed']).orderBy('id').execute();
      await after.destroy();
      expect(rows).toEqual([
        { id: 'cs_lost', disputed: 1 },
        { id: 'cs_none', disputed: 0 },
        { id: 'cs_open', disputed: 1 },
        { id: 'cs_reviewed', disputed: 1 },
        { id: 'cs_won', disputed: 0 },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
