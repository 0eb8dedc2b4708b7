/**
 * Wallet Checkout's QA kit: Playwright's `test` and `expect`, with a
 * `walletCheckout` fixture that drives the embedded widget through the sandbox
 * wallet and the sandbox 3-D Secure challenge, so a merchant's suite can pay
 * with test cards and never reach Google or a bank.
 *
 * Built into the package `@wallet-checkout/qa-kit` (scripts/build-qa-kit.ts): its
 * code needs `@playwright/test` and nothing else, and its declarations spell out
 * the widget's states, so a merchant installs it with no file of this repository.
 *
 *   import { expect, test } from '@wallet-checkout/qa-kit';
 *   test('pays', async ({ page, walletCheckout }) => {
 *     await walletCheckout.install(page, { checkoutOrigin: 'https://checkout.staging.example' });
 *     await page.goto('https://shop.staging.example/cart');
 *     await walletCheckout.pay(page, { card: 'visa-success-3ds' });
 *     await walletCheckout.expectOutcome(page, 'paid');
 *   });
 */
import {
  type FrameLocator,
  type Locator,
  type Page,
  type PlaywrightTestArgs,
  type PlaywrightTestOptions,
  type PlaywrightWorkerArgs,
  type PlaywrightWorkerOptions,
  type TestType,
  test as base,
  expect,
} from '@playwright/test';
import type { WalletCardId } from '../../../sandbox/test-cards';
import type { WalletCardOutcome } from '../../../sandbox/test-cards';
import type { CheckoutState as WidgetCheckoutState } from '../../../web/checkout/types';

export { expect };

/**
 * What the widget shows, as its `data-checkout-state` attribute: the widget's own
 * `CheckoutState` (the keys of its state table), which the build spells out in
 * the package's declarations.
 */
export type CheckoutState = WidgetCheckoutState;

/** How the shopper answers the bank's 3-D Secure challenge. */
export type ChallengeAnswer = 'complete' | 'fail' | 'cancel';

/**
 * A sandbox wallet card id (`visa-success-3ds`, `mastercard-success-pan`, ...): the sandbox's own
 * card table, which the build spells out in the package's declarations, so a typo does not compile.
 */
export type TestCardId = WalletCardId;

/**
 * What a payment with a test card ends in (`success`, `card_declined`, `fraudulent`, ...): the
 * `failure_code` the merchant reads, from the sandbox's own card table, which the build spells out
 * in the package's declarations, so an outcome no card has does not compile.
 */
export type TestCardOutcome = WalletCardOutcome;

const PAY_JS = 'https://pay.google.com/gp/p/js/pay.js';

/** The test card to pay with, and the sandbox wallet's billing address to give with it (docs/test-cards.md). */
export interface PayOptions {
  card: TestCardId;
  billingAddress?: 'matching' | 'mismatching' | 'no-postal-code';
  /**
   * Express checkout: the fictional shipping address to pick in the sheet, by its id
   * (docs/test-cards.md#shipping-addresses: `us-home`, `gb-office`, ...; the first the session allows by default).
   */
  shippingAddress?: string;
  /** Express checkout: the delivery option to pick, by the id the session gave it. */
  shippingOption?: string;
  /** Express checkout: a promotion code to enter and apply in the sheet. */
  promotionCode?: string;
}

/** Where the widget is: the page, or the frame that embeds it. */
export type Scope = Page | FrameLocator;

/** `widget`: which widget, when a page has several (a locator of its `[data-wallet-checkout]` element). */
export interface WidgetOption {
  widget?: Locator;
}

export interface WalletCheckoutKit {
  /**
   * Before the page loads: serves Google's pay.js with the sandbox wallet of
   * `checkoutOrigin` (for apps in the TEST or PRODUCTION wallet environment;
   * SANDBOX apps load it themselves), sends the wallet's calls to that host,
   * and refuses every other request to Google.
   */
  install(page: Page, options: { checkoutOrigin: string }): Promise<void>;
  /**
   * Pays with a test card (docs/test-cards.md) once the widget is ready, and `billingAddress`, one of the
   * sandbox wallet's billing addresses (`matching`, `mismatching`, `no-postal-code`; the first by default).
   * A decline is shown in the wallet's sheet, which stays open: `payAgain` pays there with another card.
   */
  pay(scope: Scope, options: PayOptions & WidgetOption): Promise<void>;
  /** In the sheet left open by a decline, pays with another test card. */
  payAgain(scope: Scope, options: PayOptions): Promise<void>;
  /** Closes the wallet sheet without paying: the open one (left open by a decline), or else opens it first. */
  cancel(scope: Scope, options?: WidgetOption): Promise<void>;
  /**
   * Answers the 3-D Secure challenge a PAN_ONLY card such as
   * `visa-3ds-required-pan` leads to: `complete` (the payment goes on, usually
   * to `paid`), `fail` or `cancel` (the widget shows `declined`). Waits for the
   * dialog to open, and to close once answered.
   */
  challenge(scope: Scope, answer: ChallengeAnswer, options?: WidgetOption): Promise<void>;
  /**
   * After a decline: closes the sheet if the decline left it open (its Cancel, as a shopper would), then
   * presses the widget's "Try again", leaving the widget ready for another card.
   */
  tryAgain(scope: Scope, options?: WidgetOption): Promise<void>;
  /** Waits until the widget shows `state` (paid, declined, error, ...). */
  expectOutcome(scope: Scope, state: CheckoutState, options?: WidgetOption): Promise<void>;
  /**
   * Iframe mode (`data-mode="iframe"`): the checkout frame on `page`, the scope
   * to give every other function. `index`: which, when the page has several.
   */
  frame(page: Page, index?: number): FrameLocator;
}

