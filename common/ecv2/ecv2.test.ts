import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { EcV2Token } from '../../contracts/ecv2';
import { intermediateSignedBytes, messageSignedBytes, signEcdsa } from './ecv2';
import type { WalletCryptoErrorCode } from './ecv2';
import {
  createIntermediateSigningKey,
  exportPrivateKeyPkcs8,
  generateRecipientKeyPair,
  generateSigningKey,
  importPrivateKeyPkcs8,
  openToken,
  publicKeyToUncompressedBase64,
  rootKeyEntry,
  sealToken,
} from './index';
import type { OpenOptions } from './index';
import { HOUR, NOW, RECIPIENT_ID, TEST_PAN, makeWorld, sampleMessage } from '../../testing/wallet';

function expectCode(result: ReturnType<typeof openToken>, code: WalletCryptoErrorCode) {
  expect(result.ok ? 'opened' : result.error.code).toBe(code);
}

/** A P-384 key: exercises the "wrong key type in the rotation list" path. */
const otherCurvePrivateKey = () => generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey;

describe('openToken', () => {
  const world = makeWorld();
  const seal = (message = sampleMessage(), intermediate = world.intermediate) =>
    sealToken(message, { recipientId: RECIPIENT_ID, recipientPublicKey: world.recipient.publicKey, intermediate });
  /** Re-signs a hand-edited signedMessage so the checks after the signature are reached. */
  const resign = (token: EcV2Token, signedMessage: string): EcV2Token => ({
    ...token,
    signedMessage,
    signature: signEcdsa(world.intermediate.signing.privateKey, messageSignedBytes(RECIPIENT_ID, signedMessage)),
  });

  it('opens what sealToken sealed, as an object or a JSON string', () => {
    const token = seal();
    expect(openToken(token, world.options)).toEqual({ ok: true, value: sampleMessage() });
    expect(openToken(JSON.stringify(token), world.options)).toEqual({ ok: true, value: sampleMessage() });
  });

  it('uses a fresh ephemeral key for every token', () => {
    expect(JSON.parse(seal().signedMessage).ephemeralPublicKey).not.toBe(JSON.parse(seal().signedMessage).ephemeralPublicKey);
  });

  it('refuses malformed tokens', () => {
    expectCode(openToken('{not json', world.options), 'malformed_token');
    expectCode(openToken(null, world.options), 'malformed_token');
    expectCode(openToken({ ...seal(), extra: 1 }, world.options), 'malformed_token');
    const { signature: _signature, ...unsigned } = seal();
    expectCode(openToken(unsigned, world.options), 'malformed_token');
  });

  it('refuses protocols other than ECv2', () => {
    expectCode(openToken({ ...seal(), protocolVersion: 'ECv1' }, world.options), 'unsupported_protocol');
  });

  it('refuses an expired intermediate key', () => {
    const token = seal(sampleMessage({ messageExpiration: String(NOW + 48 * HOUR) }));
    expect(openToken(token, { ...world.options, now: () => NOW + 24 * HOUR - 1 }).ok).toBe(true);
    expectCode(openToken(token, { ...world.options, now: () => NOW + 24 * HOUR }), 'expired_intermediate_key');
  });

  it('refuses an expired message', () => {
    const token = seal();
    expect(openToken(token, { ...world.options, now: () => NOW + HOUR - 1 }).ok).toBe(true);
    expectCode(openToken(token, { ...world.options, now: () => NOW + HOUR }), 'expired_message');
  });

  it('ignores root keys whose protocolVersion is not ECv2', () => {
    const rootKeys = [{ ...rootKeyEntry(world.root), protocolVersion: 'ECv1' }];
    expectCode(openToken(seal(), { ...world.options, rootKeys }), 'untrusted_intermediate_key');
  });

  it('ignores expired root keys, and trusts root keys without expiry', () => {
    expectCode(openToken(seal(), { ...world.options, rootKeys: [rootKeyEntry(world.root, NOW)] }), 'untrusted_intermediate_key');
    expect(openToken(seal(), { ...world.options, rootKeys: [rootKeyEntry(world.root)] }).ok).toBe(true);
  });

  it('refuses an intermediate key signed by an untrusted root', () => {
    const intermediate = createIntermediateSigningKey(generateSigningKey().privateKey, NOW + HOUR);
    expectCode(openToken(seal(sampleMessage(), intermediate), world.options), 'untrusted_intermediate_key');
  });

  it('accepts the intermediate key if any one of several signatures verifies', () => {
    const stranger = generateSigningKey();
    const strangerSignature = signEcdsa(stranger.privateKey, intermediateSignedBytes(world.intermediate.signedKey));
    for (const signatures of [
      [strangerSignature, ...world.intermediate.signatures],
      [...world.intermediate.signatures, strangerSignature],
    ]) {
      expect(openToken(seal(sampleMessage(), { ...world.intermediate, signatures }), world.options).ok).toBe(true);
    }
    const onlyStranger = { ...world.intermediate, signatures: [strangerSignature] };
    expectCode(openToken(seal(sampleMessage(), onlyStranger), world.options), 'untrusted_intermediate_key');
  });

  it('accepts the intermediate key if any one of several root keys verifies it', () => {
    const others = [generateSigningKey(), generateSigningKey()].map((key) => rootKeyEntry(key));
    for (const rootKeys of [[...others, ...world.rootKeys], [others[0]!, ...world.rootKeys, others[1]!]]) {
      expect(openToken(seal(), { ...world.options, rootKeys }).ok).toBe(true);
    }
    expectCode(openToken(seal(), { ...world.options, rootKeys: others }), 'untrusted_intermediate_key');
  });

  it('skips unusable root key entries', () => {
    const rootKeys = [{ keyValue: 'not base64!', protocolVersion: 'ECv2' }, ...world.rootKeys];
    expect(openToken(seal(), { ...world.options, rootKeys }).ok).toBe(true);
  });

  it('opens with any of several private keys (rotation)', () => {
    const older = generateRecipientKeyPair();
    const p384 = otherCurvePrivateKey();
    const options: OpenOptions = { ...world.options, privateKeys: [p384, older.privateKey, world.recipient.privateKey] };
    expect(openToken(seal(), options)).toEqual({ ok: true, value: sampleMessage() });
    expectCode(openToken(seal(), { ...world.options, privateKeys: [older.privateKey] }), 'bad_tag');
    expectCode(openToken(seal(), { ...world.options, privateKeys: [] }), 'bad_tag');
  });

  it('refuses a token sealed for another recipient id', () => {
    expectCode(openToken(seal(), { ...world.options, recipientId: 'merchant:12345' }), 'bad_message_signature');
  });

  it('refuses a message signed by a different intermediate key', () => {
    const other = createIntermediateSigningKey(world.root.privateKey, NOW + HOUR);
    const token = { ...seal(sampleMessage(), other), intermediateSigningKey: seal().intermediateSigningKey };
    expectCode(openToken(token, world.options), 'bad_message_signature');
  });

  it('compares the tag before decrypting: a tampered ciphertext is bad_tag, not malformed_message', () => {
    const token = seal();
    const fields = JSON.parse(token.signedMessage) as Record<string, string>;
    const ciphertext = Buffer.from(fields.encryptedMessage!, 'base64');
    ciphertext[0]! ^= 0x01; // would still decrypt (CTR), to invalid JSON
    const tampered = resign(token, JSON.stringify({ ...fields, encryptedMessage: ciphertext.toString('base64') }));
    expectCode(openToken(tampered, world.options), 'bad_tag');
  });

  it('refuses an ephemeral key that is not a point on P-256', () => {
    const token = seal();
    const fields = JSON.parse(token.signedMessage) as Record<string, string>;
    const offCurve = Buffer.from(fields.ephemeralPublicKey!, 'base64');
    offCurve[64]! ^= 0x01;
    const tampered = resign(token, JSON.stringify({ ...fields, ephemeralPublicKey: offCurve.toString('base64') }));
    expectCode(openToken(tampered, world.options), 'malformed_token');
  });

  it('refuses non-canonical base64', () => {
    const token = seal();
    const fields = JSON.parse(token.signedMessage) as Record<string, string>;
    const tampered = resign(token, JSON.stringify({ ...fields, tag: ` ${fields.tag!}` }));
    expectCode(openToken(tampered, world.options), 'malformed_token');
  });

  it('refuses a decrypted message that breaks the schema', () => {
    const badMessage = { ...sampleMessage(), paymentMethod: 'TOKEN' } as unknown as ReturnType<typeof sampleMessage>;
    expectCode(openToken(seal(badMessage), world.options), 'malformed_message');
  });

  it('refuses a CRYPTOGRAM_3DS card without its cryptogram, naming the field', () => {
    const { cryptogram: _dropped, ...card } = { ...sampleMessage().paymentMethodDetails, authMethod: 'CRYPTOGRAM_3DS' as const, cryptogram: 'AgAAAAAA' };
    const opened = openToken(seal({ ...sampleMessage(), paymentMethodDetails: card }), world.options);
    expectCode(opened, 'malformed_message');
    expect(!opened.ok && opened.error.message).toContain('paymentMethodDetails.cryptogram');
  });

  it('never puts card data or key material in error messages', () => {
    const cardLike = sampleMessage({
      paymentMethodDetails: { pan: `${TEST_PAN}x`, expirationMonth: 13, expirationYear: 1999, authMethod: 'PAN_ONLY', cryptogram: 'CRYPTOGRAM-SECRET' },
    });
    const failures = [
      openToken(seal(cardLike), world.options),
      openToken(seal(), { ...world.options, now: () => NOW + 2 * HOUR }),
      openToken(seal(), { ...world.options, recipientId: 'x' }),
      openToken(seal(), { ...world.options, privateKeys: [generateRecipientKeyPair().privateKey] }),
    ];
    const secrets = [TEST_PAN, 'CRYPTOGRAM-SECRET', exportPrivateKeyPkcs8(world.recipient.privateKey), world.root.keyValue];
    for (const result of failures) {
      expect(result.ok).toBe(false);
      const text = JSON.stringify(result);
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
    expect(JSON.stringify(failures[0])).toContain('paymentMethodDetails.pan');
  });
});

describe('key helpers', () => {
  it('round-trips a PKCS#8 private key', () => {
    const { privateKey, publicKey } = generateRecipientKeyPair();
    const imported = importPrivateKeyPkcs8(exportPrivateKeyPkcs8(privateKey));
    expect(publicKeyToUncompressedBase64(imported)).toBe(publicKeyToUncompressedBase64(publicKey));
  });

  it('exports the public key as a 65-byte uncompressed point', () => {
    const point = Buffer.from(publicKeyToUncompressedBase64(generateRecipientKeyPair().publicKey), 'base64');
    expect(point).toHaveLength(65);
    expect(point[0]).toBe(0x04);
  });

  it('builds keys.json entries', () => {
    const key = generateSigningKey();
    expect(rootKeyEntry(key, 123)).toEqual({ keyValue: key.keyValue, protocolVersion: 'ECv2', keyExpiration: '123' });
    expect(rootKeyEntry(key)).toEqual({ keyValue: key.keyValue, protocolVersion: 'ECv2' });
  });

  it('refuses keys not on P-256', () => {
    const p384 = otherCurvePrivateKey();
    expect(() => importPrivateKeyPkcs8(exportPrivateKeyPkcs8(p384))).toThrow();
    expect(() => createIntermediateSigningKey(p384, NOW)).toThrow();
  });
});
