/**
 * The payment flow (payment-flow.ts, the after-click chunk) as the mount uses it: loaded once for
 * a widget, prefetched when the button came up, so normally here already (a chunk that could not
 * be had is asked for again at the next need, a click say); the wallet's sheet and the 3-D Secure
 * dialog's box handed to it, and every move followed by it. Its own needs (moving the widget,
 * whether it is alive) go through `host`, the widget as the flow sees it, whose names the seam
 * pays once.
 */
import { BuiltinPromise } from '../../common/browser/builtins';
import type { FlowHost, PaymentFlow } from './flow-host';
import { addEnglish } from './locales/load';
import type { afterClick } from './payment-flow';
import { type View, WIDGET_STATES } from './states';
import type { CheckoutViewHandlers } from './view';
import type { WalletButtonCallbacks } from './wallet-button';

type FlowHandlers = Pick<CheckoutViewHandlers, 'challengeBox'> & Pick<WalletButtonCallbacks, 'onPaymentAuthorized' | 'onPaymentDataChanged' | 'onPaymentData' | 'onCancel'>;

/**
 * `host`: made when the flow comes; `arrived`: the flow is here (and the rest of English with it).
 * Returns what loads it, what tells the shopper it cannot be had, what makes it follow a move,
 * the wallet's and the view's handlers that hand it their answers, what stops it, and what words a
 * saved card's agreement (the chunk's too).
 */
export function flowLoader(host: () => FlowHost, arrived: () => void) {
  let flow: Promise<PaymentFlow> | null = null;
  let here: PaymentFlow | undefined;
  let agreementWords: (typeof afterClick)['agreementWords'] | undefined;
  let closeChallenge: (() => void) | undefined;
  const load = () =>
    (flow ??= (host().loadChunk('payment-flow') as Promise<typeof afterClick | undefined>).then(
      (chunk) => {
        if (!chunk) throw new Error('Wallet Checkout: the payment flow chunk carried nothing');
        addEnglish(chunk.en);
        agreementWords = chunk.agreementWords;
        const created = (here = chunk.paymentFlow(host()));
        created.sync(host().view());
        arrived();
        return created;
      },
      (err: unknown) => {
        flow = null; // the next need tries again
        throw err;
      },
    ));
  // A widget whose client secret names no session has no flow.
  const loadFlow = () => (host().sessionId ? load() : BuiltinPromise.reject(new Error('Wallet Checkout: no session to pay')));
  /** The flow's code cannot be had: nothing is paid, and the shopper is told as of a network error. */
  function unavailable(err: unknown) {
    console.error(err instanceof Error ? err.message : err);
    const { alive, setView } = host();
    if (alive()) setView({ state: 'error', code: 'network_error', reason: 'payment_unavailable' });
  }
  const withFlow = (use: (flow: PaymentFlow) => unknown) => void loadFlow().then(use, unavailable);
  /** The flow follows every move; a state past the first paint needs it (and its words and styles) at once. */
  const follow = (view: View) => (here ? here.sync(view) : WIDGET_STATES[view.state].firstPaint || withFlow(() => undefined));
  const handlers: FlowHandlers = {
    /** The dialog's box was drawn (an `authenticating` view with a challenge), or taken away: the flow opens the dialog in it. */
    challengeBox(box) {
      closeChallenge?.();
      closeChallenge = undefined;
      if (!box) return;
      let closed = false;
      closeChallenge = () => void (closed = true);
      withFlow((f) => closed || (closeChallenge = f.showChallenge(box)));
    },
    // Without the flow the sheet closes, and the page says why.
    onPaymentAuthorized: (data) => loadFlow().then((f) => f.onPaymentAuthorized(data), (err: unknown) => (unavailable(err), { transactionState: 'SUCCESS' as const })),
    // Without the flow the sheet is refused the change, and shows its own error; paying then says why.
    onPaymentDataChanged: (data, declared) => loadFlow().then((f) => f.onPaymentDataChanged(data, declared)),
    onPaymentData: (data) => withFlow((f) => f.onPaymentData(data)),
    onCancel: () => withFlow((f) => f.onCancel()),
  };
  const stop = () => {
    here?.stop();
    closeChallenge?.();
  };
  /** The saved card's agreement in `words`' language, once the chunk that words it is here. */
  const agreement: (...args: Parameters<(typeof afterClick)['agreementWords']>) => string | undefined = (...args) => agreementWords?.(...args);
  return [loadFlow, unavailable, follow, handlers, stop, agreement] as const;
}
