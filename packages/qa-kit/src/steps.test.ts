/**
 * The kit's pay step when the session expires under it: the widget checks the view a page carried once
 * the page is idle, so it can turn to `expired` at any moment before the click. Paying then pays nothing,
 * and expectOutcome('expired') finds the widget as the shopper sees it. The runner here is a stand-in
 * whose widget turns expired right after the kit's first look found it ready.
 */
import { expect, it } from 'vitest';
import { type Place, type Runner, steps } from './steps';
import { type CheckoutState, type Part, WIDGET } from './widget';

type Scope = 'page';

function expiringWidget() {
  let state: CheckoutState = 'ready';
  const clicks: Part[] = [];
  const shows = (part: Part, wanted: CheckoutState) => JSON.stringify(part) === JSON.stringify(WIDGET.inState(wanted)) && state === wanted;
  const runner: Runner<Scope, never> = {
    async expectState(_place, wanted) {
      // The widget's own check told the expiry after the kit's look: waiting for `ready` times out, as a runner's would.
      state = 'expired';
      if (state !== wanted) throw new Error(`timed out waiting for ${wanted}`);
    },
    async click(_place, part) {
      clicks.push(part);
    },
    async check() {},
    async fill() {},
    async isVisible(_place, part) {
      return shows(part, 'ready') || shows(part, 'expired');
    },
    async expectVisible() {},
    async textsOf() {
      return [];
    },
    async until(_place, condition, what) {
      if (!(await condition())) throw new Error(`timed out waiting for ${what}`);
    },
    async clickInFrame() {},
  };
  return { runner, clicks, place: { scope: 'page' } as Place<Scope, never> };
}

it('pays nothing when the widget turns expired between the look at it and the click, and tells no error', async () => {
  const { runner, clicks, place } = expiringWidget();
  const kit = steps(runner);
  await expect(kit.pay(place.scope, { card: 'visa-success-3ds' })).resolves.toBeUndefined();
  expect(clicks, 'no wallet button pressed').toEqual([]);
  await expect(kit.expectOutcome(place.scope, 'expired')).resolves.toBeUndefined();
});

it('still fails a pay whose widget never became ready for another reason', async () => {
  const { runner, place } = expiringWidget();
  const kit = steps({ ...runner, isVisible: async (_place, part) => JSON.stringify(part) === JSON.stringify(WIDGET.inState('ready')) });
  await expect(kit.pay(place.scope, { card: 'visa-success-3ds' })).rejects.toThrow(/timed out waiting for ready/);
});
