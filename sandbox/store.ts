/**
 * The sandbox service's own database: its charges and their ledger of
 * operations, payment methods, authentication sessions, idempotency records
 * and the wallet message ids it has consumed. Never shared with the backend's
 * store, as a real payment service's would not be. No card number, token or
 * cryptogram is ever written here.
 */
import { sql, type Generated, type Kysely, type Migration, type Selectable, type Transaction } from 'kysely';
import type { AuthenticationSession, AuthenticationStatus, BillingDetails, CardSummary, Charge, KeptPaymentMethod, PaymentMethodUpdate, ServiceRefund, StoredCredential } from '../contracts';
import { openDatabase } from '../common/store/database';
import { SANDBOX_CARDHOLDER_ADDRESS } from './address-verification';
import type { IssuerProfile } from './test-cards';
import { createIdempotencyKeysTable, type IdempotencyKeysTable } from '../common/store/idempotency';

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
  amount_captured: number;
  payment_method: string | null;
  /** What its refunds gave back: never more than amount_captured. */
  amount_refunded: Generated<number>;
  /** The issuer's address verification (`match`, `mismatch`, `unavailable`; null: not sent, or a charge made before 0005). */
  address_line1_check: Generated<string | null>;
  address_postal_code_check: Generated<string | null>;
  /** The network's reference of an authorized charge; null for a decline (and a charge made before 0006). */
  network_transaction_reference: Generated<string | null>;
  /** StoredCredential JSON of the request; null when it named none. */
  stored_credential: Generated<string | null>;
}

/** A card the service keeps for later charges: its summary and what the issuer knows of it (IssuerProfile), never its number. */
interface PaymentMethodsTable {
  id: string;
  merchant_account: string;
  card: string;
  issuer: string;
  /** BillingDetails JSON of the charge that made it: a payment_method charge that sends none is verified against these. */
  billing_details: Generated<string | null>;
  created: number;
  /** The same for the same card number at this merchant (a keyed hash, never the number); null for one made before 0006. */
  fingerprint: Generated<string | null>;
  /** A kept payment method's customer key (POST /api/v1/payment_methods); null for the one every wallet charge makes. */
  customer: Generated<string | null>;
  /** A kept one's: the network's reference of the customer-initiated charge it was kept from, which merchant-initiated charges must name. */
  network_transaction_reference: Generated<string | null>;
  /** When a kept one was detached; null while it is not. */
  detached: Generated<number | null>;
}

/** The merchants' feed of card updates (the network's updater, played by the test helper): read in `seq` order. */
interface PaymentMethodUpdatesTable {
  seq: Generated<number>;
  merchant_account: string;
  payment_method: string;
  /** CardSummary JSON: the card as updated. */
  card: string;
  created: number;
}

interface AuthenticationSessionsTable {
  id: string;
  merchant_account: string;
  payment_method: string;
  amount: number;
  currency: string;
  return_origin: string;
  /** Space-separated: `ancestor_origins` of the request. */
  ancestor_origins: string;
  /** As stored: a challenge past `expires_at` is reported `expired` without a write. */
  status: string;
  challenge_url: string | null;
  /** The charge that used this authentication: each one pays once. */
  charge_id: string | null;
  expires_at: number;
  created: number;
}

export type LedgerOperation = 'charge' | 'capture' | 'release' | 'refund';

/** The ledger: one row per operation on money, with the charge as that operation left it. */
interface OperationsTable {
  seq: Generated<number>;
  operation: LedgerOperation;
  charge_id: string;
  merchant_account: string;
  idempotency_key: string | null;
  charge: string;
  /** A refund operation's refund object. */
  refund: string | null;
  created: number;
}

interface RefundsTable {
  id: string;
  merchant_account: string;
  charge_id: string;
  idempotency_key: string | null;
  amount: number;
  currency: string;
  status: string;
  failure_code: string | null;
  created: number;
}

