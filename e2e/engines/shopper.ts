/**
 * The shopper's steps and what they read, written once over the engine-neutral
 * driver (driver.ts): the same words for Chromium, Firefox ESR and WebKitGTK.
 * `frames` is where the widget is: [] on the merchant's page, the checkout
 * frame in iframe mode.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { CheckoutEventDetails, CheckoutEventName, CheckoutState } from '../../web/checkout/types';
import { type ElementQuery, type ElementSnapshot, type EngineDriver, readElement, waitFor } from './driver';

/** axe-core's browser bundle (installed with @axe-core/playwright), injected into the page in every engine. */
const axeSource = () => readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export type ChallengeAnswer = 'Complete authentication' | 'Fail authentication';

export class Shopper {
  constructor(
    readonly driver: EngineDriver,
    private readonly frames: ElementQuery[] = [],
  ) {}

  /** The same shopper, on the widget inside the checkout frame (iframe mode). */
  inCheckoutFrame(): Shopper {
    return new Shopper(this.driver, [{ css: 'iframe[data-wallet-checkout-frame]' }]);
  }

  /** Runs `step` in the widget's frame (and `inner` frames within it), then goes back to the top. */
  private async within<T>(step: () => Promise<T>, inner: ElementQuery[] = []): Promise<T> {
    await this.driver.leaveFrames();
    for (const frame of [...this.frames, ...inner]) await this.driver.enterFrame(frame);
    try {
      return await step();
    } finally {
      await this.driver.leaveFrames();
    }
  }

  read(css: string): Promise<ElementSnapshot | null> {
    return this.within(() => this.driver.evaluate(readElement, { query: { css }, as: 'snapshot' }));
  }

  /** Waits until the element `css` finds passes `check`; fails with what it last showed. */
  async expect(css: string, what: string, check: (element: ElementSnapshot | null) => boolean): Promise<void> {
    let last: ElementSnapshot | null = null;
    try {
      await waitFor(`${css} to be ${what}`, async () => {
        last = await this.read(css);
        return check(last) || null;
      });
    } catch (error) {
      throw new Error(`${(error as Error).message}; it was ${JSON.stringify(last)}`);
    }
  }

  expectState(state: CheckoutState): Promise<void> {
    return this.expect('[data-checkout-state]', `in state ${state}`, (el) => el?.attributes['data-checkout-state'] === state);
  }

  expectText(css: string, text: string | RegExp): Promise<void> {
    return this.expect(css, `showing ${text}`, (el) => !!el?.visible && (typeof text === 'string' ? el.text === text : text.test(el.text)));
  }

  expectVisible(css: string, visible: boolean): Promise<void> {
    return this.expect(css, visible ? 'visible' : 'hidden', (el) => !!el?.visible === visible);
  }

  expectFocused(css: string): Promise<void> {
    return this.expect(css, 'focused', (el) => !!el?.focused);
  }

  click(query: ElementQuery): Promise<void> {
    return this.within(() => this.driver.click(query));
  }

  type(query: ElementQuery, text: string): Promise<void> {
    return this.within(() => this.driver.type(query, text));
  }

  /** The widget's Google Pay button, once it is ready: the sandbox wallet's sheet opens. */
  async openWallet(): Promise<void> {
    await this.expectState('ready');
    await this.click({ css: '[data-testid=sandbox-gpay-button]' });
    await this.expectVisible('[data-testid=sandbox-wallet]', true);
  }

  /** In the open sheet: picks the test card and presses Pay. */
  async payInSheet(card: string): Promise<void> {
    await this.click({ css: `input[name=sandbox-card][value="${card}"]` });
    await this.click({ css: '[data-testid=sandbox-pay]' });
  }

  async payWith(card: string): Promise<void> {
    await this.openWallet();
    await this.payInSheet(card);
  }

  /** Answers the bank's challenge in the frame of the widget's 3-D Secure dialog. */
  async answerChallenge(answer: ChallengeAnswer): Promise<void> {
    await this.expectVisible('[data-testid=challenge]', true);
    await this.within(() => this.driver.click({ button: answer }), [{ css: '[data-testid=challenge-frame]' }]);
  }

  /** Every `type` event the merchant's page heard from the widget, oldest first. */
  async events<K extends CheckoutEventName>(type: K): Promise<CheckoutEventDetails[K][]> {
    await this.driver.leaveFrames();
    const all = await this.driver.evaluate(() => (window as unknown as { __checkoutEvents: { type: string; detail: unknown }[] }).__checkoutEvents, undefined);
    // The record holds what the widget dispatched under `type`, so its detail is that event's.
    return all.filter((event) => event.type === type).map((event) => event.detail as CheckoutEventDetails[K]);
  }

  /** axe-core's violations within the widget, as "rule: targets". */
  async axeViolations(): Promise<string[]> {
    return this.within(async () => {
      await this.driver.addScript(axeSource());
      return this.driver.evaluate(async () => {
        type Result = { violations: { id: string; nodes: { target: unknown[] }[] }[] };
        const { axe } = window as unknown as { axe: { run(context: unknown, options: unknown): Promise<Result> } };
        const result = await axe.run({ include: [['[data-wallet-checkout]']] }, { resultTypes: ['violations'] });
        return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
      }, undefined);
    });
  }
}
