/**
 * What the widget does once the shopper has clicked: the payment and its 3-D Secure steps, polling
 * a payment being confirmed, watching a hold until the merchant captures or releases it, and where
 * the keyboard's focus goes after a result. A chunk (chunks.ts), prefetched once the button is up so
 * that a click never waits for it, and so plain functions over the widget's state (widget.ts
 * owns the state, its table is states.ts), not Preact hooks: the chunk does not carry Preact.
 *
 * The backend calls are the widget's own (FlowHost.api), not this chunk's copies: in iframe mode
 * they carry the embedding page's origin, which only the bundle's api module knows, and their
 * errors are the bundle's CheckoutApiError, which the widget's `failCall` knows.
 */
import type { PaymentData, PaymentOutcome, PublicSession } from '../../server/contracts';
import type { CheckoutApiError, fetchPublicSession, PayResponse, postAuthentication, postPayment } from './api';
import { isSettledHold, type View } from './states';
import type { CheckoutErrorCode } from './types';
import type { SheetResult } from './wallet-button';

const POLL_MS = 2000;
/**
 * A hold is captured or released whenever the merchant ships or cancels, often
 * long after the shopper left: check soon after paying, then less and less
 * often (at most once a minute per open tab), not at all while the tab is
 * hidden, and at once when it is shown again.
 */
const HOLD_CHECK_FIRST_MS = 5_000;
const HOLD_CHECK_MAX_MS = 60_000;

/** The widget, as the flow sees it. */
export interface FlowHost {
  apiBase: string;
  sessionId: string;
  clientSecret: string;
  api: {
    fetchPublicSession: typeof fetchPublicSession;
    postPayment: typeof postPayment;
    postAuthentication: typeof postAuthentication;
    isApiError(err: unknown): err is CheckoutApiError;
  };
  view(): View;
  /** Moves the widget, if its state table allows it (and announces the move). */
  setView(next: View): void;
  setSession(session: PublicSession): void;
  showOutcome(outcome: PaymentOutcome): void;
  fail(code: CheckoutErrorCode, reason: string | null): void;
  /** A failed call (of `api`) shown as the widget shows it; `otherwise`: what a refusal means for this call. */
  failCall(err: unknown, otherwise: CheckoutErrorCode): void;
  /** Shown in the wallet's sheet for a decline, in the widget's language. */
  declineMessage(outcome: PaymentOutcome): string;
  /** `checkout:cancel`. */
  cancelled(): void;
  alive(): boolean;
  /** The widget's root element, for focus. */
  root(): HTMLElement | null;
}

export interface PaymentFlow {
  onPaymentAuthorized(data: PaymentData): Promise<SheetResult>;
  onPaymentData(data: PaymentData): void;
  onCancel(): void;
  /** The challenge is over (`cancel`: the shopper closed it). */
  onChallengeEnd(cancel: boolean): void;
  onChallengeBlocked(origin: string): void;
  /** The challenge cannot be shown: cancelled at once, and `code` shown. */
  abandonChallenge(code: CheckoutErrorCode, reason: string): Promise<void>;
  /** The widget shows `view` now: polling and hold checks start or stop, and the focus follows. */
  sync(view: View): void;
  stop(): void;
}