const widgetIn = (scope: Scope, widget?: Locator) => widget ?? scope.locator('[data-wallet-checkout]');
const stateOf = (scope: Scope, widget?: Locator) => widgetIn(scope, widget).locator('[data-checkout-state]');

const sheetIn = (scope: Scope) => scope.locator('[data-testid=sandbox-wallet]');

async function openSheet(scope: Scope, widget?: Locator): Promise<Locator> {
  await expect(stateOf(scope, widget)).toHaveAttribute('data-checkout-state', 'ready');
  await widgetIn(scope, widget).locator('[data-wallet-button] button').click();
  const sheet = sheetIn(scope);
  await expect(sheet).toBeVisible();
  return sheet;
}

/** Closes the sheet with its own Cancel, as a shopper would; the decline left it open over the widget. */
async function closeSheet(sheet: Locator): Promise<void> {
  await sheet.getByTestId('sandbox-cancel').click();
  await expect(sheet).toBeHidden();
}

const challengeButtons: Record<Exclude<ChallengeAnswer, 'cancel'>, string> = { complete: 'Complete authentication', fail: 'Fail authentication' };

/** Pays in the open sheet; done when the sheet closes, or shows the decline the widget sent back into it. */
async function payInSheet(sheet: Locator, { card, billingAddress, shippingAddress, shippingOption, promotionCode }: PayOptions): Promise<void> {
  await sheet.locator(`input[name=sandbox-card][value="${card}"]`).check();
  if (billingAddress) await sheet.locator(`input[name=sandbox-billing-address][value="${billingAddress}"]`).check();
  // Each change asks the merchant for a new price: Pay stays disabled until the answer is in, and the click waits for it.
  if (shippingAddress) await sheet.locator(`input[name=sandbox-shipping-address][value="${shippingAddress}"]`).check();
  if (shippingOption) await sheet.locator(`input[name=sandbox-shipping-option][value="${shippingOption}"]`).check();
  if (promotionCode) {
    await sheet.getByTestId('sandbox-offer-code').fill(promotionCode);
    await sheet.getByTestId('sandbox-offer-apply').click();
  }
  await sheet.locator('[data-testid=sandbox-pay]').click();
  // Neither call waits for an element, so a sheet closing between them cannot stall the poll.
  await expect.poll(async () => (await sheet.getByRole('alert').allTextContents()).join('') !== '' || (await sheet.count()) === 0).toBe(true);
}

const kit: WalletCheckoutKit = {
  async install(page, { checkoutOrigin }) {
    const origin = checkoutOrigin.replace(/\/+$/, '');
    // Registered first, so tried last: whatever else is bound for Google is refused.
    await page.route(/^https:\/\/([\w-]+\.)*(google|gstatic|googleapis)\.com\//, (route) => route.abort('blockedbyclient'));
    await page.route(PAY_JS, async (route) => route.fulfill({ response: await route.fetch({ url: `${origin}/sandbox/wallet.js` }) }));
    // The sandbox wallet calls the origin it was loaded from: here pay.js's, so send those calls to the checkout host.
    await page.route('https://pay.google.com/sandbox/wallet/**', async (route) => {
      route.fulfill({ response: await route.fetch({ url: origin + new URL(route.request().url()).pathname }) });
    });
  },
  async pay(scope, { widget, ...options }) {
    await payInSheet(await openSheet(scope, widget), options);
  },
  async payAgain(scope, options) {
    await payInSheet(scope.locator('[data-testid=sandbox-wallet]'), options);
  },
  async cancel(scope, { widget } = {}) {
    const open = sheetIn(scope);
    await closeSheet((await open.isVisible()) ? open : await openSheet(scope, widget));
  },
  async challenge(scope, answer, { widget } = {}) {
    await expect(stateOf(scope, widget)).toHaveAttribute('data-checkout-state', 'authenticating');
    const dialog = widgetIn(scope, widget).locator('[data-testid=challenge]');
    await expect(dialog).toBeVisible();
    if (answer === 'cancel') {
      await dialog.locator('[data-testid=challenge-cancel]').click();
    } else {
      await dialog.locator('[data-testid=challenge-frame]').contentFrame().getByRole('button', { name: challengeButtons[answer] }).click();
    }
    await expect(dialog).toBeHidden();
  },
  async tryAgain(scope, { widget } = {}) {
    await expect(stateOf(scope, widget)).toHaveAttribute('data-checkout-state', 'declined');
    const sheet = sheetIn(scope);
    if (await sheet.isVisible()) await closeSheet(sheet);
    await widgetIn(scope, widget).locator('[data-testid=retry]').click();
    await expect(stateOf(scope, widget)).toHaveAttribute('data-checkout-state', 'ready');
  },
  async expectOutcome(scope, state, { widget } = {}) {
    await expect(stateOf(scope, widget)).toHaveAttribute('data-checkout-state', state);
  },
  frame(page, index = 0) {
    return page.locator('iframe[data-wallet-checkout-frame]').nth(index).contentFrame();
  },
};

/** Playwright's `test` with the `walletCheckout` fixture; typed by hand, so the declarations name only `@playwright/test`. */
export const test: TestType<PlaywrightTestArgs & PlaywrightTestOptions & { walletCheckout: WalletCheckoutKit }, PlaywrightWorkerArgs & PlaywrightWorkerOptions> = base.extend<{
  walletCheckout: WalletCheckoutKit;
}>({
  // Playwright requires a fixture's first argument to be a destructuring pattern.
  walletCheckout: async ({}, use) => use(kit),
});
