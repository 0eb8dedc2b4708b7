/**
 * The checkout widget: loads the session's public view, shows the amount and
 * the Google Pay button, posts the wallet's PaymentData, and shows the outcome.
 *
 * Its states, their moves, words and events are the table of states.ts (root
 * `[data-checkout-state]`); this component feeds it what happens: the
 * session's view, the wallet's callbacks, the backend's answers. confirming
 * polls the session every 2 s until the outcome is final; paid (a hold)
 * checks it now and then for a capture or release (HOLD_CHECK_*).
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { PaymentData, PaymentOutcome, PublicSession } from '../../server/contracts';
import { isFrameableUrl } from '../../server/contracts/urls';
import { CheckoutApiError, carriedView, errorCodeOf, fetchPublicSession, loadScriptOnce, type PayResponse, postAuthentication, postPayment, resolveScriptUrl, shopperPageOrigin } from './api';
import { Challenge, prefetchChallenge } from './Challenge';
import { formatAmount } from '../../server/contracts/money';
import { describeCard } from './format';
import { declineMessage, LANGUAGES, languageOf } from './locales';
import { loadedMessages, loadMessages } from './locales/load';
import { en } from './locales/en';
import { type Announcement, isPaidStatus, move, type View, WIDGET_STATES } from './states';
import type { CheckoutErrorCode, MountOptions } from './types';
import { type SheetResult, WalletButton, type WalletError } from './WalletButton';

const POLL_MS = 2000;
/**
 * A hold is captured or released whenever the merchant ships or cancels, often
 * long after the shopper left: check soon after paying, then less and less
 * often (at most once a minute per open tab), not at all while the tab is
 * hidden, and at once when it is shown again.
 */
const HOLD_CHECK_FIRST_MS = 5_000;
const HOLD_CHECK_MAX_MS = 60_000;

/** A hold the merchant has since captured or released: the widget's state of the same name. */
const isSettledHold = (status: PublicSession['status']): status is 'captured' | 'released' => status === 'captured' || status === 'released';

export interface CheckoutProps {
  /** The merchant's mount element: events are dispatched on it. */
  target: HTMLElement;
  options: MountOptions;
  /** BCP 47 tag of the widget's language and number format. */
  locale: string;
  apiBase: string;
  sessionId: string | null;
}

const hasPaymentsClient = () =>
  !!(window as { google?: { payments?: { api?: { PaymentsClient?: unknown } } } }).google?.payments?.api?.PaymentsClient;

/** For the merchant's console: which origin was refused, and how to allow it. */
export const originNotAllowedHelp = (origin: string) =>
  `Wallet Checkout: this page's origin (${origin}) is not one of the allowed origins of the checkout's application, so the checkout refused it. ` +
  `Add ${origin} to the application's allowed origins (npm run app:update -- --app APP_ID --origin ${origin}); see docs/embedding.md.`;

const asApiError = (err: unknown) => (err instanceof CheckoutApiError ? err : new CheckoutApiError(0, 'network_error', String(err)));

