/**
 * The payment flow's effects, performed: what its decider (flow-decide.ts) asks for, done with
 * the backend (api.ts), checks of the session (session-watch.ts), the page's focus and console.
 * Each answer goes back to the flow as an event (`tell`).
 */
import { fetchPublicSession, type PayResponse, postAuthentication, postPayment } from './api';
import { ABANDON_CHALLENGE, ANNOUNCE_CANCEL, ANSWERED, AUTHENTICATE, CHECKED, type Effect, type FlowEvent, FOCUS, PAY, PAY_FAILED, UNWATCH, WARN, WATCH, type Watched } from './flow-events';
import type { FlowHost } from './flow-host';
import type { PaymentAnswer } from './outcome-view';
import { HOLD_CHECKS, POLLING, watchSession } from './session-watch';

/** What dispatching an event came to: whether a check of the session goes on, and a payment step's answer if one was sent. */
export interface Dispatched {
  again: boolean;
  answer?: Promise<PaymentAnswer | null>;
}

/** `quoteId`: the quote a session with delivery options is paid at (quote-relay.ts), named by the payment. */
export function flowEffects(host: FlowHost, tell: (event: FlowEvent) => Dispatched, quoteId: () => string | undefined) {
  const { apiBase, sessionId, clientSecret } = host;
  const watching: Partial<Record<Watched, () => void>> = {};

  /** Sends a payment step; its answer (null once the widget is stopped) is dispatched before it is returned, for the sheet. */
  async function send(call: Promise<PayResponse>): Promise<PaymentAnswer | null> {
    try {
      const { outcome, session } = await call;
      if (!host.alive()) return null;
      tell({ on: ANSWERED, outcome, session });
      return { outcome };
    } catch (error) {
      if (!host.alive()) return null;
      tell({ on: PAY_FAILED, error });
      return { error };
    }
  }

  /** Performs one effect; a payment step's answer, for the sheet. */
  function perform(effect: Effect): Promise<PaymentAnswer | null> | void {
    switch (effect.run) {
      case PAY:
        return send(postPayment(apiBase, sessionId, clientSecret, effect.data, quoteId(), host.agreementShown()));
      case AUTHENTICATE:
        return send(postAuthentication(apiBase, sessionId, clientSecret, effect.cancel ? { cancel: true } : {}));
      case ABANDON_CHALLENGE:
        // Nothing more to do if the cancel fails: the challenge expires by itself and the session becomes payable again.
        return void postAuthentication(apiBase, sessionId, clientSecret, { cancel: true })
          .catch(() => undefined)
          .then(() => host.alive() && host.setView(effect.then));
      case WATCH: {
        const { what } = effect;
        const fetchSession = (signal: AbortSignal) => fetchPublicSession(apiBase, sessionId, clientSecret, signal);
        watching[what] = watchSession(fetchSession, what === 'poll' ? POLLING : HOLD_CHECKS, (checked) => tell({ on: CHECKED, what, ...checked }).again);
        return;
      }
      case UNWATCH:
        watching[effect.what]?.();
        return void delete watching[effect.what];
      case FOCUS:
        return host.root()?.querySelector<HTMLElement>(effect.selector)?.focus();
      case ANNOUNCE_CANCEL:
        return host.cancelled();
      case WARN:
        return console.error(effect.message);
    }
  }

  return {
    perform,
    /** The widget is stopped: no check of the session goes on. */
    stop() {
      watching.poll?.();
      watching.hold?.();
    },
  };
}
