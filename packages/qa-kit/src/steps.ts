/**
 * What each call of the kit does, written once over a runner's few primitives (`Runner`): Playwright's
 * adapter (index.ts) and WebDriver's (webdriver.ts) supply the primitives, never steps of their own.
 */
import { CHALLENGE, type ChallengeAnswer, type CheckoutState, type Part, type PayOptions, SHEET, WIDGET } from './widget';

/** Where a call acts: the runner's scope (a page, a frame, a driver), and which widget when there are several. */
export interface Place<Scope, Widget> {
  scope: Scope;
  widget?: Widget | undefined;
}

/** What a runner does on the page; each waits as its runner waits (for the element, and for it to be enabled). */
export interface Runner<Scope, Widget> {
  /** Waits until the widget's `data-checkout-state` is `state`. */
  expectState(place: Place<Scope, Widget>, state: CheckoutState): Promise<void>;
  click(place: Place<Scope, Widget>, part: Part): Promise<void>;
  /** Checks a radio button. */
  check(place: Place<Scope, Widget>, part: Part): Promise<void>;
  fill(place: Place<Scope, Widget>, part: Part, text: string): Promise<void>;
  /** Whether `part` is shown now, without waiting. */
  isVisible(place: Place<Scope, Widget>, part: Part): Promise<boolean>;
  /** Waits until `part` is shown (`true`) or gone or hidden (`false`). */
  expectVisible(place: Place<Scope, Widget>, part: Part, visible: boolean): Promise<void>;
  /** The text of every element `part` matches now, without waiting (none: `[]`). */
  textsOf(place: Place<Scope, Widget>, part: Part): Promise<string[]>;
  /** Asks `condition` again until it is true. */
  until(place: Place<Scope, Widget>, condition: () => Promise<boolean>, what: string): Promise<void>;
  /** Clicks the button named `name` in the document of the frame `frame`. */
  clickInFrame(place: Place<Scope, Widget>, frame: Part, name: string): Promise<void>;
}

/** `widget`: which widget, when a page has several (its `[data-wallet-checkout]` element, in the runner's terms). */
export interface WidgetOption<Widget> {
  widget?: Widget;
}

/** The kit's calls that every runner has, in its own scope and widget types. */
export interface Steps<Scope, Widget> {
  /**
   * Pays with a test card (docs/test-cards.md) once the widget is ready, and `billingAddress`, one of the
   * sandbox wallet's billing addresses (`matching`, `mismatching`, `no-postal-code`; the first by default).
   * A decline is shown in the wallet's sheet, which stays open: `payAgain` pays there with another card.
   */
  pay(scope: Scope, options: PayOptions & WidgetOption<Widget>): Promise<void>;
  /** In the sheet left open by a decline, pays with another test card. */
  payAgain(scope: Scope, options: PayOptions): Promise<void>;
  /** Closes the wallet sheet without paying: the open one (left open by a decline), or else opens it first. */
  cancel(scope: Scope, options?: WidgetOption<Widget>): Promise<void>;
  /**
   * Answers the 3-D Secure challenge a PAN_ONLY card such as
   * `visa-3ds-required-pan` leads to: `complete` (the payment goes on, usually
   * to `paid`), `fail` or `cancel` (the widget shows `declined`). Waits for the
   * dialog to open, and to close once answered.
   */
  challenge(scope: Scope, answer: ChallengeAnswer, options?: WidgetOption<Widget>): Promise<void>;
  /**
   * After a decline or an error (the outage message): closes the sheet if a decline left it open (its
   * Cancel, as a shopper would), then presses the widget's "Try again", leaving the widget ready for another card.
   */
  tryAgain(scope: Scope, options?: WidgetOption<Widget>): Promise<void>;
  /**
   * Waits until the widget shows `state`: `paid`, `declined`, `error` (the outage message among others),
   * `expired` (a session whose time ran out, told when the shopper pays, or before if the widget checked it since), ...
   */
  expectOutcome(scope: Scope, state: CheckoutState, options?: WidgetOption<Widget>): Promise<void>;
}

