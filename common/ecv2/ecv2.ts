/**
 * Google Pay ECv2 payment method tokens: opening (what a gateway does with the
 * token a payer's wallet hands over) and sealing (what Google does; the sandbox
 * wallet uses it to mint real tokens).
 * Reference: https://developers.google.com/pay/api/web/guides/resources/payment-data-cryptography
 */
import {
  createCipheriv,
  createECDH,
  diffieHellman,
  createDecipheriv,
  createHmac,
  createPublicKey,
  generateKeyPairSync,
  hkdfSync,
  sign,
  timingSafeEqual,
  verify,
} from 'node:crypto';
import type { ECDH, KeyObject } from 'node:crypto';
import { DecryptedMessage, EcV2Token, RootSigningKey, SignedKey, SignedMessage } from '../../contracts/ecv2';
import { err, ok } from '../result';
import type { Failure, Result } from '../result';
import { CURVE, generateSigningKey, isP256, UNCOMPRESSED_POINT_LENGTH, uncompressedPoint } from './keys';
import type { SigningKey } from './keys';

const PROTOCOL_VERSION = 'ECv2';
const SENDER_ID = 'Google';
const HKDF_INFO = 'Google';
const HKDF_SALT = Buffer.alloc(32);
const AES_KEY_LENGTH = 32;
const MAC_KEY_LENGTH = 32;
const TAG_LENGTH = 32;
/** Safe only because every message gets its own key from a fresh ephemeral ECDH. */
const ZERO_IV = Buffer.alloc(16);

export type WalletCryptoErrorCode =
  | 'malformed_token'
  | 'unsupported_protocol'
  | 'untrusted_intermediate_key'
  | 'expired_intermediate_key'
  | 'bad_message_signature'
  | 'bad_tag'
  | 'malformed_message'
  | 'expired_message';

/** Messages are fixed texts (at most naming schema paths): never decrypted content or key material. */
export type WalletCryptoError = Failure<WalletCryptoErrorCode>;

export interface OpenOptions {
  recipientId: string;
  /** Several keys support rotation: the token opens with whichever one it was sealed for. */
  privateKeys: readonly KeyObject[];
  /** Google's keys.json entries. */
  rootKeys: readonly RootSigningKey[];
  /** Clock in ms since epoch; injectable so expiry is testable. Defaults to Date.now. */
  now?: () => number;
}

export interface IntermediateSigningKey {
  signing: SigningKey;
  /** The exact JSON string that was signed; re-serialising it would break the signatures. */
  signedKey: string;
  signatures: string[];
}

export interface SealOptions {
  recipientId: string;
  recipientPublicKey: KeyObject;
  intermediate: IntermediateSigningKey;
}

const fail = (code: WalletCryptoErrorCode, message: string) => err<WalletCryptoError>({ code, message });

/** 4-byte little-endian length of the UTF-8 bytes, then the bytes: the ECv2 signed-string framing. */
function lengthPrefixed(...parts: string[]): Buffer {
  return Buffer.concat(
    parts.flatMap((part) => {
      const bytes = Buffer.from(part, 'utf8');
      const length = Buffer.alloc(4);
      length.writeUInt32LE(bytes.length);
      return [length, bytes];
    }),
  );
}

export function intermediateSignedBytes(signedKey: string): Buffer {
  return lengthPrefixed(SENDER_ID, PROTOCOL_VERSION, signedKey);
}

export function messageSignedBytes(recipientId: string, signedMessage: string): Buffer {
  return lengthPrefixed(SENDER_ID, recipientId, PROTOCOL_VERSION, signedMessage);
}

/**
 * Node's base64 decoder silently skips invalid characters and ignores unused
 * trailing bits, so distinct strings can decode to the same bytes. Accepting only
 * the canonical encoding keeps every altered character an altered input.
 */