/**
 * Disputes the cardholders' banks opened on charges (disputes.ts). `sequence` is the merchant's feed position of the
 * latest change: a change takes the merchant's next one, so the feed lists each changed dispute once, as it is now.
 */
export interface DisputesTable {
  id: string;
  merchant_account: string;
  charge_id: string;
  amount: number;
  currency: string;
  reason: string;
  status: string;
  /** Seconds since the epoch, as `created`. */
  evidence_due_by: number;
  /** ServiceDisputeEvidence JSON; null until submitted. */
  evidence: string | null;
  evidence_submitted_at: number | null;
  /** What the issuer will decide once the review is over (`won`, `lost`), and when (ms); null: no decision yet. */
  outcome: string | null;
  decided_at: number | null;
  sequence: number;
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
  payment_methods: PaymentMethodsTable;
  authentication_sessions: AuthenticationSessionsTable;
  operations: OperationsTable;
  refunds: RefundsTable;
  payment_method_updates: PaymentMethodUpdatesTable;
  disputes: DisputesTable;
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
  '0002_holds_and_authentication': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('charges').addColumn('amount_captured', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('charges').addColumn('payment_method', 'text').execute();
      await sql`UPDATE charges SET amount_captured = amount WHERE status = 'succeeded'`.execute(db);
      await db.schema
        .createTable('payment_methods')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('merchant_account', 'text', (c) => c.notNull())
        .addColumn('card', 'text', (c) => c.notNull())
        .addColumn('issuer', 'text', (c) => c.notNull())
        .addColumn('created', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('authentication_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('merchant_account', 'text', (c) => c.notNull())
        .addColumn('payment_method', 'text', (c) => c.notNull())
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('return_origin', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('challenge_url', 'text')
        .addColumn('charge_id', 'text', (c) => c.unique())
        .addColumn('expires_at', 'integer', (c) => c.notNull())
        .addColumn('created', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('operations')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('operation', 'text', (c) => c.notNull())
        .addColumn('charge_id', 'text', (c) => c.notNull())
        .addColumn('merchant_account', 'text', (c) => c.notNull())
        .addColumn('idempotency_key', 'text')
        .addColumn('charge', 'text', (c) => c.notNull())
        .addColumn('created', 'integer', (c) => c.notNull())
        .execute();
      // Charges made before the ledger had operations become its first entries, in their order.
      await sql`INSERT INTO operations (operation, charge_id, merchant_account, idempotency_key, charge, created)
        SELECT 'charge', id, merchant_account, idempotency_key,
          json_object('id', id, 'object', 'charge', 'status', status, 'amount', amount, 'currency', currency, 'source_type', source_type,
            'amount_captured', amount_captured, 'card', json(card), 'payment_method', NULL,
            'billing_details', json(billing_details), 'failure_code', failure_code, 'failure_message', failure_message, 'created', created),
          created
        FROM charges ORDER BY seq`.execute(db);
    },
  },
  '0003_challenge_ancestor_origins': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('authentication_sessions').addColumn('ancestor_origins', 'text', (c) => c.notNull().defaultTo('')).execute();
    },
  },
  '0004_refunds': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('charges').addColumn('amount_refunded', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('operations').addColumn('refund', 'text').execute();
      await db.schema
        .createTable('refunds')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('merchant_account', 'text', (c) => c.notNull())
        .addColumn('charge_id', 'text', (c) => c.notNull())
        .addColumn('idempotency_key', 'text')
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('failure_code', 'text')
        .addColumn('created', 'integer', (c) => c.notNull())
        .execute();
    },
  },
  '0005_address_verification': {
    // The issuer's address verification of each charge (address-verification.ts), and the billing details a payment
    // method was made with, which a payment_method charge (after 3-D Secure) is verified against when it sends none.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('charges').addColumn('address_line1_check', 'text').execute();
      await db.schema.alterTable('charges').addColumn('address_postal_code_check', 'text').execute();
      await db.schema.alterTable('payment_methods').addColumn('billing_details', 'text').execute();
    },
  },
  '0006_kept_payment_methods': {
    // Saved cards (docs/service-conventions.md#kept-payment-methods): each charge's network reference and stored credential;
    // each payment method's fingerprint, and for a kept one its customer, the reference merchant-initiated charges name, and
    // its detach; one live kept payment method per merchant, customer and card; and the merchants' feed of card updates.
    async up(db: Kysely<unknown>) {
      for (const column of ['network_transaction_reference', 'stored_credential']) await db.schema.alterTable('charges').addColumn(column, 'text').execute();
      for (const column of ['fingerprint', 'customer', 'network_transaction_reference']) await db.schema.alterTable('payment_methods').addColumn(column, 'text').execute();
      await db.schema.alterTable('payment_methods').addColumn('detached', 'integer').execute();
      await sql`CREATE UNIQUE INDEX payment_methods_kept ON payment_methods (merchant_account, customer, fingerprint) WHERE customer IS NOT NULL AND detached IS NULL`.execute(db);
      await db.schema
        .createTable('payment_method_updates')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('merchant_account', 'text', (c) => c.notNull())
        .addColumn('payment_method', 'text', (c) => c.notNull())
        .addColumn('card', 'text', (c) => c.notNull())
        .addColumn('created', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('payment_method_updates_merchant_seq').on('payment_method_updates').columns(['merchant_account', 'seq']).execute();
    },
  },
  '0007_disputes': {
    // Disputes (docs/service-conventions.md#disputes): one per charge at most, read by id or by the merchant's feed of changes.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('disputes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('merchant_account', 'text', (c) => c.notNull())
        .addColumn('charge_id', 'text', (c) => c.notNull().unique())
        .addColumn('amount', 'integer', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('evidence_due_by', 'integer', (c) => c.notNull())
        .addColumn('evidence', 'text')
        .addColumn('evidence_submitted_at', 'integer')
        .addColumn('outcome', 'text')
        .addColumn('decided_at', 'integer')
        .addColumn('sequence', 'integer', (c) => c.notNull())
        .addColumn('created', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('disputes_merchant_sequence').on('disputes').columns(['merchant_account', 'sequence']).execute();
    },
  },
};

export const openSandboxDb = (file: string) => openDatabase<SandboxDatabase>(file, migrations);

export interface LedgerEntry {
  operation: LedgerOperation;
  merchant_account: string;
  idempotency_key: string | null;
  charge: Charge;
  /** The refund a `refund` operation made. */
  refund?: ServiceRefund;
}

type ChargeRow = Omit<ChargesTable, 'seq' | 'amount_refunded' | 'address_line1_check' | 'address_postal_code_check' | 'network_transaction_reference' | 'stored_credential'> & {
  seq: number;
  address_line1_check: string | null;
  address_postal_code_check: string | null;
  network_transaction_reference: string | null;
};

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
    address_line1_check: row.address_line1_check as Charge['address_line1_check'],
    address_postal_code_check: row.address_postal_code_check as Charge['address_postal_code_check'],
    failure_code: row.failure_code,
    failure_message: row.failure_message,
    created: row.created,
    amount_captured: row.amount_captured,
    payment_method: row.payment_method,
    network_transaction_reference: row.network_transaction_reference,
  };
}

