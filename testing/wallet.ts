/** Shared set-up for the wallet tests: a root, an intermediate and a recipient, all freshly generated. */
import type { KeyObject } from 'node:crypto';
import type { DecryptedMessage, RootSigningKey } from '../contracts/ecv2';
import { createIntermediateSigningKey } from '../common/ecv2/ecv2';
import type { IntermediateSigningKey, OpenOptions } from '../common/ecv2/ecv2';
import { generateRecipientKeyPair, generateSigningKey, rootKeyEntry } from '../common/ecv2/keys';
import type { SigningKey } from '../common/ecv2/keys';

export const NOW = Date.UTC(2026, 0, 1);
export const HOUR = 3_600_000;
export const RECIPIENT_ID = 'gateway:walletcheckout';
export const TEST_PAN = '4111111111111111';

export interface World {
  root: SigningKey;
  rootKeys: RootSigningKey[];
  intermediate: IntermediateSigningKey;
  recipient: { privateKey: KeyObject; publicKey: KeyObject };
  options: OpenOptions;
}

export function makeWorld(): World {
  const root = generateSigningKey();
  const rootKeys = [rootKeyEntry(root, NOW + 365 * 24 * HOUR)];
  const intermediate = createIntermediateSigningKey(root.privateKey, NOW + 24 * HOUR);
  const recipient = generateRecipientKeyPair();
  return {
    root,
    rootKeys,
    intermediate,
    recipient,
    options: { recipientId: RECIPIENT_ID, privateKeys: [recipient.privateKey], rootKeys, now: () => NOW },
  };
}

export function sampleMessage(overrides: Partial<DecryptedMessage> = {}): DecryptedMessage {
  return {
    gatewayMerchantId: 'merchant-1',
    messageExpiration: String(NOW + HOUR),
    messageId: 'msg-1',
    paymentMethod: 'CARD',
    paymentMethodDetails: { pan: TEST_PAN, expirationMonth: 12, expirationYear: 2030, authMethod: 'PAN_ONLY' },
    ...overrides,
  };
}