function decodeBase64(text: string): Buffer | undefined {
  const bytes = Buffer.from(text, 'base64');
  return bytes.length > 0 && bytes.toString('base64') === text ? bytes : undefined;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * Root and intermediate keys are few and long-lived while importing one costs
 * as much as a signature check, so imports are remembered by their encoding
 * (bounded: an attacker sending fresh keys only churns the cache).
 */
const importedKeys = new Map<string, KeyObject | undefined>();
const IMPORTED_KEYS_LIMIT = 256;

function importSpki(keyValue: string): KeyObject | undefined {
  if (importedKeys.has(keyValue)) return importedKeys.get(keyValue);
  const key = importSpkiUncached(keyValue);
  if (importedKeys.size >= IMPORTED_KEYS_LIMIT) importedKeys.delete(importedKeys.keys().next().value as string);
  importedKeys.set(keyValue, key);
  return key;
}

function importSpkiUncached(keyValue: string): KeyObject | undefined {
  const der = decodeBase64(keyValue);
  if (!der) return undefined;
  try {
    const key = createPublicKey({ key: der, format: 'der', type: 'spki' });
    return isP256(key) ? key : undefined;
  } catch {
    return undefined;
  }
}

function verifyEcdsa(publicKey: KeyObject, data: Buffer, signatureBase64: string): boolean {
  const signature = decodeBase64(signatureBase64);
  if (!signature) return false;
  try {
    return verify('sha256', data, { key: publicKey, dsaEncoding: 'der' }, signature);
  } catch {
    return false;
  }
}

/** ECDSA P-256 over SHA-256, DER-encoded and base64 like every ECv2 signature. */
export function signEcdsa(privateKey: KeyObject, data: Buffer): string {
  return sign('sha256', data, { key: privateKey, dsaEncoding: 'der' }).toString('base64');
}

/** ms-since-epoch strings are compared as numbers; digits-only is enforced by the schemas. */
const isExpired = (expiration: string, now: number) => Number(expiration) <= now;

function deriveKeys(ephemeralPoint: Buffer, sharedSecret: Buffer): { aesKey: Buffer; macKey: Buffer } {
  const okm = Buffer.from(
    hkdfSync('sha256', Buffer.concat([ephemeralPoint, sharedSecret]), HKDF_SALT, HKDF_INFO, AES_KEY_LENGTH + MAC_KEY_LENGTH),
  );
  return { aesKey: okm.subarray(0, AES_KEY_LENGTH), macKey: okm.subarray(AES_KEY_LENGTH) };
}

/**
 * ECDH on the raw point, with one ECDH object per recipient key: importing the
 * ephemeral point as a KeyObject first would cost as much as the ECDH itself.
 */
const ecdhByKey = new WeakMap<KeyObject, ECDH | null>();

function ecdhFor(privateKey: KeyObject): ECDH | undefined {
  if (!ecdhByKey.has(privateKey)) {
    const scalar = privateKey.type === 'private' && isP256(privateKey) ? privateKey.export({ format: 'jwk' }).d : undefined;
    const ecdh = scalar ? createECDH(CURVE) : null;
    ecdh?.setPrivateKey(Buffer.from(scalar as string, 'base64url'));
    ecdhByKey.set(privateKey, ecdh);
  }
  return ecdhByKey.get(privateKey) ?? undefined;
}

const hmac = (macKey: Buffer, data: Buffer) => createHmac('sha256', macKey).update(data).digest();

const schemaPaths = (issues: readonly { path: readonly PropertyKey[] }[]) =>
  [...new Set(issues.map((issue) => issue.path.map(String).join('.') || '(root)'))].join(', ');

export function openToken(token: unknown, options: OpenOptions): Result<DecryptedMessage, WalletCryptoError> {
  const now = (options.now ?? Date.now)();

  let raw = token;
  if (typeof token === 'string') {
    const parsed = parseJson(token);
    if (!parsed.ok) return fail('malformed_token', 'token is not valid JSON');
    raw = parsed.value;
  }
  const envelope = EcV2Token.safeParse(raw);
  if (!envelope.success) return fail('malformed_token', `token does not match the ECv2 shape at: ${schemaPaths(envelope.error.issues)}`);
  const { signature, intermediateSigningKey, protocolVersion, signedMessage } = envelope.data;
  if (protocolVersion !== PROTOCOL_VERSION) return fail('unsupported_protocol', 'only ECv2 tokens are supported');

  // Roots that are not ECv2, expired, or unparsable are simply not trusted: keys.json
  // legitimately carries keys for other protocols alongside the current ones.
  const roots = options.rootKeys.flatMap((entry) => {
    const root = RootSigningKey.safeParse(entry);
    if (!root.success || root.data.protocolVersion !== PROTOCOL_VERSION) return [];
    if (root.data.keyExpiration !== undefined && isExpired(root.data.keyExpiration, now)) return [];
    const key = importSpki(root.data.keyValue);
    return key ? [key] : [];
  });
  const intermediateBytes = intermediateSignedBytes(intermediateSigningKey.signedKey);
  const trusted = intermediateSigningKey.signatures.some((sig) => roots.some((root) => verifyEcdsa(root, intermediateBytes, sig)));
  if (!trusted) return fail('untrusted_intermediate_key', 'intermediate signing key is not signed by a trusted root key');

  const signedKeyJson = parseJson(intermediateSigningKey.signedKey);
  const signedKey = signedKeyJson.ok ? SignedKey.safeParse(signedKeyJson.value) : undefined;
  if (!signedKey?.success) return fail('malformed_token', 'signedKey is malformed');
  if (isExpired(signedKey.data.keyExpiration, now)) return fail('expired_intermediate_key', 'intermediate signing key has expired');
  const intermediateKey = importSpki(signedKey.data.keyValue);
  if (!intermediateKey) return fail('malformed_token', 'signedKey.keyValue is not a P-256 public key');

  if (!verifyEcdsa(intermediateKey, messageSignedBytes(options.recipientId, signedMessage), signature)) {
    return fail('bad_message_signature', 'message signature does not verify for this recipient');
  }

  const signedMessageJson = parseJson(signedMessage);
  const sealed = signedMessageJson.ok ? SignedMessage.safeParse(signedMessageJson.value) : undefined;
  if (!sealed?.success) return fail('malformed_token', 'signedMessage is malformed');
  const ciphertext = decodeBase64(sealed.data.encryptedMessage);
  const ephemeralPoint = decodeBase64(sealed.data.ephemeralPublicKey);
  const tag = decodeBase64(sealed.data.tag);
  if (!ciphertext || !ephemeralPoint || !tag) return fail('malformed_token', 'signedMessage fields are not base64');
  const notAPoint = () => fail('malformed_token', 'ephemeralPublicKey is not an uncompressed P-256 point');
  if (ephemeralPoint.length !== UNCOMPRESSED_POINT_LENGTH || ephemeralPoint[0] !== 0x04) return notAPoint();

  // The tag authenticates the ciphertext, so nothing is decrypted until it matches.
  let aesKey: Buffer | undefined;
  for (const privateKey of options.privateKeys) {
    const ecdh = ecdhFor(privateKey);
    if (!ecdh) continue; // not a P-256 private key: cannot be the one this token was sealed for
    let sharedSecret: Buffer;
    try {
      // OpenSSL checks the point is on the curve, which keeps invalid-curve attacks out.
      sharedSecret = ecdh.computeSecret(ephemeralPoint);
    } catch {
      return notAPoint();
    }
    const keys = deriveKeys(ephemeralPoint, sharedSecret);
    const expected = hmac(keys.macKey, ciphertext);
    if (tag.length === TAG_LENGTH && timingSafeEqual(expected, tag)) {
      aesKey = keys.aesKey;
      break;
    }
  }
  if (!aesKey) return fail('bad_tag', 'message tag does not match under any recipient private key');

  const decipher = createDecipheriv('aes-256-ctr', aesKey, ZERO_IV);
  const plaintext = Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  const messageJson = parseJson(plaintext);
  if (!messageJson.ok) return fail('malformed_message', 'decrypted message is not JSON');
  const message = DecryptedMessage.safeParse(messageJson.value);
  // Zod issue messages can echo input, so only paths are reported.
  if (!message.success) return fail('malformed_message', `decrypted message is invalid at: ${schemaPaths(message.error.issues)}`);
  if (isExpired(message.data.messageExpiration, now)) return fail('expired_message', 'message has expired');
  return ok(message.data);
}

/** Generates an intermediate signing key and signs it with a root private key (Google's role). */
export function createIntermediateSigningKey(root: KeyObject, expiresAt: number): IntermediateSigningKey {
  if (root.type !== 'private' || !isP256(root)) throw new TypeError('root must be a P-256 private key');
  const signing = generateSigningKey();
  const signedKey = JSON.stringify({ keyValue: signing.keyValue, keyExpiration: String(expiresAt) });
  return { signing, signedKey, signatures: [signEcdsa(root, intermediateSignedBytes(signedKey))] };
}

/** Seals a message for one recipient, with a fresh ephemeral key each time. */
export function sealToken(message: DecryptedMessage, options: SealOptions): EcV2Token {
  const { recipientId, recipientPublicKey, intermediate } = options;
  if (!isP256(recipientPublicKey)) throw new TypeError('recipientPublicKey must be a P-256 key');
  const ephemeral = generateKeyPairSync('ec', { namedCurve: CURVE });
  const ephemeralPoint = uncompressedPoint(ephemeral.publicKey);
  const sharedSecret = diffieHellman({ privateKey: ephemeral.privateKey, publicKey: recipientPublicKey });
  const { aesKey, macKey } = deriveKeys(ephemeralPoint, sharedSecret);

  const cipher = createCipheriv('aes-256-ctr', aesKey, ZERO_IV);
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(message), 'utf8'), cipher.final()]);
  const signedMessage = JSON.stringify({
    encryptedMessage: ciphertext.toString('base64'),
    ephemeralPublicKey: ephemeralPoint.toString('base64'),
    tag: hmac(macKey, ciphertext).toString('base64'),
  });
  return {
    signature: signEcdsa(intermediate.signing.privateKey, messageSignedBytes(recipientId, signedMessage)),
    intermediateSigningKey: { signedKey: intermediate.signedKey, signatures: [...intermediate.signatures] },
    protocolVersion: PROTOCOL_VERSION,
    signedMessage,
  };
}
