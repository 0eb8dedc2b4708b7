/**
 * The sheet's `onPaymentDataChanged`, performed: each change is posted to the relay (api.ts's
 * postQuote), within QUOTE_DEADLINE_MS, and answered and its quote kept as quote-decide.ts decides;
 * the payment names the kept quote (flow-effects.ts).
 */
import { BuiltinPromise } from '../../common/browser/builtins';
import { type PaymentDataChange, QUOTE_DEADLINE_MS, type RelayedChange, relayedChange, settleChange, type SheetUpdate } from './quote-decide';

/** `post`: the relay's call; `networkError`: the widget's words for a network error, in its language. */
export function quoteRelay(post: (change: RelayedChange, signal: AbortSignal) => Promise<unknown>, networkError: () => string) {
  let latest = 0;
  let quoteId: string | undefined;

  /** The relay's reply, or undefined once it failed or the deadline passed (the call is then aborted). */
  function ask(change: RelayedChange): Promise<unknown> {
    const ctl = new AbortController();
    return new BuiltinPromise((resolve) => {
      const done = (reply?: unknown) => {
        clearTimeout(timer);
        ctl.abort();
        resolve(reply);
      };
      const timer = setTimeout(done, QUOTE_DEADLINE_MS);
      post(change, ctl.signal).then(done, () => done());
    });
  }

  return {
    /** The quote the payment names: the newest change's, if it was priced. */
    quoteId: () => quoteId,
    /** `declared`: the request's callbackIntents, which an error must name one of. */
    async changed(data: PaymentDataChange, declared: readonly string[]): Promise<SheetUpdate> {
      const change = { number: ++latest, trigger: data.callbackTrigger, declared };
      const reply = await ask(relayedChange(data));
      // Read once the reply is here: newer changes may have been made, and priced, meanwhile.
      const settled = settleChange(quoteId, change, latest, reply, networkError());
      quoteId = settled.quoteId;
      return settled.update;
    },
  };
}
