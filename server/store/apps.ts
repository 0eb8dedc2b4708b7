/**
 * Applications' rows (apps/registry.ts reads them into Apps). An app's
 * allowed origins and their verification rows (store/origin-verifications.ts)
 * are always written together, in the caller's transaction.
 */
import type { Selectable, Transaction, Updateable } from 'kysely';
import type { AppsTable, BackendDatabase } from './schema';
import { syncOriginVerifications } from './origin-verifications';
import { insertSecretKey } from './secret-keys';
import type { Store } from '.';

type Db = Store | Transaction<BackendDatabase>;
export type AppRow = Selectable<AppsTable>;

/** A new app with its first secret key (`row.secret_key_hash`, live until rolled) and its origins' verification rows. */
export async function insertApp(trx: Transaction<BackendDatabase>, row: AppRow): Promise<void> {
  await trx.insertInto('apps').values(row).execute();
  await insertSecretKey(trx, { hash: row.secret_key_hash, app_id: row.id, created: row.created, expires: null });
  await syncOriginVerifications(trx, row.id, JSON.parse(row.allowed_origins) as string[], row.created);
}

/** The columns an App is made of (apps/registry.ts): what a read that brings the app along with another row selects. */
const APP_FIELDS = {
  id: true,
  name: true,
  merchant_id: true,
  google_merchant_id: true,
  allowed_origins: true,
  auth_methods: true,
  card_networks: true,
  environment: true,
  decryption_mode: true,
  three_ds: true,
  google_pay_mode: true,
  created: true,
} as const satisfies Partial<Record<keyof AppRow, true>>;
export type AppFieldsRow = Pick<AppRow, keyof typeof APP_FIELDS>;
export const APP_COLUMNS = Object.keys(APP_FIELDS) as (keyof typeof APP_FIELDS)[];

export const findAppRow = (db: Db, id: string): Promise<AppRow | undefined> => db.selectFrom('apps').selectAll().where('id', '=', id).executeTakeFirst();

/** The digest of the app's newest secret key (the key itself is in app_secret_keys). */
export async function setNewestSecretKey(trx: Transaction<BackendDatabase>, id: string, hash: string): Promise<void> {
  await trx.updateTable('apps').set({ secret_key_hash: hash }).where('id', '=', id).execute();
}

/**
 * Every write of an app's allowed origins goes through here, so that each
 * origin has its verification row and a removed one loses its own: written in
 * the caller's transaction with the list, and with `changes` to the app's other columns.
 */
export async function setAllowedOrigins(trx: Transaction<BackendDatabase>, id: string, origins: readonly string[], changes: Omit<Updateable<AppsTable>, 'allowed_origins'> = {}): Promise<void> {
  const unique = [...new Set(origins)];
  await trx.updateTable('apps').set({ ...changes, allowed_origins: JSON.stringify(unique) }).where('id', '=', id).execute();
  await syncOriginVerifications(trx, id, unique, Date.now());
}

/** Apps in PRODUCTION or in direct mode that have no Google merchant id. */
export const appRowsWithoutGoogleMerchantId = (store: Store): Promise<AppRow[]> =>
  store
    .selectFrom('apps')
    .selectAll()
    .where('google_merchant_id', 'is', null)
    .where((eb) => eb.or([eb('environment', '=', 'PRODUCTION'), eb('decryption_mode', '=', 'direct')]))
    .execute();
