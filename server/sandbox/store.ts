/**
 * The sandbox service's own database: its charge ledger, idempotency records
 * and the wallet message ids it has consumed. Never shared with the backend's
 * store, as a real payment service's would not be. No card number, token or
 * cryptogram is ever written here.
 */
import type { Generated, Kysely, Migration, Transaction } from 'kysely';
import type { Charge } from '../contracts';
import { openDatabase } from '../store/database';
import { createIdempotencyKeysTable, type IdempotencyKeysTable } from '../store/idempotency';

interface ChargesTable {
  /** Insertion order: `created` has one-second resolution and cannot order a burst. */
  seq: Generated<number>;
  id: string;
  merchant_account: string;
  idempotency_key: string | null;
  source_type: string;
  status: string;
  amount: number;
  currency: string;
  card: string;
  billing_details: string | null;
  failure_code: string | null;
  failure_message: string | null;
  created: number;
}

interface WalletMessagesTable {
  message_id: string;
  charge_id: string;
  created: number;
}

export interface SandboxDatabase {
  charges: ChargesTable;
  idempotency_keys: IdempotencyKeysTable;
  wallet_messages: WalletMessagesTable;
}

export type SandboxDb = Kysely<SandboxDatabase>;

/** Append only: a migration that has run on some machine is never edited. */
const migrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('charges')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('merchant_account', 'text', (c) => c.notNull())
        .addColumn('idempotency_key', 'text')
        .addColumn('source_type', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('card', 'text', (c) => c.notNull())
        .addColumn('billing_details', 'text')
        .addColumn('failure_code', 'text')
        .addColumn('failure_message', 'text')
        .addColumn('created', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('charges_merchant_seq').on('charges').columns(['merchant_account', 'seq']).execute();
      await createIdempotencyKeysTable(db);
      await db.schema
        .createTable('wallet_messages')
        .addColumn('message_id', 'text', (c) => c.primaryKey())
        .addColumn('charge_id', 'text', (c) => c.notNull())
        .addColumn('created', 'integer', (c) => c.notNull())
        .execute();
    },
  },
};

export const openSandboxDb = (file: string) => openDatabase<SandboxDatabase>(file, migrations);

export interface LedgerEntry {
  merchant_account: string;
  idempotency_key: string | null;
  charge: Charge;
}

type ChargeRow = Omit<ChargesTable, 'seq'> & { seq: number };

function toCharge(row: ChargeRow): Charge {
  return {
    id: row.id,
    object: 'charge',
    status: row.status as Charge['status'],
    amount: row.amount,
    currency: row.currency,
    source_type: row.source_type as Charge['source_type'],
    card: JSON.parse(row.card) as Charge['card'],
    billing_details: row.billing_details === null ? null : (JSON.parse(row.billing_details) as Charge['billing_details']),
    failure_code: row.failure_code,
    failure_message: row.failure_message,
    created: row.created,
  };
}

export async function insertCharge(
  db: SandboxDb | Transaction<SandboxDatabase>,
  entry: LedgerEntry,
): Promise<void> {
  const { charge } = entry;
  await db
    .insertInto('charges')
    .values({
      id: charge.id,
      merchant_account: entry.merchant_account,
      idempotency_key: entry.idempotency_key,
      source_type: charge.source_type,
      status: charge.status,
      amount: charge.amount,
      currency: charge.currency,
      card: JSON.stringify(charge.card),
      billing_details: charge.billing_details === null ? null : JSON.stringify(charge.billing_details),
      failure_code: charge.failure_code,
      failure_message: charge.failure_message,
      created: charge.created,
    })
    .execute();
}

export async function findCharge(db: SandboxDb, merchantAccount: string, id: string): Promise<Charge | undefined> {
  const row = await db
    .selectFrom('charges')
    .selectAll()
    .where('merchant_account', '=', merchantAccount)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toCharge(row);
}

/** Newest first; one extra row tells whether there are more. */
export async function listCharges(db: SandboxDb, merchantAccount: string, limit: number): Promise<{ data: Charge[]; has_more: boolean }> {
  const rows = await db
    .selectFrom('charges')
    .selectAll()
    .where('merchant_account', '=', merchantAccount)
    .orderBy('seq', 'desc')
    .limit(limit + 1)
    .execute();
  return { data: rows.slice(0, limit).map(toCharge), has_more: rows.length > limit };
}

export async function allLedgerEntries(db: SandboxDb): Promise<LedgerEntry[]> {
  const rows = await db.selectFrom('charges').selectAll().orderBy('seq', 'asc').execute();
  return rows.map((row) => ({ merchant_account: row.merchant_account, idempotency_key: row.idempotency_key, charge: toCharge(row) }));
}

/** Records a wallet message as spent; false when it already was. */
export async function consumeWalletMessage(
  db: Transaction<SandboxDatabase>,
  messageId: string,
  chargeId: string,
  now: number,
): Promise<boolean> {
  const inserted = await db
    .insertInto('wallet_messages')
    .values({ message_id: messageId, charge_id: chargeId, created: now })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
}
