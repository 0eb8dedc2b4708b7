/**
 * Wallet Checkout's QA kit: Playwright's `test` and `expect`, with a
 * `walletCheckout` fixture that drives the embedded widget through the sandbox
 * wallet and the sandbox 3-D Secure challenge, so a merchant's suite can pay
 * with test cards and never reach Google or a bank.
 *
 * Built into the package `@wallet-checkout/qa-kit` (scripts/build-qa-kit.ts): its
 * code needs `@playwright/test` and nothing else, and its declarations spell out
 * the widget's states, so a merchant installs it with no file of this repository.
 * The calls themselves are steps.ts's, over the widget as widget.ts describes it;
 * this file is Playwright's adapter (the WebDriver one is webdriver.ts).
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
  type Route,
  type TestType,
  test as base,
  expect,
} from '@playwright/test';
import { type Place, type Runner, type Steps, type WidgetOption as WidgetChoice, steps } from './steps';
import { type Part, WIDGET } from './widget';

export { expect };
export type { CheckoutState, ChallengeAnswer, PayOptions, TestCardId, TestCardOutcome } from './widget';

const PAY_JS = 'https://pay.google.com/gp/p/js/pay.js';

/** Where the widget is: the page, or the frame that embeds it. */
export type Scope = Page | FrameLocator;

/** `widget`: which widget, when a page has several (a locator of its `[data-wallet-checkout]` element). */
export type WidgetOption = WidgetChoice<Locator>;

export interface WalletCheckoutKit extends Steps<Scope, Locator> {
  /**
   * Before the page loads: serves Google's pay.js with the sandbox wallet of
   * `checkoutOrigin` (for apps in the TEST or PRODUCTION wallet environment;
   * SANDBOX apps load it themselves), sends the wallet's calls to that host,
   * and refuses every other request to Google.
   */
  install(page: Page, options: { checkoutOrigin: string }): Promise<void>;
  /**
   * The checkout's outage, as the shopper meets it: from now on, `checkoutOrigin` answers the page's
   * payments `503 store_unavailable` (what it answers while its store is briefly down), so the widget
   * shows `error` with its outage message ("Checkout is briefly unavailable...") and nothing is
   * charged. `end()` lifts it; the widget's "Try again" (`tryAgain`) then pays.
   */
  simulateOutage(page: Page, options: { checkoutOrigin: string }): Promise<{ end(): Promise<void> }>;
  /**
   * Iframe mode (`data-mode="iframe"`): the checkout frame on `page`, the scope
   * to give every other function. `index`: which, when the page has several.
   */
  frame(page: Page, index?: number): FrameLocator;
}

const widgetIn = ({ scope, widget }: Place<Scope, Locator>) => widget ?? scope.locator(WIDGET.host);
/** Playwright's CSS pierces open shadow roots: the sheet's elements are found from the scope. */
const locate = (place: Place<Scope, Locator>, part: Part) => (part.of === 'widget' ? widgetIn(place) : place.scope).locator(part.css);

/** Each primitive waits as Playwright does: the project's action and `expect` timeouts. */
const playwright: Runner<Scope, Locator> = {
  expectState: (place, state) => expect(locate(place, WIDGET.state)).toHaveAttribute(WIDGET.stateAttribute, state),
  click: (place, part) => locate(place, part).click(),
  check: (place, part) => locate(place, part).check(),
  fill: (place, part, text) => locate(place, part).fill(text),
  isVisible: (place, part) => locate(place, part).isVisible(),
  expectVisible: (place, part, visible) => (visible ? expect(locate(place, part)).toBeVisible() : expect(locate(place, part)).toBeHidden()),
  textsOf: (place, part) => locate(place, part).allTextContents(),
  until: (_place, condition, what) => expect.poll(condition, { message: `waiting for ${what}` }).toBe(true),
  clickInFrame: (place, frame, name) => locate(place, frame).contentFrame().getByRole('button', { name }).click(),
};

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
  async simulateOutage(page, { checkoutOrigin }) {
    const payments = `${checkoutOrigin.replace(/\/+$/, '')}/api/sessions/*/pay`;
    // Answered as the host answers a page of an allowed origin (CORS), so a shop on another origin than the host's sees the outage, not a network error.
    const refuse = (route: Route) =>
      route.fulfill({
        status: 503,
        headers: { 'retry-after': '1', 'access-control-allow-origin': route.request().headers().origin ?? '*', vary: 'Origin' },
        json: { error: { code: 'store_unavailable', message: 'The store is briefly unavailable (simulated by the QA kit)' } },
      });
    await page.route(payments, refuse);
    return { end: () => page.unroute(payments, refuse) };
  },
  ...steps(playwright),
  frame(page, index = 0) {
    return page.locator(WIDGET.frame).nth(index).contentFrame();
  },
};

/** Playwright's `test` with the `walletCheckout` fixture; typed by hand, so the declarations name only `@playwright/test`. */
export const test: TestType<PlaywrightTestArgs & PlaywrightTestOptions & { walletCheckout: WalletCheckoutKit }, PlaywrightWorkerArgs & PlaywrightWorkerOptions> = base.extend<{
  walletCheckout: WalletCheckoutKit;
}>({
  // Playwright requires a fixture's first argument to be a destructuring pattern.
  walletCheckout: async ({}, use) => use(kit),
});
export * from './test-clock';