/** A transaction on the sandbox's database. */
export type SandboxTransaction = Transaction<SandboxDatabase>;

/** The sandbox's database, or a transaction on it. */
export type SandboxDbOrTransaction = SandboxDb | SandboxTransaction;

async function appendOperation(db: SandboxDbOrTransaction, operation: LedgerOperation, entry: Omit<LedgerEntry, 'operation'>): Promise<void> {
  const { charge, refund } = entry;
  await db
    .insertInto('operations')
    .values({
      operation,
      charge_id: charge.id,
      merchant_account: entry.merchant_account,
      idempotency_key: entry.idempotency_key,
      charge: JSON.stringify(charge),
      refund: refund ? JSON.stringify(refund) : null,
      created: refund?.created ?? charge.created,
    })
    .execute();
}

export async function insertCharge(db: Transaction<SandboxDatabase>, entry: Omit<LedgerEntry, 'operation'> & { storedCredential: StoredCredential | undefined }): Promise<void> {
  const { charge } = entry;
  await appendOperation(db, 'charge', entry);
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
      address_line1_check: charge.address_line1_check ?? null,
      address_postal_code_check: charge.address_postal_code_check ?? null,
      failure_code: charge.failure_code,
      failure_message: charge.failure_message,
      created: charge.created,
      amount_captured: charge.amount_captured,
      payment_method: charge.payment_method,
      network_transaction_reference: charge.network_transaction_reference ?? null,
      stored_credential: entry.storedCredential ? JSON.stringify(entry.storedCredential) : null,
    })
    .execute();
}