export function Checkout({ target, options, locale, apiBase, sessionId }: CheckoutProps) {
  const [session, setSession] = useState<PublicSession | null>(null);
  const [view, setViewState] = useState<View>({ state: 'loading' });
  const [walletLoaded, setWalletLoaded] = useState(false);
  /** Bumped by "Try again" after an error: reloads the session and the button. */
  const [run, setRun] = useState(0);
  /** The status of the view the page handed over, while it is still to be checked against the backend's. */
  const carriedStatus = useRef<PublicSession['status'] | null>(null);
  const carriedChecked = useRef(false);
  const viewRef = useRef(view);
  const alive = useRef(true);
  const announcedReady = useRef(false);
  /** The wallet's sheet is deciding the payment (onPaymentAuthorized ran): its result is shown there, and its return needs no second payment. */
  const decidedInSheet = useRef(false);
  const root = useRef<HTMLDivElement>(null);
  const previousState = useRef(view.state);
  const clientSecret = options.clientSecret;
  const language = languageOf(locale);
  /** The language's words, once its chunk is here; until then (a few ms) the status line is blank, never in another language. */
  const [words, setWords] = useState(() => loadedMessages(language));
  const t = words ?? en;

  function emit({ name, detail }: Announcement) {
    if (alive.current) target.dispatchEvent(new CustomEvent(name, { bubbles: true, composed: true, detail }));
  }
  /** Moves made before the language's words arrived: announced once they have, in the words the shopper reads. */
  const unannounced = useRef<View[]>([]);
  function announce(moved: View, messages = loadedMessages(language)) {
    if (!messages) return void unannounced.current.push(moved);
    const announcement = WIDGET_STATES[moved.state].announce?.(moved, { sessionId, t: messages, en });
    if (announcement) emit(announcement);
  }
  /** Moves to `next` if the state table allows it, and dispatches the event its row announces. */
  const setView = (next: View) => {
    const moved = move(viewRef.current, next);
    if (moved === viewRef.current) return;
    viewRef.current = moved;
    setViewState(moved);
    announce(moved);
  };
  function fail(code: CheckoutErrorCode, reason: string | null) {
    // The shopper can do nothing about it; the merchant reads the console while integrating.
    if (code === 'origin_not_allowed') console.error(originNotAllowedHelp(shopperPageOrigin()));
    setView({ state: 'error', code, reason });
  }
  function failCall(err: unknown, otherwise: CheckoutErrorCode) {
    const e = asApiError(err);
    if (e.code === 'session_expired') return expire();
    fail(errorCodeOf(e, otherwise), e.status === 0 ? null : e.code);
  }
  /** The session's time ran out unpaid: a calm final state, not an error to retry; the merchant is told as of an error. */
  function expire() {
    setView({ state: 'expired' });
  }

  /**
   * Shows a payment outcome (from /pay, a poll, or a reloaded session).
   * `reloaded`: the outcome of an earlier page; only success is re-announced.
   */
  function showOutcome(outcome: PaymentOutcome, reloaded = false) {
    if (!sessionId) return;
    switch (outcome.status) {
      case 'succeeded':
      case 'authorized':
        setView({ state: 'paid', outcome });
        return;
      case 'requires_authentication':
        // Only a page goes in the frame on the merchant's page, never a javascript: or data: URL (the backend refuses them too).
        if (outcome.challenge_url && !isFrameableUrl(outcome.challenge_url)) return fail('server_error', 'challenge_url_refused');
        // Without a challenge to show (a frictionless one was under way), confirming finds the outcome.
        setView({ state: outcome.challenge_url ? 'authenticating' : 'confirming', outcome });
        return;
      case 'declined':
        setView({ state: 'declined', outcome, reloaded });
        return;
      case 'failed':
        fail('payment_failed', outcome.failure_code);
        return;
      case 'pending':
        setView({ state: 'confirming', outcome });
        return;
    }
  }

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  useEffect(() => {
    const here = loadedMessages(language);
    setWords(here);
    if (!here) {
      void loadMessages(language, options.nonce).then((loaded) => {
        if (!alive.current) return;
        setWords(loaded);
        for (const moved of unannounced.current.splice(0)) announce(moved, loaded);
      });
    }
  }, [language]);

  // Load the session (and the sandbox wallet when the session asks for it). A layout
  // effect: the request starts right after the first render, not a frame later.
  useLayoutEffect(() => {
    setSession(null);
    setWalletLoaded(false);
    announcedReady.current = false;
    setView({ state: 'loading' });
    if (!sessionId) {
      fail('invalid_client_secret', null);
      return;
    }
    const ctl = new AbortController();
    // The page's view spares the first load its request; any later one (Try again, a stale view) asks the backend.
    const carried = run === 0 ? carriedView(options.sessionView, sessionId) : null;
    carriedStatus.current = carried?.status ?? null;
    (async () => {
      let s: PublicSession;
      try {
        s = carried ?? (await fetchPublicSession(apiBase, sessionId, clientSecret, ctl.signal));
      } catch (err) {
        if (!ctl.signal.aborted) failCall(err, 'server_error');
        return;
      }
      if (ctl.signal.aborted) return;
      setSession(s);
      if (s.status === 'processing' || s.status === 'pending') setView({ state: 'confirming', outcome: s.outcome });
      // The merchant's server settled the hold itself: nothing to announce to it.
      else if (isSettledHold(s.status)) setView({ state: s.status, outcome: s.outcome });
      else if (s.outcome && (s.status === s.outcome.status || isPaidStatus(s.status)) && s.status !== 'failed') {
        // A reload after an attempt: show its outcome (declined keeps "Try again").
        showOutcome(s.outcome, true);
      }
      if (isPaidStatus(s.status)) return; // no button needed
      try {
        if (s.wallet.environment === 'SANDBOX' && !hasPaymentsClient()) {
          if (!s.wallet.sandbox_script) throw new Error('The session names no sandbox wallet script.');
          await loadScriptOnce(resolveScriptUrl(s.wallet.sandbox_script, apiBase), options.nonce);
          if (!hasPaymentsClient()) throw new Error('The sandbox wallet did not define PaymentsClient.');
        }
      } catch {
        if (!ctl.signal.aborted && viewRef.current.state === 'loading') fail('wallet_unavailable', null);
        return;
      }
      if (!ctl.signal.aborted) setWalletLoaded(true);
    })();
    // A page's first Intl.NumberFormat loads the locale's data (16 to 20 ms in Chromium):
    // paid now, while the session is on the network, rather than before the amount can render.
    formatAmount(0, 'USD', 2, locale);
    return () => ctl.abort();
  }, [apiBase, sessionId, clientSecret, run]);

  // The page's view, once the button is up: if the session has moved on since (paid in another tab,
  // expired), the backend's view replaces it. Nothing is charged on the page's word meanwhile.
  const checkingCarried = carriedStatus.current !== null && (view.state === 'ready' || view.state === 'unavailable');
  useEffect(() => {
    // Once: a later return to the button (after a decline, say) finds the session changed by the shopper's own attempt.
    if (!checkingCarried || carriedChecked.current || !sessionId) return;
    carriedChecked.current = true;
    const ctl = new AbortController();
    void fetchPublicSession(apiBase, sessionId, clientSecret, ctl.signal).then(
      (fresh) => fresh.status === carriedStatus.current || startAgain(),
      (err) => ctl.signal.aborted || (err instanceof CheckoutApiError && err.status !== 0 && startAgain()),
    );
    // A shopper who paid meanwhile needs no check: the payment's answer says all the view would have.
    function startAgain() {
      if (viewRef.current.state === 'ready' || viewRef.current.state === 'unavailable') setRun((n) => n + 1);
    }
    return () => ctl.abort();
  }, [checkingCarried, apiBase, sessionId, clientSecret]);

  // Confirming: poll the public session until the outcome is final.
  useEffect(() => {
    if (view.state !== 'confirming' || !sessionId) return;
    const ctl = new AbortController();
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      try {
        const s = await fetchPublicSession(apiBase, sessionId, clientSecret, ctl.signal);
        if (ctl.signal.aborted) return;
        setSession(s);
        if (s.status === 'processing' || s.status === 'pending') {
          // still unknown: keep polling
        } else if (s.outcome && s.outcome.status !== 'pending') {
          return showOutcome(s.outcome);
        } else if (s.status === 'open') {
          return fail('payment_not_completed', null);
        }
      } catch (err) {
        if (ctl.signal.aborted) return;
        if (err instanceof CheckoutApiError && (err.status === 401 || err.status === 404 || err.status === 410)) return failCall(err, 'server_error');
        // transient: keep polling
      }
      timer = setTimeout(tick, POLL_MS);
    };
    timer = setTimeout(tick, POLL_MS);
    return () => {
      ctl.abort();
      clearTimeout(timer);
    };
  }, [view.state, apiBase, sessionId, clientSecret]);

  // A hold: show it captured or released once the merchant's server has done so.
  const waitingForHold = view.state === 'paid' && view.outcome?.status === 'authorized';
  useEffect(() => {
    if (!waitingForHold || !sessionId) return;
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
          setSession(s);
          setView({ state: s.status, outcome: s.outcome });
          return;
        }
      } catch (err) {
        // The hold stands whatever a failed check says; a session gone or refused will not come back.
        if (ctl.signal.aborted || (err instanceof CheckoutApiError && (err.status === 401 || err.status === 404))) return;
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
  }, [waitingForHold, apiBase, sessionId, clientSecret]);

  // Keyboard users keep their place: the wallet button hides while paying, so
  // focus goes to "Try again" when it appears, and back to the wallet after it.
  useEffect(() => {
    const before = previousState.current;
    previousState.current = view.state;
    if (before === 'processing' && (view.state === 'declined' || view.state === 'error') && !decidedInSheet.current) root.current?.querySelector<HTMLElement>('.retry')?.focus();
    if ((before === 'declined' || before === 'error') && view.state === 'ready') root.current?.querySelector<HTMLElement>('.wallet button')?.focus();
  }, [view.state]);

  /** The button shows at once; `checkout:ready` follows once the wallet has said whether the shopper has a card. */
  function onReady(ready: boolean, paymentMethodPresent: Promise<boolean | null>) {
    if (!sessionId) return;
    if (!ready) return setView({ state: 'unavailable' });
    // Not after a reloaded decline: its "Try again" brings the button back.
    if (viewRef.current.state === 'loading' || viewRef.current.state === 'unavailable') setView({ state: 'ready' });
    if (announcedReady.current) return;
    announcedReady.current = true;
    prefetchChallenge(options.nonce);
    void paymentMethodPresent.then((present) => emit({ name: 'checkout:ready', detail: { sessionId, paymentMethodPresent: present } }));
  }

  /**
   * Sends a payment step and shows its outcome. A 409 means another tab or
   * click got there first (in progress, or already paid): confirming reads the
   * session's own outcome rather than reporting an error for a paid order.
   */
  async function submit(call: (id: string) => Promise<PayResponse>): Promise<PaymentOutcome | null> {
    if (!sessionId) return null;
    setView({ state: 'processing' });
    try {
      const res = await call(sessionId);
      if (!alive.current) return null;
      setSession(res.session);
      showOutcome(res.outcome);
      return res.outcome;
    } catch (err) {
      if (!alive.current) return null;
      if (err instanceof CheckoutApiError && err.status === 409 && (err.code === 'payment_in_progress' || err.code === 'session_completed')) setView({ state: 'confirming' });
      else failCall(err, 'payment_failed');
      return null;
    }
  }

  /**
   * The sheet stays open while the backend charges. A decline goes back into
   * it (the shopper picks another card there); anything else closes it and
   * the page shows the rest: paid, a 3-D Secure challenge, confirming, an error.
   */
  async function onPaymentAuthorized(data: PaymentData): Promise<SheetResult> {
    decidedInSheet.current = true;
    const state = viewRef.current.state;
    if (state !== 'ready' && state !== 'declined') return { transactionState: 'SUCCESS' };
    const outcome = await submit((id) => postPayment(apiBase, id, clientSecret, data));
    if (outcome?.status !== 'declined') return { transactionState: 'SUCCESS' };
    const message = declineMessage(t, outcome.failure_code, outcome.failure_message);
    return { transactionState: 'ERROR', error: { reason: 'PAYMENT_DATA_INVALID', intent: 'PAYMENT_AUTHORIZATION', message } };
  }

  function onPaymentData(data: PaymentData) {
    if (decidedInSheet.current) {
      decidedInSheet.current = false;
      return;
    }
    if (viewRef.current.state === 'ready') void submit((id) => postPayment(apiBase, id, clientSecret, data));
  }

  /** The challenge is over (`cancel`: the shopper closed it): the backend asks the service and finishes or declines the payment. */
  function onChallengeEnd(cancel: boolean) {
    if (viewRef.current.state === 'authenticating') void submit((id) => postAuthentication(apiBase, id, clientSecret, cancel ? { cancel: true } : {}));
  }

  /**
   * The page's CSP refused the challenge's frame: the shopper would face an
   * empty dialog. The merchant reads in the console what to allow; the
   * challenge is cancelled at once rather than left to expire, so the session
   * can be paid again (another card, or the page fixed) and nothing is charged.
   */
  function onChallengeBlocked(origin: string) {
    if (viewRef.current.state !== 'authenticating') return;
    console.error(
      `WalletCheckout: this page's Content-Security-Policy blocked the bank's 3-D Secure challenge from ${origin}. ` +
        `Add ${origin} to the policy's frame-src directive, or shoppers whose card needs 3-D Secure cannot pay.`,
    );
    void abandonChallenge('challenge_blocked', origin);
  }

  /** The challenge cannot be shown: cancelled at once rather than left to expire, so the session can be paid again and nothing is charged. */
  async function abandonChallenge(code: CheckoutErrorCode, reason: string) {
    if (viewRef.current.state !== 'authenticating' || !sessionId) return;
    setView({ state: 'processing' });
    // Nothing more to do if the cancel fails: the challenge expires by itself and the session becomes payable again.
    await postAuthentication(apiBase, sessionId, clientSecret, { cancel: true }).catch(() => undefined);
    if (alive.current) fail(code, reason);
  }

  function onCancel() {
    if (!sessionId) return;
    decidedInSheet.current = false;
    if (viewRef.current.state === 'processing') setView({ state: 'ready' });
    // A sheet closed after a decline shown in it: the wallet button is hidden, so "Try again" takes the focus.
    if (viewRef.current.state === 'declined') root.current?.querySelector<HTMLElement>('.retry')?.focus();
    emit({ name: 'checkout:cancel', detail: { sessionId } });
  }

  function onWalletError(err: WalletError) {
    fail('wallet_error', err.statusCode ?? null);
  }

  function retry() {
    // After a blocked challenge the session is payable again and the wallet still loaded, as after a decline.
    if (view.state === 'declined' || view.code === 'challenge_blocked') setView({ state: 'ready' });
    else setRun((n) => n + 1);
  }

  const { state } = view;
  const row = WIDGET_STATES[state];
  const card = row.showsCard && view.outcome?.card;
  const showButton = !!session && walletLoaded && row.button !== 'removed';

  return (
    <div
      ref={root}
      class="wc"
      lang={locale}
      dir={LANGUAGES[language]}
      data-checkout-state={state}
      aria-busy={!!row.busy}
    >
      {session && (
        <div class="summary">
          <span class="merchant" data-testid="merchant">{session.merchant_name}</span>
          <span class="amount" data-testid="amount">{formatAmount(session.amount_captured ?? session.amount, session.currency, session.currency_exponent, locale)}</span>
          {session.description && <p class="desc">{session.description}</p>}
        </div>
      )}
      {showButton && (
        <WalletButton
          environment={session.wallet.environment === 'SANDBOX' ? 'TEST' : session.wallet.environment}
          paymentRequest={session.payment_data_request}
          options={options}
          language={locale.split(/[-_]/)[0] ?? 'en'}
          hidden={row.button !== 'shown'}
          knowsPaymentMethods={session.wallet.environment !== 'TEST'}
          onReady={onReady}
          onPaymentAuthorized={onPaymentAuthorized}
          onPaymentData={onPaymentData}
          onCancel={onCancel}
          onError={onWalletError}
        />
      )}
      <p class="status" role="status" aria-live="polite" data-testid="status">
        {row.busy && <span class="spinner" aria-hidden="true" />}
        {words && row.words(words, view)}
        {card && <span class="card" data-testid="card">{describeCard(card)}</span>}
      </p>
      {row.challenge && view.outcome?.challenge_url && (
        <Challenge
          url={view.outcome.challenge_url}
          t={t}
          nonce={options.nonce}
          onDone={() => onChallengeEnd(false)}
          onCancel={() => onChallengeEnd(true)}
          onBlocked={onChallengeBlocked}
          // Its code could not be had (the network, or a chunk that did not match its hash): as a network error, nothing charged.
          onUnavailable={() => void abandonChallenge('network_error', 'challenge_unavailable')}
        />
      )}
      {row.retry && (
        <button type="button" class="retry" data-testid="retry" onClick={retry}>
          {words?.retry}
        </button>
      )}
    </div>
  );
}
