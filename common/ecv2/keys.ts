/**
 * P-256 key helpers for ECv2. Every key this module hands out or accepts is a
 * Node KeyObject; encodings only appear at the edges (keys.json, env vars,
 * Google's DIRECT tokenization parameters).
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { RootSigningKey } from '../../contracts/ecv2';

/** ECv2 uses P-256 everywhere; OpenSSL calls it prime256v1. */
export const CURVE = 'prime256v1';

/**
 * DER SubjectPublicKeyInfo header of a P-256 public key; followed by the 65-byte
 * uncompressed point it makes up the whole 91-byte SPKI. Lets us move between
 * the raw point Google sends and the SPKI form OpenSSL imports (and validates).
 */
const P256_SPKI_PREFIX = Buffer.from('3059301306072a8648ce3d020106082a8648ce3d030107034200', 'hex');
export const UNCOMPRESSED_POINT_LENGTH = 65;

export interface SigningKey {
  privateKey: KeyObject;
  /** base64 DER SPKI of the public key, the format of keys.json and signedKey. */
  keyValue: string;
}

export function isP256(key: KeyObject): boolean {
  return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === CURVE;
}

function assertP256(key: KeyObject, what: string): void {
  if (!isP256(key)) throw new TypeError(`${what} must be a P-256 EC key`);
}

export function generateRecipientKeyPair(): { privateKey: KeyObject; publicKey: KeyObject } {
  return generateKeyPairSync('ec', { namedCurve: CURVE });
}

export function generateSigningKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: CURVE });
  return { privateKey, keyValue: spkiBase64(publicKey) };
}

export function spkiBase64(publicKey: KeyObject): string {
  return publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
}

/** The 65-byte uncompressed point (0x04 || X || Y) of a P-256 public key. */
export function uncompressedPoint(key: KeyObject): Buffer {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  assertP256(publicKey, 'key');
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  const point = spki.subarray(P256_SPKI_PREFIX.length);
  // OpenSSL always exports uncompressed points in SPKI, but a silent format change
  // would produce tokens nobody can open, so check rather than assume.
  if (!spki.subarray(0, P256_SPKI_PREFIX.length).equals(P256_SPKI_PREFIX) || point.length !== UNCOMPRESSED_POINT_LENGTH) {
    throw new Error('unexpected P-256 SPKI encoding');
  }
  return point;
}

/**
 * Imports an uncompressed P-256 point. OpenSSL rejects points not on the curve
 * here, which is what keeps invalid-curve attacks out of the ECDH.
 * Returns undefined for anything that is not a valid point.
 */
export function importUncompressedPoint(point: Buffer): KeyObject | undefined {
  if (point.length !== UNCOMPRESSED_POINT_LENGTH || point[0] !== 0x04) return undefined;
  try {
    return createPublicKey({ key: Buffer.concat([P256_SPKI_PREFIX, point]), format: 'der', type: 'spki' });
  } catch {
    return undefined;
  }
}

/** Google's DIRECT tokenization `publicKey` parameter: base64 of the uncompressed point. */
export function publicKeyToUncompressedBase64(key: KeyObject): string {
  return uncompressedPoint(key).toString('base64');
}

export function importPrivateKeyPkcs8(base64: string): KeyObject {
  // Whitespace is tolerated so a PEM body pasted into an env var still imports.
  const der = Buffer.from(base64.replace(/\s+/g, ''), 'base64');
  const key = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  assertP256(key, 'private key');
  return key;
}

export function exportPrivateKeyPkcs8(key: KeyObject): string {
  if (key.type !== 'private') throw new TypeError('not a private key');
  return key.export({ format: 'der', type: 'pkcs8' }).toString('base64');
}

/** A keys.json entry trusting `key` as an ECv2 root signing key. */
export function rootKeyEntry(key: SigningKey, expiresAt?: number): RootSigningKey {
  return expiresAt === undefined
    ? { keyValue: key.keyValue, protocolVersion: 'ECv2' }
    : { keyValue: key.keyValue, protocolVersion: 'ECv2', keyExpiration: String(expiresAt) };
}
