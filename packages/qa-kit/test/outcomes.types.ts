/**
 * Compiled by the project's `npx tsc --noEmit`, never run: `expectOutcome` takes the widget's own
 * states alone, in both entries, so a test that waits for a state the widget never shows (a
 * misspelling, or a word of the README's prose such as "outage") fails to compile, not by timing out.
 */
import type { WalletCheckoutKit } from '../src';
import type { CheckoutState } from '../src/webdriver';

export const reached: readonly CheckoutState[] = ['paid', 'declined', 'expired', 'error', 'captured', 'released', 'confirming'];

export async function misspelt(kit: WalletCheckoutKit, page: Parameters<WalletCheckoutKit['install']>[0]): Promise<void> {
  await kit.expectOutcome(page, 'expired');
  // @ts-expect-error the outage is the widget's `error`, told in its words: no state is named "outage"
  await kit.expectOutcome(page, 'outage');
  // @ts-expect-error a session whose time ran out is `expired`
  await kit.expectOutcome(page, 'expire');
}
