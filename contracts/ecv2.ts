/**
 * Google Pay's ECv2 payment method token and the message sealed inside it.
 * Reference: https://developers.google.com/pay/api/web/guides/resources/payment-data-cryptography
 * The token fields are exactly the charge API's `walletpay` object.
 */
import { z } from 'zod';

export const EcV2Token = z.strictObject({
  signature: z.string().min(1),
  intermediateSigningKey: z.strictObject({
    signedKey: z.string().min(1),
    signatures: z.array(z.string().min(1)).min(1),
  }),
  protocolVersion: z.string().min(1),
  signedMessage: z.string().min(1),
});
export type EcV2Token = z.infer<typeof EcV2Token>;

/** `signedKey`, once parsed. */
export const SignedKey = z.object({
  keyValue: z.string().min(1),
  keyExpiration: z.string().regex(/^\d+$/),
});

/** `signedMessage`, once parsed. */
export const SignedMessage = z.object({
  encryptedMessage: z.string().min(1),
  ephemeralPublicKey: z.string().min(1),
  tag: z.string().min(1),
});

/** One entry of Google's keys.json (the trusted root signing keys). */
export const RootSigningKey = z.object({
  keyValue: z.string().min(1),
  protocolVersion: z.string(),
  keyExpiration: z.string().regex(/^\d+$/).optional(),
});
export type RootSigningKey = z.infer<typeof RootSigningKey>;
export const RootSigningKeys = z.object({ keys: z.array(RootSigningKey) });

/** The decrypted message of a CARD payment method. A CRYPTOGRAM_3DS card is its cryptogram: without one, the message is malformed. */
export const CardDetails = z
  .object({
    pan: z.string().regex(/^\d{12,19}$/),
    expirationMonth: z.number().int().min(1).max(12),
    expirationYear: z.number().int().min(2000).max(9999),
    authMethod: z.enum(['PAN_ONLY', 'CRYPTOGRAM_3DS']),
    cryptogram: z.string().optional(),
    eciIndicator: z.string().optional(),
  })
  .refine((card) => card.authMethod !== 'CRYPTOGRAM_3DS' || !!card.cryptogram, { path: ['cryptogram'], message: 'a CRYPTOGRAM_3DS card carries a cryptogram' });
export type CardDetails = z.infer<typeof CardDetails>;

export const DecryptedMessage = z.object({
  gatewayMerchantId: z.string().optional(),
  messageExpiration: z.string().regex(/^\d+$/),
  messageId: z.string().min(1),
  paymentMethod: z.literal('CARD'),
  paymentMethodDetails: CardDetails,
});
export type DecryptedMessage = z.infer<typeof DecryptedMessage>;