/** A charge and the stored credential its request named (none: undefined). */
export async function findChargeWithCredential(db: SandboxDbOrTransaction, merchantAccount: string, id: string): Promise<{ charge: Charge; storedCredential: StoredCredential | undefined } | undefined> {
  const row = await db.selectFrom('charges').selectAll().where('merchant_account', '=', merchantAccount).where('id', '=', id).executeTakeFirst();
  return row && { charge: toCharge(row), storedCredential: row.stored_credential === null ? undefined : (JSON.parse(row.stored_credential) as StoredCredential) };
}

/** A merchant-initiated charge as the service holds it: the charge, the key it was made under and the stored credential its request named. */
export interface MerchantInitiatedCharge {
  merchant_account: string;
  idempotency_key: string | null;
  charge: Charge;
  storedCredential: Extract<StoredCredential, { initiator: 'merchant' }>;
}

/** Every merchant-initiated charge the service holds, oldest first: what a soak holds to the kept cards and the merchant's keys. */
export async function allMerchantInitiatedCharges(db: SandboxDb): Promise<MerchantInitiatedCharge[]> {
  const rows = await db.selectFrom('charges').selectAll().where('stored_credential', 'is not', null).orderBy('seq', 'asc').execute();
  return rows.flatMap((row) => {
    const credential = JSON.parse(row.stored_credential!) as StoredCredential;
    return credential.initiator === 'merchant' ? [{ merchant_account: row.merchant_account, idempotency_key: row.idempotency_key, charge: toCharge(row), storedCredential: credential }] : [];
  });
}

/** A capture or release: the charge's new state, and its ledger entry. */
export async function updateCharge(db: Transaction<SandboxDatabase>, operation: Exclude<LedgerOperation, 'charge'>, entry: Omit<LedgerEntry, 'operation'>): Promise<void> {
  const { charge } = entry;
  await db.updateTable('charges').set({ status: charge.status, amount_captured: charge.amount_captured }).where('id', '=', charge.id).execute();
  await appendOperation(db, operation, entry);
}

export async function findCharge(db: SandboxDbOrTransaction, merchantAccount: string, id: string): Promise<Charge | undefined> {
  const row = await db
    .selectFrom('charges')
    .selectAll()
    .where('merchant_account', '=', merchantAccount)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toCharge(row);
}

/** Test clocks (docs/test-clocks.md): the merchant account's named charges placed `seconds` earlier; how many there were. */
export async function backdateCharges(db: SandboxDb, merchantAccount: string, chargeIds: readonly string[], seconds: number): Promise<number> {
  const moved = await db
    .updateTable('charges')
    .set((eb) => ({ created: eb('created', '-', seconds) }))
    .where('merchant_account', '=', merchantAccount)
    .where('id', 'in', chargeIds)
    .executeTakeFirst();
  return Number(moved.numUpdatedRows);
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
  const rows = await db.selectFrom('operations').selectAll().orderBy('seq', 'asc').execute();
  return rows.map((row) => ({
    operation: row.operation,
    merchant_account: row.merchant_account,
    idempotency_key: row.idempotency_key,
    charge: JSON.parse(row.charge) as Charge,
    ...(row.refund !== null && { refund: JSON.parse(row.refund) as ServiceRefund }),
  }));
}

