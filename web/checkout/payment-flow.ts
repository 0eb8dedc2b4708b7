/**
 * What the widget does once the shopper has clicked, and what it shows past its first paint: the
 * glue that feeds the flow's decider (flow-decide.ts, pure) the wallet's, the backend's and the
 * challenge's answers, and performs what it decides: calls (api.ts), the 3-D Secure dialog
 * (challenge-opener.ts), checks of the session (session-watch.ts), focus; and the sheet's changes
 * of address and delivery option, priced by the relay (quote-relay.ts). With it, the rest of
 * English and the after-click states' styles. A chunk (chunks.ts), prefetched once the button is up,
 * loaded at once by a widget that opens in a later state (a reload, an error); plain functions over
 * the widget's state (widget.ts owns it, its table is states.ts): the chunk does not carry Preact.
 *
 * Its backend calls are this chunk's copy of api.ts, told the embedding page's origin in iframe
 * mode (FlowHost.embedderOrigin), which only the bundle's copy learnt from the frame's init message.
 */
import { detach } from '../../common/browser/builtins';
import { agreementWords } from './agreement-words';
import afterClickCss from './after-click.css?inline';
import { fetchPublicSession, postQuote, setEmbedderOrigin, shopperPageOrigin } from './api';
import { openChallengeIn } from './challenge-opener';
import { decide } from './flow-decide';
import { type Dispatched, flowEffects } from './flow-effects';
import { AUTHORIZED, CALL_FAILED, CHECK_AGAIN, type FlowEvent, RESUMED, SHEET_CANCELLED, SHEET_RETURNED, SHOWN } from './flow-events';
import type { FlowHost, PaymentFlow } from './flow-host';
import { en } from './locales/en';
import { isStale } from './mount-decide';
import { checkCarried } from './mount-load';
import { sheetResult } from './outcome-view';
import { quoteRelay } from './quote-relay';
import { isPaidStatus, type View } from './states';

export function paymentFlow(host: FlowHost): PaymentFlow {
  if (host.embedderOrigin) setEmbedderOrigin(host.embedderOrigin);
  // The after-click states' styles join the first paint's in the widget's shadow root, under the page's nonce.
  const style = document.createElement('style');
  if (host.nonce) style.nonce = host.nonce;
  style.textContent = afterClickCss;
  const shadow = host.root()?.getRootNode();
  if (shadow instanceof ShadowRoot) shadow.appendChild(style);
  let decidedInSheet = false;
  let shown: View | undefined;
  const relay = quoteRelay(
    (change, signal) => postQuote(host.apiBase, host.sessionId, host.clientSecret, change, signal),
    () => (host.words() ?? en).errors.network_error,
  );
  const effects = flowEffects(host, (event) => dispatch(event), relay.quoteId);
  let checking: AbortController | undefined;

  /** Decides `event`, moves the widget, and performs the effects. */
  function dispatch(event: FlowEvent): Dispatched {
    const decision = decide({ view: host.view(), decidedInSheet, pageOrigin: shopperPageOrigin() }, event);
    decidedInSheet = decision.decidedInSheet ?? decidedInSheet;
    if (decision.session) host.setSession(decision.session);
    if (decision.view) host.setView(decision.view);
    let answer: Dispatched['answer'];
    for (const effect of decision.effects) answer = effects.perform(effect) ?? answer;
    return { again: decision.effects.some((effect) => effect.run === CHECK_AGAIN), answer };
  }

  return {
    failCall: (error, otherwise) => void dispatch({ on: CALL_FAILED, error, otherwise }),
    onPaymentAuthorized: async (data) => sheetResult((await dispatch({ on: AUTHORIZED, data }).answer) ?? null, host.words()),
    onPaymentDataChanged: relay.changed,
    onPaymentData: (data) => void dispatch({ on: SHEET_RETURNED, data }),
    onCancel: () => void dispatch({ on: SHEET_CANCELLED }),
    showChallenge: (box) => openChallengeIn(box, host, dispatch),
    resume(session) {
      dispatch({ on: RESUMED, session });
      return !isPaidStatus(session.status);
    },
    checkCarried(carried, stale) {
      checking = checkCarried(
        (signal) => fetchPublicSession(host.apiBase, host.sessionId, host.clientSecret, signal),
        (answer) => isStale(host.view(), carried, answer) && stale(),
      );
    },
    sync(view) {
      const before = shown;
      if (view === before) return;
      shown = view;
      dispatch({ on: SHOWN, before });
    },
    stop() {
      effects.stop();
      checking?.abort();
      detach(style);
    },
  };
}

/** What the chunk carries (vite.config.ts): the flow, the rest of English, and the words of a saved card's agreement. */
export const afterClick = { paymentFlow, en, agreementWords };
