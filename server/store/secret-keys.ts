/**
 * Applications' secret keys, as SHA-256 digests (lib/secrets.ts): several may
 * be live at once while a merchant moves from an old key to a new one.
 */
import type { QueryCreator, Selectable, Transaction } from 'kysely';
import type { AppSecretKeysTable, AppsTable, BackendDatabase } from './schema';
import type { Store } from '.';

type Db = Store | Transaction<BackendDatabase>;

export async function insertSecretKey(db: Db, row: Selectable<AppSecretKeysTable>): Promise<void> {
  await db.insertInto('app_secret_keys').values(row).execute();
}

/**
 * The key with this digest and its app, if the key has not expired at `now` (one lookup by primary key), not yet
 * run: every read of a live key's app starts from it, alone or as a step of a larger statement.
 */
export const liveSecretKeyWithApp = (db: QueryCreator<BackendDatabase>, hash: string, now: number) =>
  db
    .selectFrom('app_secret_keys')
    .innerJoin('apps', 'apps.id', 'app_secret_keys.app_id')
    .where('app_secret_keys.hash', '=', hash)
    .where((eb) => eb.or([eb('app_secret_keys.expires', 'is', null), eb('app_secret_keys.expires', '>', now)]));

/** The app whose key has this digest, if the key has not expired at `now`. */
export const appOfLiveSecretKey = (db: Db, hash: string, now: number): Promise<Selectable<AppsTable> | undefined> =>
  liveSecretKeyWithApp(db, hash, now).selectAll('apps').executeTakeFirst();

/**
 * Makes the app's keys live at `now` (or only the one with digest `hash`)
 * expire at `expires`, never later than they already would: a roll never
 * lengthens a key's life. Run in the roll's transaction; answers when each
 * of those keys now expires.
 */
export async function expireSecretKeys(db: Db, which: { appId: string; hash?: string; now: number; expires: number }): Promise<number[]> {
  const { appId, hash, now, expires } = which;
  let live = db
    .selectFrom('app_secret_keys')
    .select('expires')
    .where('app_id', '=', appId)
    .where((eb) => eb.or([eb('expires', 'is', null), eb('expires', '>', now)]));
  if (hash !== undefined) live = live.where('hash', '=', hash);
  const keys = await live.execute();
  let shorten = db
    .updateTable('app_secret_keys')
    .set({ expires })
    .where('app_id', '=', appId)
    .where((eb) => eb.or([eb('expires', 'is', null), eb('expires', '>', expires)]));
  if (hash !== undefined) shorten = shorten.where('hash', '=', hash);
  await shorten.execute();
  return keys.map((key) => Math.min(key.expires ?? expires, expires));
}