/** What is left to refund of a charge: its captured amount less its refunds so far. */
export async function refundableAmount(db: Transaction<SandboxDatabase>, chargeId: string): Promise<number> {
  const row = await db.selectFrom('charges').select(['amount_captured', 'amount_refunded']).where('id', '=', chargeId).executeTakeFirstOrThrow();
  return row.amount_captured - row.amount_refunded;
}

/** A refund of a charge, what it leaves refunded on the charge, and its ledger entry, in the caller's transaction. */
export async function insertRefund(db: Transaction<SandboxDatabase>, entry: Omit<LedgerEntry, 'operation' | 'refund'> & { refund: ServiceRefund }): Promise<void> {
  const { refund } = entry;
  await db
    .insertInto('refunds')
    .values({
      id: refund.id,
      merchant_account: entry.merchant_account,
      charge_id: refund.charge,
      idempotency_key: entry.idempotency_key,
      amount: refund.amount,
      currency: refund.currency,
      status: refund.status,
      failure_code: refund.failure_code,
      created: refund.created,
    })
    .execute();
  if (refund.status === 'succeeded') {
    await db.updateTable('charges').set((eb) => ({ amount_refunded: eb('amount_refunded', '+', refund.amount) })).where('id', '=', refund.charge).execute();
  }
  await appendOperation(db, 'refund', entry);
}

export async function findRefund(db: SandboxDbOrTransaction, merchantAccount: string, id: string): Promise<ServiceRefund | undefined> {
  const row = await db.selectFrom('refunds').selectAll().where('merchant_account', '=', merchantAccount).where('id', '=', id).executeTakeFirst();
  return (
    row && {
      id: row.id,
      object: 'refund',
      charge: row.charge_id,
      amount: row.amount,
      currency: row.currency,
      status: row.status as ServiceRefund['status'],
      failure_code: row.failure_code,
      created: row.created,
    }
  );
}

export interface PaymentMethod {
  id: string;
  card: CardSummary;
  issuer: IssuerProfile;
  /** The billing details of the charge that made it, if it sent any. */
  billingDetails: BillingDetails | null;
  /** Null for one made before fingerprints (0006): it cannot be kept. */
  fingerprint: string | null;
  /** A kept one's (POST /api/v1/payment_methods): its customer, the reference its merchant-initiated charges name, and when it was detached. */
  kept?: { customer: string; networkTransactionReference: string; detached: number | null; created: number };
}

export async function insertPaymentMethod(db: Transaction<SandboxDatabase>, merchantAccount: string, method: PaymentMethod, now: number): Promise<void> {
  await db
    .insertInto('payment_methods')
    .values({
      id: method.id,
      merchant_account: merchantAccount,
      card: JSON.stringify(method.card),
      issuer: JSON.stringify(method.issuer),
      billing_details: method.billingDetails === null ? null : JSON.stringify(method.billingDetails),
      created: now,
      fingerprint: method.fingerprint,
      customer: method.kept?.customer ?? null,
      network_transaction_reference: method.kept?.networkTransactionReference ?? null,
    })
    .execute();
}

