/**
 * What the widget does once the shopper has clicked, and what it shows past its first paint: the
 * payment and its 3-D Secure steps, outcomes and failed calls, polling a payment being confirmed,
 * watching a hold until the merchant captures or releases it, and where the keyboard's focus goes
 * after a result; with them, the rest of English and the styles of the states met after a click.
 * A chunk (chunks.ts), prefetched once the button is up so that a click never waits for it, and
 * loaded at once by a widget that opens in a later state (a reload, an error); so plain functions
 * over the widget's state (widget.ts owns the state, its table is states.ts), not Preact: the chunk
 * does not carry Preact.
 *
 * Its backend calls are this chunk's copy of api.ts, told the embedding page's origin in iframe
 * mode (FlowHost.embedderOrigin), which only the bundle's copy learnt from the frame's init message.
 */
import type { PaymentData, PaymentOutcome, PublicSession } from '../../contracts';
import { isFrameableUrl } from '../../contracts/urls';
import { detach } from '../../common/browser/builtins';
import afterClickCss from './after-click.css?inline';
import { CheckoutApiError, errorCodeOf, fetchPublicSession, isApiError, type PayResponse, postAuthentication, postPayment, setEmbedderOrigin, shopperPageOrigin } from './api';
import type { openChallenge } from './challenge-dialog';
import { declineMessage, type Messages } from './locales';
import { en } from './locales/en';
import { isPaidStatus, isSettledHold, type View } from './states';
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
  /** Iframe mode: the embedding page's origin, which every call names (api.ts). */
  embedderOrigin: string | undefined;
  /** The page's CSP nonce, for the after-click states' stylesheet. */
  nonce: string | undefined;
  view(): View;
  /** Moves the widget, if its state table allows it (and announces the move). */
  setView(next: View): void;
  setSession(session: PublicSession): void;
  fail(code: CheckoutErrorCode, reason: string | null): void;
  /** The bundle's chunk loader (chunks.ts), which knows where the chunks are and their hashes: the 3-D Secure dialog's. */
  loadChunk(name: string): Promise<unknown>;
  /** The widget's language's dictionary, if it is here (English is this chunk's). */
  words(): Messages | undefined;
  /** `checkout:cancel`. */
  cancelled(): void;
  alive(): boolean;
  /** The widget's root element, for focus, in the shadow root the styles go in. */
  root(): HTMLElement | null;
}

/** For the merchant's console: which origin was refused, and how to allow it. */
export const originNotAllowedHelp = (origin: string) =>
  `Wallet Checkout: this page's origin (${origin}) is not one of the allowed origins of the checkout's application, so the checkout refused it. ` +
  `Add ${origin} to the application's allowed origins (npm run app:update -- --app APP_ID --origin ${origin}); see docs/embedding.md.`;

export interface PaymentFlow {
  /** A failed backend call, shown as the widget shows it; `otherwise`: what a refusal means for this call. */
  failCall(err: unknown, otherwise: CheckoutErrorCode): void;
  onPaymentAuthorized(data: PaymentData): Promise<SheetResult>;
  onPaymentData(data: PaymentData): void;
  onCancel(): void;
  /**
   * Opens the bank's 3-D Secure challenge of the current view in `box`, the view's place for it;
   * returns what closes it. If the dialog's chunk cannot be had, the challenge is abandoned as a
   * network error, and nothing is charged.
   */
  showChallenge(box: HTMLElement): () => void;
  /**
   * A session the page opens on past its start (a reload after an attempt, another tab's payment):
   * the widget moves to where the session is, its outcome shown before the wallet can report
   * readiness. True while the session can still be paid here (the wallet's button is wanted).
   */
  resume(session: PublicSession): boolean;
  /** The widget shows `view` now: polling and hold checks start or stop, and the focus follows. */
  sync(view: View): void;
  stop(): void;
}

