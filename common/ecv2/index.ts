/** ECv2 payment method token cryptography: the wallet module's public surface. */
export { openToken, sealToken, createIntermediateSigningKey } from './ecv2';
export type { WalletCryptoErrorCode, WalletCryptoError, OpenOptions, IntermediateSigningKey, SealOptions } from './ecv2';
export {
  generateSigningKey,
  generateRecipientKeyPair,
  publicKeyToUncompressedBase64,
  importUncompressedPoint,
  importPrivateKeyPkcs8,
  exportPrivateKeyPkcs8,
  rootKeyEntry,
} from './keys';
export type { SigningKey } from './keys';