function toPaymentMethod(row: { id: string; card: string; issuer: string; billing_details: string | null; fingerprint: string | null; customer: string | null; network_transaction_reference: string | null; detached: number | null; created: number }): PaymentMethod {
  // A payment method kept before 0005 has no address in its profile: its issuer has the sandbox cardholder's, as every card's then.
  const issuer: IssuerProfile = { address: SANDBOX_CARDHOLDER_ADDRESS, ...(JSON.parse(row.issuer) as Omit<IssuerProfile, 'address'>) };
  const billingDetails = row.billing_details === null ? null : (JSON.parse(row.billing_details) as BillingDetails);
  const kept = row.customer !== null && row.network_transaction_reference !== null ? { customer: row.customer, networkTransactionReference: row.network_transaction_reference, detached: row.detached, created: row.created } : undefined;
  return { id: row.id, card: JSON.parse(row.card) as CardSummary, issuer, billingDetails, fingerprint: row.fingerprint, ...(kept && { kept }) };
}

export async function findPaymentMethod(db: SandboxDbOrTransaction, merchantAccount: string, id: string): Promise<PaymentMethod | undefined> {
  const row = await db.selectFrom('payment_methods').selectAll().where('merchant_account', '=', merchantAccount).where('id', '=', id).executeTakeFirst();
  return row && toPaymentMethod(row);
}

/** Every kept payment method (detached ones too), with its merchant: what a soak holds merchant-initiated charges to. */
export async function allKeptPaymentMethods(db: SandboxDb): Promise<(PaymentMethod & { merchantAccount: string; kept: NonNullable<PaymentMethod['kept']> })[]> {
  const rows = await db.selectFrom('payment_methods').selectAll().where('customer', 'is not', null).execute();
  return rows.flatMap((row) => {
    const method = toPaymentMethod(row);
    return method.kept ? [{ ...method, kept: method.kept, merchantAccount: row.merchant_account }] : [];
  });
}

/** The merchant's live kept payment method of this customer's card, if any. */
export async function findKeptPaymentMethod(db: SandboxDbOrTransaction, merchantAccount: string, customer: string, fingerprint: string): Promise<PaymentMethod | undefined> {
  const row = await db
    .selectFrom('payment_methods')
    .selectAll()
    .where('merchant_account', '=', merchantAccount)
    .where('customer', '=', customer)
    .where('fingerprint', '=', fingerprint)
    .where('detached', 'is', null)
    .executeTakeFirst();
  return row && toPaymentMethod(row);
}

/** A kept payment method kept again, from a newer charge of the same card: that charge's card, issuer, billing details and reference. */
export async function rekeepPaymentMethod(db: Transaction<SandboxDatabase>, id: string, from: PaymentMethod, networkTransactionReference: string): Promise<void> {
  await db
    .updateTable('payment_methods')
    .set({ card: JSON.stringify(from.card), issuer: JSON.stringify(from.issuer), billing_details: from.billingDetails === null ? null : JSON.stringify(from.billingDetails), network_transaction_reference: networkTransactionReference })
    .where('id', '=', id)
    .execute();
}

