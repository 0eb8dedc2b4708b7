/**
 * Everything a wallet payment carried that no log line or stored file may
 * contain: the token's fields, and, sealed inside it, the card number and the
 * cryptogram. The test opens the token with the recipient's key, which the test
 * server holds, because a cryptogram exists nowhere else to look for.
 */
import { join } from 'node:path';
import { getApp } from '../../server/apps';
import { EcV2Token, SignedMessage } from '../../contracts';
import { loadOrCreateKeys } from '../../sandbox/keys';
import { openToken } from '../../common/ecv2';
import type { TestServer } from '../../testing/harness';
import type { WalletPayment } from './checkout-page';

export interface PaymentSecrets {
  /** Values of the encrypted token: signature, signed key, signedMessage and what it holds. */
  tokenValues: string[];
  pan: string;
  cryptogram: string | undefined;
}

/** The private key the wallet sealed to: the sandbox gateway's, or the direct-mode app's own. */
async function recipientOf(server: TestServer, payment: WalletPayment, appId: string) {
  const method = payment.request.allowedPaymentMethods[0];
  if (!method) throw new Error('the payment request has no payment method');
  const spec = method.tokenizationSpecification;
  if (spec.type === 'PAYMENT_GATEWAY') {
    // Where the embedded sandbox keeps its keys (sandbox/index.ts); it exists once the server has started.
    const keys = loadOrCreateKeys(join(server.dataDir, 'sandbox', 'keys.json'));
    return { recipientId: `gateway:${spec.parameters.gateway}`, privateKeys: [keys.gatewayPrivateKey] };
  }
  const app = await getApp(server.store, appId);
  const privateKeys = app && (await server.directKeys.openingKeysFor(app));
  if (!privateKeys?.ok) throw new Error(`direct-mode app ${appId} has no registered key`);
  return { recipientId: `merchant:${payment.request.merchantInfo.merchantId}`, privateKeys: privateKeys.value };
}

export async function paymentSecrets(server: TestServer, payment: WalletPayment, appId: string): Promise<PaymentSecrets> {
  const token = EcV2Token.parse(JSON.parse(payment.paymentData.paymentMethodData.tokenizationData.token));
  const sealed = SignedMessage.parse(JSON.parse(token.signedMessage));
  const opened = openToken(token, { ...(await recipientOf(server, payment, appId)), rootKeys: server.sandbox?.rootKeys ?? [] });
  if (!opened.ok) throw new Error(`the test could not open its own token: ${opened.error.code}`);
  const card = opened.value.paymentMethodDetails;
  return {
    tokenValues: [token.signature, token.intermediateSigningKey.signedKey, ...token.intermediateSigningKey.signatures, token.signedMessage, sealed.encryptedMessage, sealed.ephemeralPublicKey, sealed.tag],
    pan: card.pan,
    cryptogram: card.cryptogram,
  };
}

/** A card number as it might be written: plain, grouped with spaces or dashes, base64 or hex of its digits. */
export function panPatterns(pan: string): RegExp[] {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return [
    new RegExp(pan.split('').join('[ -]?')),
    new RegExp(escape(Buffer.from(pan).toString('base64').replace(/=+$/, ''))),
    new RegExp(Buffer.from(pan).toString('hex'), 'i'),
  ];
}
