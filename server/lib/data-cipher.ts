/**
 * Encryption at rest for the little payment data we must keep for a while:
 * the charge request of an attempt whose outcome is not known yet, so that it
 * can be replayed with the same idempotency key (the only way to learn the
 * outcome without guessing). AES-256-GCM; the key comes from the environment
 * or a file of its own under DATA_DIR, never from the database.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { privateDirectory } from '../../common/private-files';
import { randomBytesFromPool } from '../../common/secrets';
import { type Failure, type Result, err, ok } from '../../common/result';

export interface DataCipher {
  seal(plaintext: string): string;
  open(sealed: string): Result<string, Failure<'undecryptable'>>;
  /**
   * A blind index of `value`: HMAC-SHA256 under a key derived from the data key for `purpose` (HKDF), base64url. Equal
   * values give equal indexes, so a sealed column is searched by its index without opening a row; without the data key
   * the index tells nothing (an unkeyed hash of an e-mail would be reversed by hashing a list of addresses).
   */
  blindIndex(purpose: string, value: string): string;
}

const VERSION = 'v1';

export function createDataCipher(key: Buffer): DataCipher {
  if (key.length !== 32) throw new TypeError('the data encryption key must be 32 bytes');
  const indexKeys = new Map<string, Buffer>();
  const indexKey = (purpose: string): Buffer => {
    let derived = indexKeys.get(purpose);
    if (!derived) indexKeys.set(purpose, (derived = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `wallet-checkout blind index: ${purpose}`, 32))));
    return derived;
  };
  return {
    blindIndex: (purpose, value) => createHmac('sha256', indexKey(purpose)).update(value, 'utf8').digest('base64url'),
    seal(plaintext) {
      const iv = randomBytesFromPool(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join('.');
    },
    open(sealed) {
      const [version, iv, tag, ciphertext] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || ciphertext === undefined) return err({ code: 'undecryptable', message: 'not a sealed value' });
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
        decipher.setAuthTag(Buffer.from(tag, 'base64'));
        return ok(Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8'));
      } catch {
        return err({ code: 'undecryptable', message: 'the sealed value does not open with this key' });
      }
    },
  };
}

/**
 * `cipher` for the span of one request: what it sealed opens from memory instead of being decrypted
 * again. A payment seals the shopper's billing address into its claim and, moments later, opens it for
 * the view its event carries. Anything else opens through `cipher`.
 */
export function rememberingSeals(cipher: DataCipher): DataCipher {
  const sealedHere = new Map<string, string>();
  return {
    blindIndex: (purpose, value) => cipher.blindIndex(purpose, value),
    seal(plaintext) {
      const sealed = cipher.seal(plaintext);
      sealedHere.set(sealed, plaintext);
      return sealed;
    },
    open(sealed) {
      const plaintext = sealedHere.get(sealed);
      return plaintext === undefined ? cipher.open(sealed) : ok(plaintext);
    },
  };
}

/** The key from DATA_ENCRYPTION_KEY (base64), or one generated once into `file` (mode 0600). */
export function loadDataKey(fromEnvironment: string | undefined, file: string): Buffer {
  if (fromEnvironment) return Buffer.from(fromEnvironment, 'base64');
  if (!existsSync(file)) {
    privateDirectory(dirname(file));
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}