export function paymentFlow(host: FlowHost): PaymentFlow {
  const { apiBase, sessionId, clientSecret, api } = host;
  /** The wallet's sheet is deciding the payment (onPaymentAuthorized ran): its result is shown there, and its return needs no second payment. */
  let decidedInSheet = false;
  let shown: View | undefined;
  let stopPolling: (() => void) | undefined;
  let stopHoldChecks: (() => void) | undefined;

  const focus = (selector: string) => host.root()?.querySelector<HTMLElement>(selector)?.focus();

  /**
   * Sends a payment step and shows its outcome. A 409 means another tab or
   * click got there first (in progress, or already paid): confirming reads the
   * session's own outcome rather than reporting an error for a paid order.
   */
  async function submit(call: (id: string) => Promise<PayResponse>): Promise<PaymentOutcome | null> {
    host.setView({ state: 'processing' });
    try {
      const res = await call(sessionId);
      if (!host.alive()) return null;
      host.setSession(res.session);
      host.showOutcome(res.outcome);
      return res.outcome;
    } catch (err) {
      if (!host.alive()) return null;
      if (api.isApiError(err) && err.status === 409 && (err.code === 'payment_in_progress' || err.code === 'session_completed')) host.setView({ state: 'confirming' });
      else host.failCall(err, 'payment_failed');
      return null;
    }
  }

  /** Confirming: the public session, polled until the outcome is final. */
  function pollUntilFinal(): () => void {
    const ctl = new AbortController();
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      try {
        const s = await api.fetchPublicSession(apiBase, sessionId, clientSecret, ctl.signal);
        if (ctl.signal.aborted) return;
        host.setSession(s);
        if (s.status === 'processing' || s.status === 'pending') {
          // still unknown: keep polling
        } else if (s.outcome && s.outcome.status !== 'pending') {
          return host.showOutcome(s.outcome);
        } else if (s.status === 'open') {
          return host.fail('payment_not_completed', null);
        }
      } catch (err) {
        if (ctl.signal.aborted) return;
        if (api.isApiError(err) && (err.status === 401 || err.status === 404 || err.status === 410)) return host.failCall(err, 'server_error');
        // transient: keep polling
      }
      timer = setTimeout(tick, POLL_MS);
    };
    timer = setTimeout(tick, POLL_MS);
    return () => {
      ctl.abort();
      clearTimeout(timer);
    };
  }

  /** A hold: shown captured or released once the merchant's server has done so. */
  function watchHold(): () => void {
    const ctl = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let delay = HOLD_CHECK_FIRST_MS;
    let checking = false;
    const check = async () => {
      clearTimeout(timer);
      if (checking || document.hidden) return; // a hidden tab checks again when it is shown
      checking = true;
      try {
        const s = await api.fetchPublicSession(apiBase, sessionId, clientSecret, ctl.signal);
        if (ctl.signal.aborted) return;
        if (isSettledHold(s.status)) {
          host.setSession(s);
          host.setView({ state: s.status, outcome: s.outcome });
          return;
        }
      } catch (err) {
        // The hold stands whatever a failed check says; a session gone or refused will not come back.
        if (ctl.signal.aborted || (api.isApiError(err) && (err.status === 401 || err.status === 404))) return;
      } finally {
        checking = false;
      }
      delay = Math.min(delay * 2, HOLD_CHECK_MAX_MS);
      timer = setTimeout(check, delay);
    };
    const onVisibilityChange = () => {
      if (document.hidden) return;
      delay = HOLD_CHECK_FIRST_MS;
      void check();
    };
    timer = setTimeout(check, delay);
    document.addEventListener('visibilitychange', onVisibilityChange);
    return () => {
      ctl.abort();
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibilityChange);
    };
  }

  async function abandonChallenge(code: CheckoutErrorCode, reason: string) {
    if (host.view().state !== 'authenticating') return;
    host.setView({ state: 'processing' });
    // Nothing more to do if the cancel fails: the challenge expires by itself and the session becomes payable again.
    await api.postAuthentication(apiBase, sessionId, clientSecret, { cancel: true }).catch(() => undefined);
    if (host.alive()) host.fail(code, reason);
  }

  return {
    async onPaymentAuthorized(data) {
      decidedInSheet = true;
      const state = host.view().state;
      if (state !== 'ready' && state !== 'declined') return { transactionState: 'SUCCESS' };
      const outcome = await submit((id) => api.postPayment(apiBase, id, clientSecret, data));
      if (outcome?.status !== 'declined') return { transactionState: 'SUCCESS' };
      return { transactionState: 'ERROR', error: { reason: 'PAYMENT_DATA_INVALID', intent: 'PAYMENT_AUTHORIZATION', message: host.declineMessage(outcome) } };
    },

    onPaymentData(data) {
      if (decidedInSheet) {
        decidedInSheet = false;
        return;
      }
      if (host.view().state === 'ready') void submit((id) => api.postPayment(apiBase, id, clientSecret, data));
    },

    onCancel() {
      decidedInSheet = false;
      if (host.view().state === 'processing') host.setView({ state: 'ready' });
      // A sheet closed after a decline shown in it: the wallet button is hidden, so "Try again" takes the focus.
      if (host.view().state === 'declined') focus('.retry');
      host.cancelled();
    },

    onChallengeEnd(cancel) {
      if (host.view().state === 'authenticating') void submit((id) => api.postAuthentication(apiBase, id, clientSecret, cancel ? { cancel: true } : {}));
    },

    /**
     * The page's CSP refused the challenge's frame: the shopper would face an
     * empty dialog. The merchant reads in the console what to allow; the
     * challenge is cancelled at once rather than left to expire, so the session
     * can be paid again (another card, or the page fixed) and nothing is charged.
     */
    onChallengeBlocked(origin) {
      if (host.view().state !== 'authenticating') return;
      console.error(
        `WalletCheckout: this page's Content-Security-Policy blocked the bank's 3-D Secure challenge from ${origin}. ` +
          `Add ${origin} to the policy's frame-src directive, or shoppers whose card needs 3-D Secure cannot pay.`,
      );
      void abandonChallenge('challenge_blocked', origin);
    },

    abandonChallenge,

    sync(view) {
      const before = shown;
      if (view === before) return;
      shown = view;
      const confirming = view.state === 'confirming';
      if (confirming !== (before?.state === 'confirming')) {
        stopPolling?.();
        stopPolling = confirming ? pollUntilFinal() : undefined;
      }
      const waitingForHold = view.state === 'paid' && view.outcome?.status === 'authorized';
      if (waitingForHold !== !!stopHoldChecks) {
        stopHoldChecks?.();
        stopHoldChecks = waitingForHold ? watchHold() : undefined;
      }
      // Keyboard users keep their place: the wallet button hides while paying, so
      // focus goes to "Try again" when it appears, and back to the wallet after it.
      if (before?.state === 'processing' && (view.state === 'declined' || view.state === 'error') && !decidedInSheet) focus('.retry');
      if ((before?.state === 'declined' || before?.state === 'error') && view.state === 'ready') focus('.wallet button');
    },

    stop() {
      stopPolling?.();
      stopHoldChecks?.();
      stopPolling = stopHoldChecks = undefined;
    },
  };
}