export function paymentFlow(host: FlowHost): PaymentFlow {
  const { apiBase, sessionId, clientSecret } = host;
  if (host.embedderOrigin) setEmbedderOrigin(host.embedderOrigin);
  // The after-click states' styles join the first paint's in the widget's shadow root, under the page's nonce.
  const style = document.createElement('style');
  if (host.nonce) style.nonce = host.nonce;
  style.textContent = afterClickCss;
  const shadow = host.root()?.getRootNode();
  if (shadow instanceof ShadowRoot) shadow.appendChild(style);
  /** The wallet's sheet is deciding the payment (onPaymentAuthorized ran): its result is shown there, and its return needs no second payment. */
  let decidedInSheet = false;
  let shown: View | undefined;
  let stopPolling: (() => void) | undefined;
  let stopHoldChecks: (() => void) | undefined;

  const focus = (selector: string) => host.root()?.querySelector<HTMLElement>(selector)?.focus();

  function failCall(err: unknown, otherwise: CheckoutErrorCode) {
    const e = isApiError(err) ? err : new CheckoutApiError(0, 'network_error', String(err));
    // The session's time ran out unpaid: a calm final state, not an error to retry; the merchant is told as of an error.
    if (e.code === 'session_expired') return host.setView({ state: 'expired' });
    const code = errorCodeOf(e, otherwise);
    // The shopper can do nothing about it; the merchant reads the console while integrating.
    if (code === 'origin_not_allowed') console.error(originNotAllowedHelp(shopperPageOrigin()));
    host.fail(code, e.status === 0 ? null : e.code);
  }

  function showOutcome(outcome: PaymentOutcome, reloaded = false) {
    switch (outcome.status) {
      case 'succeeded':
      case 'authorized':
        return host.setView({ state: 'paid', outcome });
      case 'requires_authentication':
        // Only a page goes in the frame on the merchant's page, never a javascript: or data: URL (the backend refuses them too).
        if (outcome.challenge_url && !isFrameableUrl(outcome.challenge_url)) return host.fail('server_error', 'challenge_url_refused');
        // Without a challenge to show (a frictionless one was under way), confirming finds the outcome.
        return host.setView({ state: outcome.challenge_url ? 'authenticating' : 'confirming', outcome });
      case 'declined':
        return host.setView({ state: 'declined', outcome, reloaded });
      case 'failed':
        return host.fail('payment_failed', outcome.failure_code);
      case 'pending':
        return host.setView({ state: 'confirming', outcome });
    }
  }

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
      showOutcome(res.outcome);
      return res.outcome;
    } catch (err) {
      if (!host.alive()) return null;
      if (isApiError(err) && err.status === 409 && (err.code === 'payment_in_progress' || err.code === 'session_completed')) host.setView({ state: 'confirming' });
      else failCall(err, 'payment_failed');
      return null;
    }
  }

  /** Confirming: the public session, polled until the outcome is final. */
  function pollUntilFinal(): () => void {
    const ctl = new AbortController();
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      try {
        const s = await fetchPublicSession(apiBase, sessionId, clientSecret, ctl.signal);
        if (ctl.signal.aborted) return;
        host.setSession(s);
        if (s.status === 'processing' || s.status === 'pending') {
          // still unknown: keep polling
        } else if (s.outcome && s.outcome.status !== 'pending') {
          return showOutcome(s.outcome);
        } else if (s.status === 'open') {
          return host.fail('payment_not_completed', null);
        }
      } catch (err) {
        if (ctl.signal.aborted) return;
        if (isApiError(err) && (err.status === 401 || err.status === 404 || err.status === 410)) return failCall(err, 'server_error');
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
        const s = await fetchPublicSession(apiBase, sessionId, clientSecret, ctl.signal);
        if (ctl.signal.aborted) return;
        if (isSettledHold(s.status)) {
          host.setSession(s);
          host.setView({ state: s.status, outcome: s.outcome });
          return;
        }
      } catch (err) {
        // The hold stands whatever a failed check says; a session gone or refused will not come back.
        if (ctl.signal.aborted || (isApiError(err) && (err.status === 401 || err.status === 404))) return;
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

  /** The challenge is over (`cancel`: the shopper closed it). */
  function onChallengeEnd(cancel: boolean) {
    if (host.view().state === 'authenticating') void submit((id) => postAuthentication(apiBase, id, clientSecret, cancel ? { cancel: true } : {}));
  }

  /**
   * The page's CSP refused the challenge's frame: the shopper would face an
   * empty dialog. The merchant reads in the console what to allow; the
   * challenge is cancelled at once rather than left to expire, so the session
   * can be paid again (another card, or the page fixed) and nothing is charged.
   */
  function onChallengeBlocked(origin: string) {
    if (host.view().state !== 'authenticating') return;
    console.error(
      `WalletCheckout: this page's Content-Security-Policy blocked the bank's 3-D Secure challenge from ${origin}. ` +
        `Add ${origin} to the policy's frame-src directive, or shoppers whose card needs 3-D Secure cannot pay.`,
    );
    void abandonChallenge('challenge_blocked', origin);
  }

  /** The challenge cannot be shown: cancelled at once, and `code` shown. */
  async function abandonChallenge(code: CheckoutErrorCode, reason: string) {
    if (host.view().state !== 'authenticating') return;
    host.setView({ state: 'processing' });
    // Nothing more to do if the cancel fails: the challenge expires by itself and the session becomes payable again.
    await postAuthentication(apiBase, sessionId, clientSecret, { cancel: true }).catch(() => undefined);
    if (host.alive()) host.fail(code, reason);
  }

  return {
    failCall,

    async onPaymentAuthorized(data) {
      decidedInSheet = true;
      const state = host.view().state;
      if (state !== 'ready' && state !== 'declined') return { transactionState: 'SUCCESS' };
      const outcome = await submit((id) => postPayment(apiBase, id, clientSecret, data));
      if (outcome?.status !== 'declined') return { transactionState: 'SUCCESS' };
      return { transactionState: 'ERROR', error: { reason: 'PAYMENT_DATA_INVALID', intent: 'PAYMENT_AUTHORIZATION', message: declineMessage(host.words() ?? en, outcome.failure_code, outcome.failure_message) ?? en.declined } };
    },

    onPaymentData(data) {
      if (decidedInSheet) {
        decidedInSheet = false;
        return;
      }
      if (host.view().state === 'ready') void submit((id) => postPayment(apiBase, id, clientSecret, data));
    },

    onCancel() {
      decidedInSheet = false;
      if (host.view().state === 'processing') host.setView({ state: 'ready' });
      // A sheet closed after a decline shown in it: the wallet button is hidden, so "Try again" takes the focus.
      if (host.view().state === 'declined') focus('.retry');
      host.cancelled();
    },

    showChallenge(box) {
      const url = host.view().outcome?.challenge_url;
      let closed = false;
      let close: (() => void) | undefined;
      // Its code could not be had (the network, or a chunk that did not match its hash): as a network error, nothing charged.
      const unavailable = () => void (closed || abandonChallenge('network_error', 'challenge_unavailable'));
      if (url) {
        (host.loadChunk('challenge') as Promise<typeof openChallenge | undefined>).then((open) => {
          if (closed) return;
          if (!open) return unavailable();
          close = open(box, {
            url,
            t: host.words() ?? en,
            nonce: host.nonce,
            onDone: () => onChallengeEnd(false),
            onCancel: () => onChallengeEnd(true),
            onBlocked: onChallengeBlocked,
          });
        }, unavailable);
      }
      return () => {
        closed = true;
        close?.();
      };
    },

    resume({ status, outcome }) {
      if (status === 'processing' || status === 'pending') host.setView({ state: 'confirming', outcome });
      // The merchant's server settled the hold itself: nothing to announce to it.
      else if (isSettledHold(status)) host.setView({ state: status, outcome });
      // Declined keeps "Try again"; a failed attempt leaves the session payable, with nothing to show.
      else if (outcome && (status === outcome.status || isPaidStatus(status)) && status !== 'failed') showOutcome(outcome, true);
      return !isPaidStatus(status);
    },

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
      detach(style);
    },
  };
}

/** What the chunk carries (vite.config.ts): the flow, and the rest of English. */
export const afterClick = { paymentFlow, en };
