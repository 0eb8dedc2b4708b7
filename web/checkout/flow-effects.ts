/**
 * The payment flow's effects, performed: what its decider (flow-decide.ts) asks for, done with
 * the backend (api.ts), checks of the session (session-watch.ts), the page's focus and console.
 * Each answer goes back to the flow as an event (`tell`).
 */
import type { PaymentOutcome } from '../../contracts';
import { fetchPublicSession, type PayResponse, postAuthentication, postPayment } from './api';
import type { Effect, FlowEvent, Watched } from './flow-events';
import type { FlowHost } from './flow-host';
import { HOLD_CHECKS, POLLING, watchSession } from './session-watch';

/** What dispatching an event came to: whether a check of the session goes on, and a payment step's answer if one was sent. */
export interface Dispatched {
  again: boolean;
  answer?: Promise<PaymentOutcome | null>;
}

export function flowEffects(host: FlowHost, tell: (event: FlowEvent) => Dispatched) {
  const { apiBase, sessionId, clientSecret } = host;
  const watching: Partial<Record<Watched, () => void>> = {};

  /** Sends a payment step; its answer (null when it failed) is dispatched before it is returned. */
  async function send(call: Promise<PayResponse>): Promise<PaymentOutcome | null> {
    try {
      const { outcome, session } = await call;
      if (!host.alive()) return null;
      tell({ on: 'answered', outcome, session });
      return outcome;
    } catch (error) {
      if (host.alive()) tell({ on: 'payFailed', error });
      return null;
    }
  }

  /** Performs one effect; a payment step's answer, for the sheet. */
  function perform(effect: Effect): Promise<PaymentOutcome | null> | void {
    switch (effect.run) {
      case 'pay':
        return send(postPayment(apiBase, sessionId, clientSecret, effect.data));
      case 'authenticate':
        return send(postAuthentication(apiBase, sessionId, clientSecret, effect.cancel ? { cancel: true } : {}));
      case 'abandonChallenge':
        // Nothing more to do if the cancel fails: the challenge expires by itself and the session becomes payable again.
        return void postAuthentication(apiBase, sessionId, clientSecret, { cancel: true })
          .catch(() => undefined)
          .then(() => host.alive() && host.setView(effect.then));
      case 'watch': {
        const { what } = effect;
        const fetchSession = (signal: AbortSignal) => fetchPublicSession(apiBase, sessionId, clientSecret, signal);
        watching[what] = watchSession(fetchSession, what === 'poll' ? POLLING : HOLD_CHECKS, (checked) => tell({ on: 'checked', what, ...checked }).again);
        return;
      }
      case 'unwatch':
        watching[effect.what]?.();
        return void delete watching[effect.what];
      case 'focus':
        return host.root()?.querySelector<HTMLElement>(effect.selector)?.focus();
      case 'announceCancel':
        return host.cancelled();
      case 'warn':
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