/** Detaches a kept payment method; false when it was not a live kept one of the merchant's. */
export async function detachKeptPaymentMethod(db: SandboxDbOrTransaction, merchantAccount: string, id: string, now: number): Promise<boolean> {
  const updated = await db.updateTable('payment_methods').set({ detached: now }).where('merchant_account', '=', merchantAccount).where('id', '=', id).where('customer', 'is not', null).where('detached', 'is', null).executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** What the API shows of a kept payment method: never its issuer's profile or billing details. */
export function keptPaymentMethodView(method: PaymentMethod & { kept: NonNullable<PaymentMethod['kept']> }): KeptPaymentMethod {
  return {
    id: method.id,
    object: 'payment_method',
    customer: method.kept.customer,
    card: method.card,
    fingerprint: method.fingerprint ?? '',
    network_transaction_reference: method.kept.networkTransactionReference,
    status: method.kept.detached === null ? 'active' : 'detached',
    created: Math.floor(method.kept.created / 1000),
  };
}

/**
 * The network updated a kept card (its expiry, a reissued card's last four): the card as updated, the
 * issuer's answer to merchant-initiated charges as to any (the reissued card is good), and the merchant's
 * feed of updates, in one transaction.
 */
export async function updateKeptCard(db: Transaction<SandboxDatabase>, merchantAccount: string, method: PaymentMethod, card: CardSummary, now: number): Promise<void> {
  const { merchantInitiated: _refused, ...issuer } = method.issuer;
  await db.updateTable('payment_methods').set({ card: JSON.stringify(card), issuer: JSON.stringify(issuer) }).where('id', '=', method.id).execute();
  await db.insertInto('payment_method_updates').values({ merchant_account: merchantAccount, payment_method: method.id, card: JSON.stringify(card), created: now }).execute();
}

/** The merchant's card updates after `after`, oldest first; one more row tells `has_more`. */
export async function paymentMethodUpdates(db: SandboxDb, merchantAccount: string, after: number, limit: number): Promise<{ data: PaymentMethodUpdate[]; has_more: boolean }> {
  const rows = await db.selectFrom('payment_method_updates').selectAll().where('merchant_account', '=', merchantAccount).where('seq', '>', after).orderBy('seq').limit(limit + 1).execute();
  const data = rows.slice(0, limit).map((row) => ({
    id: `pmu_${row.seq}`,
    object: 'payment_method_update' as const,
    sequence: row.seq,
    payment_method: row.payment_method,
    card: JSON.parse(row.card) as CardSummary,
    created: Math.floor(row.created / 1000),
  }));
  return { data, has_more: rows.length > limit };
}

export type StoredAuthenticationSession = AuthenticationSession & { merchant_account: string; return_origin: string; ancestor_origins: string[]; charge_id: string | null };

export async function insertAuthenticationSession(db: SandboxDbOrTransaction, session: StoredAuthenticationSession): Promise<void> {
  await db
    .insertInto('authentication_sessions')
    .values({
      id: session.id,
      merchant_account: session.merchant_account,
      payment_method: session.payment_method,
      amount: session.amount,
      currency: session.currency,
      return_origin: session.return_origin,
      ancestor_origins: session.ancestor_origins.join(' '),
      status: session.status,
      challenge_url: session.challenge_url,
      charge_id: null,
      expires_at: session.expires_at,
      created: session.created,
    })
    .execute();
}

/** By id alone for the challenge page (its URL is the capability), or scoped to the merchant for the API. */
export async function findAuthenticationSession(db: SandboxDbOrTransaction, id: string, now: number, merchantAccount?: string): Promise<StoredAuthenticationSession | undefined> {
  let query = db.selectFrom('authentication_sessions').selectAll().where('id', '=', id);
  if (merchantAccount !== undefined) query = query.where('merchant_account', '=', merchantAccount);
  const row = await query.executeTakeFirst();
  if (!row) return undefined;
  const expired = row.status === 'challenge_required' && now >= row.expires_at;
  return {
    id: row.id,
    object: 'authentication_session',
    status: expired ? 'expired' : (row.status as AuthenticationStatus),
    payment_method: row.payment_method,
    amount: row.amount,
    currency: row.currency,
    challenge_url: expired ? null : row.challenge_url,
    expires_at: row.expires_at,
    created: row.created,
    merchant_account: row.merchant_account,
    return_origin: row.return_origin,
    ancestor_origins: row.ancestor_origins.split(' ').filter(Boolean),
    charge_id: row.charge_id,
  };
}

/** The shopper's answer to a challenge; false when it was no longer open (decided, or expired). */
export async function decideChallenge(db: SandboxDb, id: string, status: 'authenticated' | 'failed', now: number): Promise<boolean> {
  const updated = await db
    .updateTable('authentication_sessions')
    .set({ status, challenge_url: null })
    .where('id', '=', id)
    .where('status', '=', 'challenge_required')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** Spends an authentication on a charge; false when another charge already used it. */
export async function useAuthentication(db: Transaction<SandboxDatabase>, id: string, chargeId: string): Promise<boolean> {
  const updated = await db.updateTable('authentication_sessions').set({ charge_id: chargeId }).where('id', '=', id).where('charge_id', 'is', null).executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
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

/** A dispute as the sandbox keeps it (disputes.ts makes the service's object of it). */
export type DisputeRow = Selectable<DisputesTable>;

/** The merchant's next feed sequence: the sandbox's one SQLite writer serializes the transactions that take it. */
async function nextDisputeSequence(trx: Transaction<SandboxDatabase>, merchantAccount: string): Promise<number> {
  const last = await trx.selectFrom('disputes').select((eb) => eb.fn.max('sequence').as('sequence')).where('merchant_account', '=', merchantAccount).executeTakeFirst();
  return Number(last?.sequence ?? 0) + 1;
}

/** A new dispute, at the merchant's next feed sequence; the row as written. */
export async function insertDispute(trx: Transaction<SandboxDatabase>, row: Omit<DisputeRow, 'sequence'>): Promise<DisputeRow> {
  const inserted = { ...row, sequence: await nextDisputeSequence(trx, row.merchant_account) };
  await trx.insertInto('disputes').values(inserted).execute();
  return inserted;
}

/** A dispute changed, which moves it to the merchant's next feed sequence; the row as written. */
export async function changeDispute(trx: Transaction<SandboxDatabase>, row: DisputeRow, changes: Partial<Omit<DisputeRow, 'id' | 'merchant_account' | 'sequence'>>): Promise<DisputeRow> {
  const changed = { ...row, ...changes, sequence: await nextDisputeSequence(trx, row.merchant_account) };
  await trx.updateTable('disputes').set(changed).where('id', '=', row.id).execute();
  return changed;
}

export const findDisputeRow = (db: SandboxDbOrTransaction, merchantAccount: string, id: string): Promise<DisputeRow | undefined> =>
  db.selectFrom('disputes').selectAll().where('merchant_account', '=', merchantAccount).where('id', '=', id).executeTakeFirst();

export const disputeOfCharge = (db: SandboxDbOrTransaction, chargeId: string): Promise<DisputeRow | undefined> =>
  db.selectFrom('disputes').selectAll().where('charge_id', '=', chargeId).executeTakeFirst();

/** The merchant's disputes whose move is due at `now`: a review whose decision is due, or a response past its due date. In feed order. */
export const disputesDue = (db: SandboxDbOrTransaction, merchantAccount: string, now: number): Promise<DisputeRow[]> =>
  db
    .selectFrom('disputes')
    .selectAll()
    .where('merchant_account', '=', merchantAccount)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'under_review'), eb('outcome', 'is not', null), eb('decided_at', '<=', now)]),
        eb.and([eb('status', '=', 'needs_response'), eb('evidence_due_by', '<=', Math.floor(now / 1000))]),
      ]),
    )
    .orderBy('sequence')
    .execute();

/** The merchant's disputes whose latest change is after the sequence `after`, in sequence order; one more row tells `has_more`. */
export async function disputeRowsChangedAfter(db: SandboxDb, merchantAccount: string, after: number, limit: number): Promise<{ rows: DisputeRow[]; has_more: boolean }> {
  const rows = await db.selectFrom('disputes').selectAll().where('merchant_account', '=', merchantAccount).where('sequence', '>', after).orderBy('sequence').limit(limit + 1).execute();
  return { rows: rows.slice(0, limit), has_more: rows.length > limit };
}

/** Test clocks (docs/test-clocks.md): the merchant's disputes of the named charges, opened and due `seconds` earlier. */
export async function backdateDisputes(db: SandboxDbOrTransaction, merchantAccount: string, chargeIds: readonly string[], seconds: number): Promise<void> {
  await db
    .updateTable('disputes')
    .set((eb) => ({ created: eb('created', '-', seconds), evidence_due_by: eb('evidence_due_by', '-', seconds) }))
    .where('merchant_account', '=', merchantAccount)
    .where('charge_id', 'in', chargeIds)
    .execute();
}
