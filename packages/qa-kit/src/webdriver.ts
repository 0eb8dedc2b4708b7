/**
 * Wallet Checkout's QA kit for WebDriver runners (`@wallet-checkout/qa-kit/webdriver`): the same
 * calls as the Playwright fixture (steps.ts, over the widget as widget.ts describes it), on a
 * selenium-webdriver `WebDriver` (Chrome or Chromium through chromedriver, or any W3C driver that
 * reaches into open shadow roots). Its code needs `selenium-webdriver` and nothing else.
 *
 * WebDriver cannot answer a page's requests as Playwright's `install` does: the apps it tests are
 * in the SANDBOX wallet environment, whose widget loads the sandbox wallet itself.
 *
 *   import { walletCheckout } from '@wallet-checkout/qa-kit/webdriver';
 *   await driver.get('https://shop.staging.example/cart');
 *   await walletCheckout.pay(driver, { card: 'visa-success-3ds' });
 *   await walletCheckout.expectOutcome(driver, 'paid');
 */
import { By, type WebDriver, type WebElement, error } from 'selenium-webdriver';
import { type Place, type Runner, type Steps, type WidgetOption as WidgetChoice, steps } from './steps';
import { type Part, SHEET, STEP_TIMEOUT_MS, WIDGET } from './widget';

export type { CheckoutState, ChallengeAnswer, PayOptions, TestCardId, TestCardOutcome } from './widget';

/** The calls of the Playwright fixture but `install` and `simulateOutage` (they answer the page's requests), on a driver; `widget` is a `[data-wallet-checkout]` element. */
export interface WalletCheckoutDriverKit extends Steps<WebDriver, WebElement> {
  /**
   * Iframe mode (`data-mode="iframe"`): switches `driver` into the checkout frame (`index`: which,
   * when the page has several) and returns it, the scope for the calls inside that frame;
   * `driver.switchTo().defaultContent()` returns to the page.
   */
  frame(driver: WebDriver, index?: number): Promise<WebDriver>;
}

/** `widget`: which widget, when a page has several (its `[data-wallet-checkout]` element). */
export type WidgetOption = WidgetChoice<WebElement>;

export interface DriverKitOptions {
  /** How long one step may wait, in milliseconds (for the widget's state, an element, the sheet's answer): 10 000 by default. */
  timeout?: number;
}

/** What a re-rendering page answers while it changes: worth asking again, not a failure. */
const TRANSIENT = new Set(['StaleElementReferenceError', 'NoSuchElementError', 'NoSuchShadowRootError', 'DetachedShadowRootError', 'ElementNotInteractableError', 'ElementClickInterceptedError']);
const transient = (thrown: unknown) => thrown instanceof error.WebDriverError && TRANSIENT.has(thrown.name);

type DriverPlace = Place<WebDriver, WebElement>;

async function shadowRoots(hosts: WebElement[]) {
  return Promise.all(hosts.map((host) => host.getShadowRoot()));
}

/** The elements `part` matches now: in the widget's shadow root, or in the sandbox wallet sheet's (WebDriver's CSS does not pierce). */
async function find({ scope, widget }: DriverPlace, part: Part): Promise<WebElement[]> {
  const hosts = part.of === 'widget' && widget ? [widget] : await scope.findElements(By.css(part.of === 'widget' ? WIDGET.host : SHEET.host));
  return (await Promise.all((await shadowRoots(hosts)).map((root) => root.findElements(By.css(part.css))))).flat();
}

async function firstShown(elements: WebElement[], enabled = false): Promise<WebElement | undefined> {
  for (const element of elements) if ((await element.isDisplayed()) && (!enabled || (await element.isEnabled()))) return element;
  return undefined;
}

export function createWalletCheckout({ timeout = STEP_TIMEOUT_MS }: DriverKitOptions = {}): WalletCheckoutDriverKit {
  /**
   * Asks `attempt` again, through the page's re-renders, until it answers; fails after `timeout`
   * saying what it waited for, and what it last saw (`seen`).
   */
  const until = async (driver: WebDriver, what: string, attempt: () => Promise<unknown>, seen?: () => string): Promise<void> => {
    const answered = async () => {
      try {
        return Boolean(await attempt());
      } catch (thrown) {
        if (transient(thrown)) return false;
        throw thrown;
      }
    };
    await driver.wait(answered, timeout).catch((thrown: unknown) => {
      if (!(thrown instanceof error.TimeoutError)) throw thrown;
      throw new Error(`Wallet Checkout QA kit: waited ${timeout} ms for ${what}${seen ? `; ${seen()}` : ''}`);
    });
  };
  const describe = (part: Part) => `${part.css} (in the ${part.of === 'widget' ? 'widget' : 'sandbox wallet sheet'})`;

  const webdriver: Runner<WebDriver, WebElement> = {
    async expectState(place, state) {
      let shown: (string | null)[] = [];
      await until(
        place.scope,
        `the widget to show ${state}`,
        async () => {
          shown = await Promise.all((await find(place, WIDGET.state)).map((element) => element.getAttribute(WIDGET.stateAttribute)));
          return shown.includes(state);
        },
        () => `it shows ${shown.join(', ') || 'no state'}`,
      );
    },
    click: (place, part) =>
      until(place.scope, `${describe(part)} to be shown and enabled, and clicked`, async () => {
        const element = await firstShown(await find(place, part), true);
        await element?.click();
        return element;
      }),
    check: (place, part) =>
      until(place.scope, `${describe(part)} to be checked`, async () => {
        const element = await firstShown(await find(place, part), true);
        if (element && !(await element.isSelected())) await element.click();
        return element?.isSelected();
      }),
    fill: (place, part, text) =>
      until(place.scope, `${describe(part)} to be filled`, async () => {
        const element = await firstShown(await find(place, part), true);
        await element?.clear();
        await element?.sendKeys(text);
        return element;
      }),
    async isVisible(place, part) {
      return (await firstShown(await find(place, part)).catch((thrown) => (transient(thrown) ? undefined : Promise.reject(thrown)))) !== undefined;
    },
    expectVisible: (place, part, visible) =>
      until(place.scope, `${describe(part)} to be ${visible ? 'shown' : 'hidden'}`, async () => ((await firstShown(await find(place, part))) !== undefined) === visible),
    async textsOf(place, part) {
      return Promise.all((await find(place, part)).map((element) => element.getProperty('textContent').then(String)));
    },
    until: (place, condition, what) => until(place.scope, what, condition),
    clickInFrame: (place, frame, name) =>
      until(place.scope, `the button "${name}" in ${describe(frame)}`, async () => {
        const element = await firstShown(await find(place, frame));
        if (!element) return false;
        await place.scope.switchTo().frame(element);
        try {
          const button = await firstShown(await place.scope.findElements(By.xpath(`//button[normalize-space(.)=${JSON.stringify(name)}]`)), true);
          await button?.click();
          return button;
        } finally {
          await place.scope.switchTo().parentFrame();
        }
      }),
  };
  return {
    ...steps(webdriver),
    async frame(driver, index = 0) {
      await until(driver, `checkout frame ${index} (${WIDGET.frame})`, async () => {
        const frame = (await driver.findElements(By.css(WIDGET.frame)))[index];
        if (frame) await driver.switchTo().frame(frame);
        return frame;
      });
      return driver;
    },
  };
}

/** The kit with its default timeout (10 s a step); `createWalletCheckout({ timeout })` for another. */
export const walletCheckout: WalletCheckoutDriverKit = createWalletCheckout();
export * from './test-clock';
