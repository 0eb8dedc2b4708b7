/**
 * The checkout widget: loads the session's public view, shows the amount and
 * the Google Pay button, posts the wallet's PaymentData, and shows the outcome.
 *
 * Its states, their moves, words and events are the table of states.ts (root
 * `[data-checkout-state]`); this component feeds it what happens: the
 * session's view, the wallet's callbacks, the backend's answers. What follows a click (the
 * payment, 3-D Secure, polling while confirming, hold checks, focus after a
 * result) is payment-flow.ts, a chunk prefetched once the button is up.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { PaymentData, PaymentOutcome, PublicSession } from '../../server/contracts';
import { isFrameableUrl } from '../../server/contracts/urls';
import { CheckoutApiError, carriedView, errorCodeOf, fetchPublicSession, loadScriptOnce, postAuthentication, postPayment, resolveScriptUrl, shopperPageOrigin } from './api';
import { Challenge } from './Challenge';
import { loadChunk, prefetchChunk } from './chunks';
import { formatAmount } from '../../server/contracts/money';
import { describeCard } from './format';
import { declineMessage, LANGUAGES, languageOf } from './locales';
import { loadedMessages, loadMessages } from './locales/load';
import { en } from './locales/en';
import type { FlowHost, PaymentFlow, paymentFlow } from './payment-flow';
import { type Announcement, isPaidStatus, isSettledHold, move, type View, WIDGET_STATES } from './states';
import type { CheckoutErrorCode, MountOptions } from './types';
import { type SheetResult, WalletButton, type WalletError } from './WalletButton';

/** The backend calls the flow makes: this bundle's, which in iframe mode name the embedding page (api.ts). */
const flowApi: FlowHost['api'] = { fetchPublicSession, postPayment, postAuthentication, isApiError: (err): err is CheckoutApiError => err instanceof CheckoutApiError };

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
  const root = useRef<HTMLDivElement>(null);
  /** What follows a click (payment-flow.ts): loading, then here. */
  const flow = useRef<Promise<PaymentFlow> | null>(null);
  const flowHere = useRef<PaymentFlow | null>(null);
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

  // The flow follows every move; a page that opens on a payment being confirmed or a hold needs it at once.
  useEffect(() => {
    if (flowHere.current) flowHere.current.sync(view);
    else if (view.state === 'confirming' || (view.state === 'paid' && view.outcome?.status === 'authorized')) withFlow(() => undefined);
  }, [view]);
  useEffect(() => () => flowHere.current?.stop(), []);

  /** The button shows at once; `checkout:ready` follows once the wallet has said whether the shopper has a card. */
  function onReady(ready: boolean, paymentMethodPresent: Promise<boolean | null>) {
    if (!sessionId) return;
    if (!ready) return setView({ state: 'unavailable' });
    // Not after a reloaded decline: its "Try again" brings the button back.
    if (viewRef.current.state === 'loading' || viewRef.current.state === 'unavailable') setView({ state: 'ready' });
    if (announcedReady.current) return;
    announcedReady.current = true;
    prefetchChunk('challenge', options.nonce);
    prefetchChunk('payment-flow', options.nonce);
    void paymentMethodPresent.then((present) => emit({ name: 'checkout:ready', detail: { sessionId, paymentMethodPresent: present } }));
  }

  /**
   * The flow, loaded once (prefetched when the button came up, so normally here already). Its
   * host reads the latest render's functions: the words, say, change with the language.
   */
  const latest = useRef({ setView, fail, failCall, showOutcome, t, emit });
  latest.current = { setView, fail, failCall, showOutcome, t, emit };
  function loadFlow(): Promise<PaymentFlow> {
    if (!sessionId) return Promise.reject(new Error('Wallet Checkout: no session to pay'));
    const host: FlowHost = {
      apiBase,
      sessionId,
      clientSecret,
      api: flowApi,
      view: () => viewRef.current,
      setView: (next) => latest.current.setView(next),
      setSession,
      showOutcome: (outcome) => latest.current.showOutcome(outcome),
      fail: (code, reason) => latest.current.fail(code, reason),
      failCall: (err, otherwise) => latest.current.failCall(err, otherwise),
      declineMessage: (outcome) => declineMessage(latest.current.t, outcome.failure_code, outcome.failure_message),
      cancelled: () => latest.current.emit({ name: 'checkout:cancel', detail: { sessionId } }),
      alive: () => alive.current,
      root: () => root.current,
    };
    return (flow.current ??= (loadChunk('payment-flow', options.nonce) as Promise<typeof paymentFlow | undefined>).then(
      (create) => {
        if (!create) throw new Error('Wallet Checkout: the payment flow chunk carried nothing');
        const created = create(host);
        created.sync(viewRef.current);
        return (flowHere.current = created);
      },
      (err: unknown) => {
        flow.current = null; // the next click tries again
        throw err;
      },
    ));
  }
  /** The flow's code cannot be had: nothing is paid, and the shopper is told as of a network error. */
  function flowUnavailable(err: unknown) {
    console.error(err instanceof Error ? err.message : err);
    if (alive.current) fail('network_error', 'payment_unavailable');
  }
  function withFlow(use: (flow: PaymentFlow) => unknown): void {
    loadFlow().then(use, flowUnavailable);
  }
  // Without the flow the sheet closes, and the page says why.
  const onPaymentAuthorized = (data: PaymentData): Promise<SheetResult> =>
    loadFlow().then(
      (f) => f.onPaymentAuthorized(data),
      (err: unknown) => (flowUnavailable(err), { transactionState: 'SUCCESS' }),
    );
  const onPaymentData = (data: PaymentData) => withFlow((f) => f.onPaymentData(data));
  const onCancel = () => withFlow((f) => f.onCancel());

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
          onDone={() => withFlow((f) => f.onChallengeEnd(false))}
          onCancel={() => withFlow((f) => f.onChallengeEnd(true))}
          onBlocked={(origin) => withFlow((f) => f.onChallengeBlocked(origin))}
          // Its code could not be had (the network, or a chunk that did not match its hash): as a network error, nothing charged.
          onUnavailable={() => withFlow((f) => f.abandonChallenge('network_error', 'challenge_unavailable'))}
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
