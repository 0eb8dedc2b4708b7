/**
 * The payment flow (payment-flow.ts, the after-click chunk), loaded once for a widget: prefetched
 * when the button came up, so normally here already. A chunk that could not be had is asked for
 * again at the next need (a click, say).
 */
import { loadChunk } from './chunks';
import type { FlowHost, PaymentFlow } from './flow-host';
import { addEnglish } from './locales/load';
import type { afterClick } from './payment-flow';

/** `arrived`: the flow is here (and the rest of English with it). */
export function flowLoader(host: () => FlowHost, nonce: () => string | undefined, arrived: (flow: PaymentFlow) => void): () => Promise<PaymentFlow> {
  let flow: Promise<PaymentFlow> | null = null;
  return () =>
    (flow ??= (loadChunk('payment-flow', nonce()) as Promise<typeof afterClick | undefined>).then(
      (chunk) => {
        if (!chunk) throw new Error('Wallet Checkout: the payment flow chunk carried nothing');
        addEnglish(chunk.en);
        const created = chunk.paymentFlow(host());
        arrived(created);
        return created;
      },
      (err: unknown) => {
        flow = null; // the next need tries again
        throw err;
      },
    ));
}
