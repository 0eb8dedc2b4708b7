/**
 * The two integration modes of the charge API, side by side, through the same
 * browser flow: gateway mode forwards the wallet's token (`walletpay`); a PCI
 * Level 1 app in direct mode has the backend decrypt it and send a
 * `network_token`, with the card's auth method carried through. Then a
 * direct-mode app's key rotation, as a shopper lives through it.
 */
import type { DecryptionMode } from '../contracts';
import type { PaymentDataRequest } from '../contracts';
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

/** The key a Google Pay request asks the wallet to encrypt to. */
const directKeyOf = (request: PaymentDataRequest) => {
  const spec = request.allowedPaymentMethods[0]?.tokenizationSpecification;
  return spec?.type === 'DIRECT' ? spec.parameters.publicKey : undefined;
};

test('direct mode: a key rotation never stops a shopper paying, and the retired key leaves the requests', async ({ shop, ledger, server }) => {
  // The app starts with one registered key, as `npm run direct-keys -- create` then `register` leave it.
  const first = await shop.open({ app: { decryption_mode: 'direct', google_merchant_id: GOOGLE_MERCHANT_ID } });
  const [oldKey] = await server.directKeys.list(first.app.appId);
  const paid = await first.checkout.payWith('visa-success-3ds');
  expect(directKeyOf(paid.request)).toBe(oldKey?.publicKey);
  await first.checkout.expectState('paid');

  // A shopper opens the checkout while the app still publishes the old key...
  const loadedBefore = await shop.openAgain(first.app);
  // ...the operator rotates: a new key, registered with Google, then registered here...
  const newKey = await server.directKeys.create(first.app.appId);
  expect(await server.directKeys.register(first.app.appId, newKey.id)).toMatchObject({ ok: true });
  // ...and the token the wallet seals to the old key still pays.
  const sealedToOld = await loadedBefore.checkout.payWith('mastercard-success-3ds');
  expect(directKeyOf(sealedToOld.request)).toBe(oldKey?.publicKey);
  await loadedBefore.checkout.expectState('paid');

  // Once tokens sealed to it can no longer arrive, the old key is retired: requests carry only the new one.
  expect(await server.directKeys.retire(first.app.appId, oldKey!.id)).toMatchObject({ ok: true });
  const after = await shop.openAgain(first.app);
  const sealedToNew = await after.checkout.payWith('visa-success-pan');
  expect(directKeyOf(sealedToNew.request)).toBe(newKey.publicKey);
  await after.checkout.expectState('paid');

  const charges = (await ledger.newEntries()).map((entry) => entry.charge);
  expect(charges).toHaveLength(3);
  expect(charges.every((charge) => charge.source_type === 'network_token' && charge.status === 'succeeded')).toBe(true);
});
