/**
 * A direct-mode app's Google Pay recipient keys, provisioned explicitly and
 * shared by every instance through the store (private halves sealed with the
 * data cipher). A key's life: `pending` once created (its public key is
 * registered in Google's Pay & Wallet Console), `registered` once the operator
 * says so (it opens tokens, and the newest registered key goes into requests),
 * `retired` when tokens sealed to it can no longer arrive (it opens nothing).
 */
import type { KeyObject } from 'node:crypto';
import type { App } from '../apps';
import type { DataCipher } from '../lib/data-cipher';
import { type Failure, type Result, err, ok } from '../../common/result';
import { randomId } from '../../common/secrets';
import type { Store } from '../store';
import { type DirectKeyRow, type DirectKeyStatus, directKeysOf, insertDirectKey, moveDirectKey } from '../store/direct';
import { exportPrivateKeyPkcs8, generateRecipientKeyPair, importPrivateKeyPkcs8, publicKeyToUncompressedBase64 } from '../../common/ecv2';

/** What an operator sees of a key: never its private half. */
export interface DirectKey {
  id: string;
  appId: string;
  status: DirectKeyStatus;
  /** Base64 uncompressed P-256 point: what Google's console and the DIRECT tokenization parameters take. */
  publicKey: string;
  created: number;
  registered: number | null;
  retired: number | null;
}

export interface DirectKeys {
  create(appId: string): Promise<DirectKey>;
  /** pending -> registered: from now on the key is put in requests (the newest registered one is). */
  register(appId: string, keyId: string): Promise<Result<DirectKey, Failure>>;
  /** pending or registered -> retired: it no longer opens tokens. */
  retire(appId: string, keyId: string): Promise<Result<DirectKey, Failure>>;
  list(appId: string): Promise<DirectKey[]>;
  /** The public key to put in the app's Google Pay requests. */
  publicKeyFor(app: App): Promise<Result<string, Failure>>;
  /** The private keys that open the app's tokens: every registered one, newest first. */
  openingKeysFor(app: App): Promise<Result<readonly KeyObject[], Failure>>;
}

const keyView = (row: DirectKeyRow): DirectKey => ({
  id: row.id,
  appId: row.app_id,
  status: row.status as DirectKeyStatus,
  publicKey: row.public_key,
  created: row.created,
  registered: row.registered,
  retired: row.retired,
});

const notRegistered = (app: App): Failure => ({
  code: 'direct_key_not_registered',
  message: `Application ${app.id} decrypts Google Pay tokens itself but has no registered key (see docs/direct-mode.md)`,
});

export function createDirectKeys(store: Store, cipher: DataCipher, now: () => number = Date.now): DirectKeys {
  // A key's private half never changes: each is unsealed and imported once per process.
  const unsealed = new Map<string, KeyObject>();
  const privateKeyOf = (row: DirectKeyRow): KeyObject | undefined => {
    if (!unsealed.has(row.id)) {
      const pkcs8 = cipher.open(row.private_key_sealed);
      if (pkcs8.ok) unsealed.set(row.id, importPrivateKeyPkcs8(pkcs8.value));
    }
    return unsealed.get(row.id);
  };

  const move = async (appId: string, keyId: string, from: readonly DirectKeyStatus[], to: 'registered' | 'retired'): Promise<Result<DirectKey, Failure>> => {
    if (!(await moveDirectKey(store, { appId, keyId, from, to, now: now() }))) {
      return err({ code: 'not_found', message: `Application ${appId} has no ${from.join(' or ')} key ${keyId}` });
    }
    const row = (await directKeysOf(store, appId)).find((key) => key.id === keyId) as DirectKeyRow;
    return ok(keyView(row));
  };

  return {
    async create(appId) {
      const pair = generateRecipientKeyPair();
      const row: DirectKeyRow = {
        id: `dk_${randomId(12)}`,
        app_id: appId,
        status: 'pending',
        public_key: publicKeyToUncompressedBase64(pair.publicKey),
        private_key_sealed: cipher.seal(exportPrivateKeyPkcs8(pair.privateKey)),
        created: now(),
        registered: null,
        retired: null,
      };
      await insertDirectKey(store, row);
      return keyView(row);
    },
    register: (appId, keyId) => move(appId, keyId, ['pending'], 'registered'),
    retire: (appId, keyId) => move(appId, keyId, ['pending', 'registered'], 'retired'),
    list: async (appId) => (await directKeysOf(store, appId)).map(keyView),
    async publicKeyFor(app) {
      const [newest] = await directKeysOf(store, app.id, ['registered']);
      return newest ? ok(newest.public_key) : err(notRegistered(app));
    },
    async openingKeysFor(app) {
      const rows = await directKeysOf(store, app.id, ['registered']);
      if (rows.length === 0) return err(notRegistered(app));
      const keys = rows.map(privateKeyOf);
      if (keys.some((key) => key === undefined)) {
        // Every instance of a fleet must share DATA_ENCRYPTION_KEY; one that does not cannot open the keys the others sealed.
        return err({ code: 'direct_mode_unavailable', message: "This instance's DATA_ENCRYPTION_KEY does not open the application's direct-mode keys" });
      }
      return ok(keys as KeyObject[]);
    },
  };
}
