/** Interoperability: tokens sealed by Google's Tink (see fixtures/README.md). */
import { describe, expect, it } from 'vitest';
import { RootSigningKeys } from '../../contracts/ecv2';
import type { WalletCryptoErrorCode } from './ecv2';
import { importPrivateKeyPkcs8, openToken } from './index';
import vectors from './fixtures/tink-ecv2.json';

// Fixed clock: the valid vector's intermediate key expires in 2029, and the suite must not rot.
const NOW = Date.UTC(2026, 0, 1);
const options = {
  recipientId: vectors.recipientId,
  privateKeys: [importPrivateKeyPkcs8(vectors.recipientPrivateKeyPkcs8Base64)],
  rootKeys: RootSigningKeys.parse(vectors.rootSigningKeys).keys,
  now: () => NOW,
};

const expectedCodes: Record<string, WalletCryptoErrorCode> = {
  'intermediate signing key expired': 'expired_intermediate_key',
  'intermediate signature replaced': 'untrusted_intermediate_key',
  'message signature from another token': 'bad_message_signature',
  'wrong protocolVersion': 'unsupported_protocol',
};

describe('Tink ECv2 vectors', () => {
  it('covers every case with an expectation', () => {
    for (const c of vectors.cases) {
      if (!c.expect.ok) expect(expectedCodes, c.name).toHaveProperty([c.name]);
    }
    expect(vectors.cases.filter((c) => c.expect.ok)).toHaveLength(1);
  });

  for (const c of vectors.cases) {
    it(c.name, () => {
      const result = openToken(c.token, options);
      if (c.expect.ok) {
        expect(result).toEqual({ ok: true, value: c.expect.plaintext });
      } else {
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.error.code).toBe(expectedCodes[c.name]);
      }
    });
  }

  it('opens the valid vector given as a JSON string too', () => {
    const valid = vectors.cases.find((c) => c.name === 'valid');
    expect(openToken(JSON.stringify(valid?.token), options).ok).toBe(true);
  });

  it('refuses the valid vector for another recipient', () => {
    const valid = vectors.cases.find((c) => c.name === 'valid');
    const result = openToken(valid?.token, { ...options, recipientId: 'otherRecipient' });
    expect(result.ok || result.error.code).toBe('bad_message_signature');
  });
});
