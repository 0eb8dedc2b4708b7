/**
 * The Wallet Checkout widget as a test runner sees it, written once for every runner the kit
 * adapts (Playwright: index.ts, WebDriver: webdriver.ts): the widget's and the sandbox wallet
 * sheet's selectors, the widget's states, the 3-D Secure challenge's buttons, the test card ids,
 * and how long a step may take. No runner's API here: only what the page is.
 */
import type { WalletCardId, WalletCardOutcome } from '../../../sandbox/test-cards';
import type { CheckoutState as WidgetCheckoutState } from '../../../web/checkout/types';

/**
 * What the widget shows, as its `data-checkout-state` attribute: the widget's own
 * `CheckoutState` (the keys of its state table), which the build spells out in
 * the package's declarations.
 */
export type CheckoutState = WidgetCheckoutState;

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

/** How the shopper answers the bank's 3-D Secure challenge. */
export type ChallengeAnswer = 'complete' | 'fail' | 'cancel';

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

/** An element of the page: inside the widget's shadow root, or inside the sandbox wallet sheet's. */
export interface Part {
  of: 'widget' | 'sheet';
  css: string;
}

const inWidget = (css: string): Part => ({ of: 'widget', css });
const inSheet = (css: string): Part => ({ of: 'sheet', css });
const radio = (name: string, value: string) => inSheet(`input[name=${name}][value="${value}"]`);

/** The widget: its element (`[data-wallet-checkout]`, with an open shadow root) and what is inside it. */
export const WIDGET = {
  host: '[data-wallet-checkout]',
  stateAttribute: 'data-checkout-state',
  state: inWidget('[data-checkout-state]'),
  /** The widget while it shows `state`. */
  inState: (state: CheckoutState) => inWidget(`[data-checkout-state=${state}]`),
  walletButton: inWidget('[data-wallet-button] button'),
  retry: inWidget('[data-testid=retry]'),
  /** In iframe mode (`data-mode="iframe"`), the page's checkout frames; the widget is inside. */
  frame: 'iframe[data-wallet-checkout-frame]',
} as const;

/** The 3-D Secure challenge: a dialog in the widget, the bank's page in its frame. */
export const CHALLENGE = {
  dialog: inWidget('[data-testid=challenge]'),
  cancel: inWidget('[data-testid=challenge-cancel]'),
  frame: inWidget('[data-testid=challenge-frame]'),
  /** The bank page's buttons, by their accessible names. */
  buttons: { complete: 'Complete authentication', fail: 'Fail authentication' } satisfies Record<Exclude<ChallengeAnswer, 'cancel'>, string>,
} as const;

/** The sandbox wallet's sheet (in place of Google's): an element of the page's body with an open shadow root. */
export const SHEET = {
  host: '[data-sandbox-wallet-host]',
  sheet: inSheet('[data-testid=sandbox-wallet]'),
  card: (card: TestCardId) => radio('sandbox-card', card),
  billingAddress: (id: NonNullable<PayOptions['billingAddress']>) => radio('sandbox-billing-address', id),
  shippingAddress: (id: string) => radio('sandbox-shipping-address', id),
  shippingOption: (id: string) => radio('sandbox-shipping-option', id),
  offerCode: inSheet('[data-testid=sandbox-offer-code]'),
  offerApply: inSheet('[data-testid=sandbox-offer-apply]'),
  pay: inSheet('[data-testid=sandbox-pay]'),
  cancel: inSheet('[data-testid=sandbox-cancel]'),
  /** Where the sheet tells a decline (and an express choice's refusal). */
  alert: inSheet('[data-testid=sandbox-wallet] [role=alert]'),
} as const;

/**
 * How long a runner without timeouts of its own waits for one step (WebDriver): as long as the
 * README's Playwright config lets an expectation wait, long enough for a priced express choice or
 * the sandbox's 3-D Secure round trip. Playwright's adapter keeps the project's own timeouts.
 */
export const STEP_TIMEOUT_MS = 10_000;