export function steps<Scope, Widget>(runner: Runner<Scope, Widget>): Steps<Scope, Widget> {
  async function openSheet(place: Place<Scope, Widget>): Promise<void> {
    await runner.expectState(place, 'ready');
    await runner.click(place, WIDGET.walletButton);
    await runner.expectVisible(place, SHEET.sheet, true);
  }

  /**
   * Whether the session's time ran out before the shopper could click: the widget checks the view a page
   * carried against the backend once the page is idle, so a test clock moved past the expiry with the page
   * open may be told before the click as well as after it. Waits for the button or for that.
   */
  async function expiredBeforeClick(place: Place<Scope, Widget>): Promise<boolean> {
    const shows = (state: CheckoutState) => runner.isVisible(place, WIDGET.inState(state));
    await runner.until(place, async () => (await shows('ready')) || (await shows('expired')), 'the widget to show ready (or expired)');
    return shows('expired');
  }

  /** Closes the sheet with its own Cancel, as a shopper would; the decline left it open over the widget. */
  async function closeSheet(place: Place<Scope, Widget>): Promise<void> {
    await runner.click(place, SHEET.cancel);
    await runner.expectVisible(place, SHEET.sheet, false);
  }

  /** Pays in the open sheet; done when the sheet closes, or shows the decline the widget sent back into it. */
  async function payInSheet(place: Place<Scope, Widget>, { card, billingAddress, shippingAddress, shippingOption, promotionCode }: PayOptions): Promise<void> {
    await runner.check(place, SHEET.card(card));
    if (billingAddress) await runner.check(place, SHEET.billingAddress(billingAddress));
    // Each change asks the merchant for a new price: Pay stays disabled until the answer is in, and the click waits for it.
    if (shippingAddress) await runner.check(place, SHEET.shippingAddress(shippingAddress));
    if (shippingOption) await runner.check(place, SHEET.shippingOption(shippingOption));
    if (promotionCode) {
      await runner.fill(place, SHEET.offerCode, promotionCode);
      await runner.click(place, SHEET.offerApply);
    }
    await runner.click(place, SHEET.pay);
    // Neither question waits for an element, so a sheet closing between them cannot stall the poll.
    await runner.until(
      place,
      async () => (await runner.textsOf(place, SHEET.alert)).join('') !== '' || (await runner.textsOf(place, SHEET.sheet)).length === 0,
      'the sandbox wallet to close, or to tell a decline',
    );
  }

  return {
    async pay(scope, { widget, ...options }) {
      const place = { scope, widget };
      // Nothing to pay: the shopper sees the expiry, as expectOutcome(scope, 'expired') then finds.
      if (await expiredBeforeClick(place)) return;
      try {
        await openSheet(place);
      } catch (error) {
        // The widget's check of the view can tell the expiry just after that look, before the click: nothing to pay either.
        if (await runner.isVisible(place, WIDGET.inState('expired'))) return;
        throw error;
      }
      await payInSheet(place, options);
    },
    async payAgain(scope, options) {
      await payInSheet({ scope }, options);
    },
    async cancel(scope, { widget } = {}) {
      const place = { scope, widget };
      if (!(await runner.isVisible(place, SHEET.sheet))) await openSheet(place);
      await closeSheet(place);
    },
    async challenge(scope, answer, { widget } = {}) {
      const place = { scope, widget };
      await runner.expectState(place, 'authenticating');
      await runner.expectVisible(place, CHALLENGE.dialog, true);
      if (answer === 'cancel') await runner.click(place, CHALLENGE.cancel);
      else await runner.clickInFrame(place, CHALLENGE.frame, CHALLENGE.buttons[answer]);
      await runner.expectVisible(place, CHALLENGE.dialog, false);
    },
    async tryAgain(scope, { widget } = {}) {
      const place = { scope, widget };
      // Offered in `declined` and `error` alone.
      await runner.expectVisible(place, WIDGET.retry, true);
      if (await runner.isVisible(place, SHEET.sheet)) await closeSheet(place);
      await runner.click(place, WIDGET.retry);
      await runner.expectState(place, 'ready');
    },
    async expectOutcome(scope, state, { widget } = {}) {
      await runner.expectState({ scope, widget }, state);
    },
  };
}
