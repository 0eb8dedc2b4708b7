/**
 * Turns the wallet's token into the charge's `source_data`, by the app's
 * integration mode (the charge API's document): forwarded as is (`walletpay`), or decrypted here by
 * a PCI Level 1 merchant and sent as a `network_token`.
 */
import type { KeyObject } from 'node:crypto';
import type { App } from '../apps';
import { EcV2Token, type NetworkToken, type RootSigningKey } from '../../contracts';
import { describeIssues } from '../../common/http/errors';
import { type Failure, type Result, err, ok } from '../../common/result';
import { openToken } from '../../common/ecv2';
import type { ChargeSource } from './build-charge';

/** What direct mode decrypts with (the merchant's Google Pay private keys and Google's root keys), and its memory of opened tokens. */
export interface DirectDecryption {
  /** The app's keys that open tokens; a coded failure when it has none registered. */
  openingKeysFor(app: App): Promise<Result<readonly KeyObject[], Failure>>;
  /** The root keys of the app's wallet environment. */
  rootKeys(app: App): Promise<Result<readonly RootSigningKey[], Failure>>;
  /** Remembers an opened token's message id until `expiresAt`; false when it was already used. */
  firstUse(messageId: string, expiresAt: number): Promise<boolean>;
}

export function parseWalletToken(tokenJson: string): Result<EcV2Token, Failure> {
  let raw: unknown;
  try {
    raw = JSON.parse(tokenJson);
  } catch {
    return err({ code: 'invalid_payment_token', message: 'tokenizationData.token is not JSON' });
  }
  const token = EcV2Token.safeParse(raw);
  if (!token.success) return err({ code: 'invalid_payment_token', message: `tokenizationData.token is not an ECv2 token (${describeIssues(token.error)})` });
  if (token.data.protocolVersion !== 'ECv2') return err({ code: 'invalid_payment_token', message: 'tokenizationData.token: only protocolVersion ECv2 is supported' });
  return ok(token.data);
}

export async function chargeSourceFor(app: App, token: EcV2Token, direct: DirectDecryption): Promise<Result<ChargeSource, Failure>> {
  if (app.decryptionMode === 'gateway') return ok({ type: 'walletpay', walletpay: token });
  const [privateKeys, rootKeys] = await Promise.all([direct.openingKeysFor(app), direct.rootKeys(app)]);
  if (!privateKeys.ok) return privateKeys;
  if (!rootKeys.ok) return rootKeys;
  if (!app.googleMerchantId) return err({ code: 'direct_mode_unavailable', message: 'This application decrypts tokens itself but has no Google merchant id (docs/go-live.md)' });
  const opened = openToken(token, { recipientId: `merchant:${app.googleMerchantId}`, privateKeys: privateKeys.value, rootKeys: rootKeys.value });
  if (!opened.ok) return err({ code: 'invalid_payment_token', message: `The wallet token could not be opened (${opened.error.code})` });
  // Google's tokens are single use: one seen before (by any instance) is a replay, refused before anything is charged.
  if (!(await direct.firstUse(opened.value.messageId, Number(opened.value.messageExpiration)))) {
    return err({ code: 'replayed_token', message: 'This wallet token has already been used; pay again to get a new one' });
  }
  const card = opened.value.paymentMethodDetails;
  // A PAN_ONLY token carries the card's own number and no cryptogram: it is
  // sent without three_ds, and the service decides whether 3-D Secure is needed.
  // A CRYPTOGRAM_3DS token's eciIndicator is optional (docs/direct-mode.md):
  // without one, three_ds carries no eci rather than an invented or empty one.
  const networkToken: NetworkToken = {
    token: card.pan,
    token_type: 'walletpay',
    expiry_month: String(card.expirationMonth).padStart(2, '0'),
    expiry_year: String(card.expirationYear),
    ...(card.cryptogram && { three_ds: { ...(card.eciIndicator && { eci: card.eciIndicator }), cryptogram: card.cryptogram } }),
  };
  return ok({ type: 'network_token', network_token: networkToken });
}
