/**
 * What a merchant's QA suite looks like with the kit: only the kit (`@wallet-checkout/qa-kit`),
 * `@playwright/test`, two URLs, and (to check what your server sees) the Node
 * library `@wallet-checkout/node` with your staging secret key. Point it at your
 * staging environment:
 *
 *   CHECKOUT_URL=https://checkout.staging.example SHOP_URL=https://shop.staging.example/cart \
 *   WALLET_CHECKOUT_SECRET_KEY=sk_test_... npx playwright test
 *
 * Without the URLs it runs against a local `npm start` of Wallet Checkout and its
 * demo store (http://127.0.0.1:3000/), whose every page view is a new order;
 * without the key it checks the page alone.
 */
import { WalletCheckout } from '@wallet-checkout/node';
import { expect, test } from '@wallet-checkout/qa-kit';

const checkoutUrl = process.env.CHECKOUT_URL ?? 'http://127.0.0.1:3000';
const shopUrl = process.env.SHOP_URL ?? `${checkoutUrl}/`;
/** The API as your server calls it: the page's word is never the payment's truth. */
const checkoutApi = process.env.WALLET_CHECKOUT_SECRET_KEY ? new WalletCheckout(process.env.WALLET_CHECKOUT_SECRET_KEY, { baseUrl: checkoutUrl }) : undefined;

test.beforeEach(async ({ page, walletCheckout }) => {
  await walletCheckout.install(page, { checkoutOrigin: checkoutUrl });
  await page.goto(shopUrl);
});

test('a shopper pays with a test card', async ({ page, walletCheckout }) => {
  await walletCheckout.pay(page, { card: 'visa-success-3ds' });
  await walletCheckout.expectOutcome(page, 'paid');
  await expect(page.getByTestId('card')).toContainText('Visa');
  if (checkoutApi) {
    // The demo store shows its order reference; find the order's session by it, as your server would.
    const reference = (await page.getByTestId('order-reference').textContent()) ?? '';
    const { data } = await checkoutApi.sessions.list({ reference });
    expect(data.map((session) => session.status)).toEqual(['succeeded']);
  }
});

test('a declined card is told in the wallet, where another card pays', async ({ page, walletCheckout }) => {
  await walletCheckout.pay(page, { card: 'visa-insufficient-funds-3ds' });
  await walletCheckout.expectOutcome(page, 'declined');
  await walletCheckout.payAgain(page, { card: 'mastercard-success-pan' });
  await walletCheckout.expectOutcome(page, 'paid');
});

test('a billing address other than the one on file still pays: the merchant reads the check on its server', async ({ page, walletCheckout }) => {
  await walletCheckout.pay(page, { card: 'visa-success-3ds', billingAddress: 'mismatching' });
  await walletCheckout.expectOutcome(page, 'paid');
});

test('a card on file that needs 3-D Secure pays once the shopper completes the challenge', async ({ page, walletCheckout }) => {
  await walletCheckout.pay(page, { card: 'visa-3ds-required-pan' });
  await walletCheckout.challenge(page, 'complete');
  await walletCheckout.expectOutcome(page, 'paid');
});

for (const answer of ['fail', 'cancel'] as const) {
  test(`a challenge the shopper answers with "${answer}" declines, and another card pays`, async ({ page, walletCheckout }) => {
    await walletCheckout.pay(page, { card: 'visa-3ds-required-pan' });
    await walletCheckout.challenge(page, answer);
    await walletCheckout.expectOutcome(page, 'declined');
    await walletCheckout.tryAgain(page);
    await walletCheckout.pay(page, { card: 'visa-success-3ds' });
    await walletCheckout.expectOutcome(page, 'paid');
  });
}

test('closing the wallet leaves the button ready', async ({ page, walletCheckout }) => {
  await walletCheckout.cancel(page);
  await walletCheckout.expectOutcome(page, 'ready');
});
