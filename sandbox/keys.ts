/**
 * The sandbox's long-lived secrets, kept in keys.json so that tokens minted,
 * service keys configured and root keys trusted before a restart still work after it.
 */
import { createPublicKey, randomBytes } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { exportPrivateKeyPkcs8, generateRecipientKeyPair, generateSigningKey, importPrivateKeyPkcs8 } from '../common/ecv2';
import type { SigningKey } from '../common/ecv2';

const KeysFile = z.object({
  version: z.literal(1),
  service_secret_key: z.string().regex(/^sk_sandbox_[A-Za-z0-9_-]{43}$/),
  root_signing_key_pkcs8: z.string().min(1),
  gateway_private_key_pkcs8: z.string().min(1),
});
type KeysFile = z.infer<typeof KeysFile>;

export interface SandboxKeys {
  serviceSecretKey: string;
  /** Plays Google's root signing key. */
  root: SigningKey;
  /** The gateway's ECv2 recipient key: tokens for `gateway:<name>` are sealed to it. */
  gatewayPrivateKey: KeyObject;
  gatewayPublicKey: KeyObject;
}

function createKeysFile(): KeysFile {
  return {
    version: 1,
    service_secret_key: `sk_sandbox_${randomBytes(32).toString('base64url')}`,
    root_signing_key_pkcs8: exportPrivateKeyPkcs8(generateSigningKey().privateKey),
    gateway_private_key_pkcs8: exportPrivateKeyPkcs8(generateRecipientKeyPair().privateKey),
  };
}

function readKeysFile(file: string): KeysFile | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  // A damaged file is an operator problem: silently regenerating would
  // invalidate every configured service key and every token in flight.
  try {
    return KeysFile.parse(JSON.parse(text));
  } catch {
    throw new Error(`${file} is not a valid sandbox keys file`);
  }
}

export function loadOrCreateKeys(file: string): SandboxKeys {
  let stored = readKeysFile(file);
  if (!stored) {
    const created = createKeysFile();
    try {
      // 'wx' so that of two processes starting at once only one writes; the other reads its keys.
      writeFileSync(file, `${JSON.stringify(created, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      stored = created;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      stored = readKeysFile(file);
      if (!stored) throw error;
    }
  }
  // The mode passed at creation is subject to the umask and may have been loosened since.
  chmodSync(file, 0o600);

  const rootPrivate = importPrivateKeyPkcs8(stored.root_signing_key_pkcs8);
  const gatewayPrivateKey = importPrivateKeyPkcs8(stored.gateway_private_key_pkcs8);
  return {
    serviceSecretKey: stored.service_secret_key,
    root: {
      privateKey: rootPrivate,
      keyValue: createPublicKey(rootPrivate).export({ format: 'der', type: 'spki' }).toString('base64'),
    },
    gatewayPrivateKey,
    gatewayPublicKey: createPublicKey(gatewayPrivateKey),
  };
}
