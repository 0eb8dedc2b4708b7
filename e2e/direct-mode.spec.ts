/**
 * The two integration modes of the seed, side by side, through the same
 * browser flow: gateway mode forwards the wallet's token (`walletpay`); a PCI
 * Level 1 app in direct mode has the backend decrypt it and send a
 * `network_token`, with the card's auth method carried through.
 */
import type { DecryptionMode } from '../server/apps';
import { expect, test } from './support/fixtures';

const modes: readonly { mode: DecryptionMode; sourceType: 'walletpay' | 'network_token' }[] = [
  { mode: 'gateway', sourceType: 'walletpay' },
  { mode: 'direct', sourceType: 'network_token' },
];
/** The id Google's console would have issued the merchant: the wallet seals direct-mode tokens to `merchant:<it>`. */
const GOOGLE_MERCHANT_ID = 'BCR2DN4TE2EDIRCT';

/** One card of each auth method: a device token with a cryptogram, and a card on file. */
const cardIds = ['visa-success-3ds', 'mastercard-success-pan'] as const;

for (const { mode, sourceType } of modes) {
  for (const cardId of cardIds) {
    test(`${mode} mode: paying with ${cardId} makes a ${sourceType} charge`, async ({ shop, ledger, sandboxWallet }) => {
      const card = sandboxWallet.card(cardId);
      const { checkout, session } = await shop.open({ app: { decryption_mode: mode, google_merchant_id: GOOGLE_MERCHANT_ID } });

      const { request } = await checkout.payWith(card.id);
      // Direct mode asks the wallet to encrypt to the merchant's own key, for the merchant Google knows.
      expect(request.allowedPaymentMethods[0]?.tokenizationSpecification.type).toBe(mode === 'direct' ? 'DIRECT' : 'PAYMENT_GATEWAY');
      expect(request.merchantInfo.merchantId).toBe(GOOGLE_MERCHANT_ID);

      await checkout.expectState('paid');
      await expect(checkout.testId('card')).toHaveText(new RegExp(`${card.network}.*${card.last4}`, 'i'));
      const entries = await ledger.newEntries();
      expect(entries.map((entry) => entry.charge)).toEqual([
        expect.objectContaining({
          status: 'succeeded',
          source_type: sourceType,
          amount: session.amount,
          currency: session.currency.toLowerCase(),
          card: expect.objectContaining({ network: card.network, last4: card.last4, auth_method: card.auth_method }),
        }),
      ]);
      expect((await checkout.merchantView()).status).toBe('succeeded');
    });
  }
}
