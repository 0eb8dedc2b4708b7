import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DecryptedMessage, EcV2Token } from '../../contracts/ecv2';
import { messageSignedBytes, signEcdsa } from './ecv2';
import { openToken, sealToken } from './index';
import { NOW, RECIPIENT_ID, makeWorld, sampleMessage } from '../../testing/wallet';

const RUNS = { numRuns: 200 };
const world = makeWorld();
const seal = (message: DecryptedMessage) =>
  sealToken(message, { recipientId: RECIPIENT_ID, recipientPublicKey: world.recipient.publicKey, intermediate: world.intermediate });

const text = fc.string({ unit: 'binary', minLength: 1, maxLength: 40 });
const decryptedMessage: fc.Arbitrary<DecryptedMessage> = fc.record(
  {
    gatewayMerchantId: fc.string({ unit: 'binary', maxLength: 40 }),
    messageExpiration: fc.nat({ max: Number.MAX_SAFE_INTEGER - NOW - 1 }).map((n) => String(NOW + 1 + n)),
    messageId: text,
    paymentMethod: fc.constant('CARD' as const),
    paymentMethodDetails: fc.record(
      {
        pan: fc.stringMatching(/^\d{12,19}$/),
        expirationMonth: fc.integer({ min: 1, max: 12 }),
        expirationYear: fc.integer({ min: 2000, max: 9999 }),
        authMethod: fc.constantFrom('PAN_ONLY' as const, 'CRYPTOGRAM_3DS' as const),
        cryptogram: text,
        eciIndicator: fc.string({ maxLength: 2 }),
      },
      { requiredKeys: ['pan', 'expirationMonth', 'expirationYear', 'authMethod'] },
    )
      // As Google sends them: a CRYPTOGRAM_3DS card always carries its cryptogram.
      .filter((card) => card.authMethod !== 'CRYPTOGRAM_3DS' || !!card.cryptogram),
  },
  { requiredKeys: ['messageExpiration', 'messageId', 'paymentMethod', 'paymentMethodDetails'] },
);

describe('seal/open properties', () => {
  it('opens exactly what was sealed', () => {
    fc.assert(
      fc.property(decryptedMessage, (message) => {
        expect(openToken(seal(message), world.options)).toEqual({ ok: true, value: message });
      }),
      RUNS,
    );
  });

  // A few tokens rather than one, so mutations meet different ciphertexts and signatures.
  const tokens = [seal(sampleMessage()), seal(sampleMessage({ messageId: 'msg-2' })), seal(sampleMessage({ gatewayMerchantId: 'm-3' }))];
  it('starts the mutation tests from tokens that open', () => {
    for (const token of tokens) expect(openToken(token, world.options).ok).toBe(true);
  });

  type TopField = 'signature' | 'signedKey' | 'signatures[0]' | 'signedMessage';
  const topFields: TopField[] = ['signature', 'signedKey', 'signatures[0]', 'signedMessage'];
  const read = (token: EcV2Token, field: TopField): string =>
    field === 'signedKey'
      ? token.intermediateSigningKey.signedKey
      : field === 'signatures[0]'
        ? token.intermediateSigningKey.signatures[0]!
        : token[field];
  const write = (token: EcV2Token, field: TopField, value: string): EcV2Token =>
    field === 'signedKey'
      ? { ...token, intermediateSigningKey: { ...token.intermediateSigningKey, signedKey: value } }
      : field === 'signatures[0]'
        ? { ...token, intermediateSigningKey: { ...token.intermediateSigningKey, signatures: [value] } }
        : { ...token, [field]: value };

  const BASE64_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/='.split('');
  // Mostly plausible characters, so mutations are not all rejected at the first parse.
  const replacementChar = fc.oneof(fc.constantFrom(...BASE64_CHARS, '"', ':', ',', '{', '}', ' '), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }));
  const replaceChar = (value: string, index: number, char: string) => {
    const at = index % value.length;
    return value.slice(0, at) + char + value.slice(at + 1);
  };
  const flipByte = (base64: string, index: number, mask: number) => {
    const bytes = Buffer.from(base64, 'base64');
    bytes[index % bytes.length]! ^= mask;
    return bytes.toString('base64');
  };

  it('refuses a token with any single character of any field changed', () => {
    fc.assert(
      fc.property(fc.constantFrom(...tokens), fc.constantFrom(...topFields), fc.nat(), replacementChar, (token, field, index, char) => {
        const mutated = replaceChar(read(token, field), index, char);
        fc.pre(mutated !== read(token, field));
        expect(openToken(write(token, field, mutated), world.options).ok).toBe(false);
      }),
      RUNS,
    );
  });

  it('refuses a token with any single byte of a signature flipped', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...tokens),
        fc.constantFrom<TopField>('signature', 'signatures[0]'),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (token, field, index, mask) => {
          expect(openToken(write(token, field, flipByte(read(token, field), index, mask)), world.options).ok).toBe(false);
        },
      ),
      RUNS,
    );
  });

  const innerFields = ['encryptedMessage', 'ephemeralPublicKey', 'tag'] as const;
  const resign = (token: EcV2Token, signedMessage: string): EcV2Token => ({
    ...token,
    signedMessage,
    signature: signEcdsa(world.intermediate.signing.privateKey, messageSignedBytes(RECIPIENT_ID, signedMessage)),
  });

  // Re-signing isolates the ECDH/MAC layer: the signature check alone would hide a broken tag check.
  it('refuses a byte flip inside signedMessage fields, whether or not the message is re-signed', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...tokens),
        fc.constantFrom(...innerFields),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        fc.boolean(),
        (token, field, index, mask, resigned) => {
          const fields = JSON.parse(token.signedMessage) as Record<(typeof innerFields)[number], string>;
          const signedMessage = JSON.stringify({ ...fields, [field]: flipByte(fields[field], index, mask) });
          const result = openToken(resigned ? resign(token, signedMessage) : { ...token, signedMessage }, world.options);
          expect(result.ok).toBe(false);
          if (!result.ok) {
            expect(resigned ? ['bad_tag', 'malformed_token'] : ['bad_message_signature']).toContain(result.error.code);
          }
        },
      ),
      RUNS,
    );
  });

  it('refuses a character change inside re-signed signedMessage fields', () => {
    fc.assert(
      fc.property(fc.constantFrom(...tokens), fc.constantFrom(...innerFields), fc.nat(), replacementChar, (token, field, index, char) => {
        const fields = JSON.parse(token.signedMessage) as Record<(typeof innerFields)[number], string>;
        const mutated = replaceChar(fields[field], index, char);
        fc.pre(mutated !== fields[field]);
        const result = openToken(resign(token, JSON.stringify({ ...fields, [field]: mutated })), world.options);
        expect(result.ok).toBe(false);
      }),
      RUNS,
    );
  });
});
