/**
 * Draws a widget's state: its view (view.ts), and the wallet's button (wallet-button.ts) while
 * the session is payable here (or, before its view, may be) and the wallet is loaded; the button is made once and kept.
 */
import type { PublicSession } from '../../contracts';
import { directionOf } from './locales';
import { wordsAtHand } from './locales/load';
import { type View, WIDGET_STATES } from './states';
import { type CheckoutViewHandlers, checkoutView, type SavingView } from './view';
import { createWalletButton, type WalletButton, type WalletButtonCallbacks } from './wallet-button';
import type { CheckoutProps } from './widget-props';

export function painter(container: HTMLElement, on: CheckoutViewHandlers & WalletButtonCallbacks) {
  const drawn = checkoutView(container, on);
  let button: WalletButton | null = null;
  return {
    root: drawn.root,
    /** In `language`, the widget's (its dictionary's tag): the words at hand in it, and its direction. */
    paint(view: View, session: PublicSession | null, walletLoaded: boolean, { options, locale }: CheckoutProps, language: string, saving?: SavingView) {
      const settings = walletLoaded &&
        WIDGET_STATES[view.state].button !== 'removed' && {
          // Before the session's view (a wallet already on the page): asked as a sandbox session is, the session's own once it is here (wallet-button.ts).
          environment: session?.wallet.environment ?? ('SANDBOX' as const),
          paymentRequest: session?.payment_data_request,
          options,
          language,
        };
      if (!settings) {
        button?.element.remove();
        button = null;
      } else if (button) button.configure(settings);
      else button = createWalletButton(settings, on);
      drawn.draw({ view, session, button: button?.element ?? null, words: wordsAtHand(language), locale, dir: directionOf(language), fill: options.buttonSizeMode === 'fill', saving });
    },
    remove() {
      button?.element.remove();
      drawn.remove();
    },
  };
}
