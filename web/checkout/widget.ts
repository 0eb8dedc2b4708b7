/**
 * The checkout widget: shows the session's amount and the Google Pay button, posts the wallet's
 * PaymentData, and shows the outcome. A controller of plain functions, not a component with hooks:
 * its state is the view of the state table (states.ts, root `[data-checkout-state]`), which moves
 * only through `move`, and every change draws the one view (view.ts) again. It feeds the table
 * what happens: the session's view, the wallet's callbacks, the backend's answers. What follows a
 * click (the payment, 3-D Secure, polling while confirming, hold checks, focus after a result) is
 * payment-flow.ts, a chunk prefetched once the button is up.
 */
import type { PaymentData, PublicSession } from '../../contracts';
import { formatAmount } from '../../contracts/money';
import { BuiltinCustomEvent, BuiltinPromise } from '../../common/browser/builtins';
import { carriedView, embedderOriginOf, fetchPublicSession, isApiError, loadScriptOnce, resolveScriptUrl } from './api';
import { loadChunk, prefetchChunk, whenIdle } from './chunks';
import { directionOf, languageOf } from './locales';
import { enFirstPaint } from './locales/en';
import { addEnglish, loadedMessages, loadMessages, wordsAtHand } from './locales/load';
import type { afterClick, FlowHost, PaymentFlow } from './payment-flow';
import { type Announcement, move, type View, WIDGET_STATES } from './states';
import { paymentsApi } from './readiness';
import type { CheckoutErrorCode, MountOptions } from './types';
import { checkoutView } from './view';
import { createWalletButton, type SheetResult, type WalletButton, type WalletButtonSettings } from './wallet-button';

export interface CheckoutProps {
  /** The merchant's mount element: events are dispatched on it. */
  target: HTMLElement;
  options: MountOptions;
  /** BCP 47 tag of the widget's language and number format. */
  locale: string;
  apiBase: string;
  sessionId: string | null;
}

export interface CheckoutWidget {
  /** New options or locale for the same session and backend (a new one is a new widget). */
  update(props: CheckoutProps): void;
  /** Stops every request, timer and listener, and empties `container`. */
  stop(): void;
}

const hasPaymentsClient = () => !!paymentsApi()?.PaymentsClient;

/** Starts a widget for one session, rendered into `container` (in the widget's shadow root). */
export function startCheckout(initial: CheckoutProps, container: HTMLElement): CheckoutWidget {
  let props = initial;
  const { target, apiBase, sessionId } = initial;
  const clientSecret = initial.options.clientSecret;
  const nonce = () => props.options.nonce;
  // What the locale decides, worked out when it changes rather than on every paint.
  let language = languageOf(initial.locale) ?? 'en';
  let dir = directionOf(language);

  let view: View = { state: 'loading' };
  let session: PublicSession | null = null;
  let walletLoaded = false;
  /** Bumped by "Try again" after an error: reloads the session and the button. */
  let run = 0;
  let alive = true;
  let announcedReady = false;
  /** Moves whose event needs words not here yet: announced once they are, in the words the shopper reads. */
  const unannounced: View[] = [];
  /** The status of the view the page handed over, while it is still to be checked against the backend's. */
  let carriedStatus: PublicSession['status'] | null = null;
  let carriedChecked = false;
  /** The current load of the session and the wallet, and the carried view's check: aborted by a new run or `stop`. */
  let loading = new AbortController();
  let checking: AbortController | undefined;
  /** What follows a click (payment-flow.ts): loading, then here. */
  let flow: Promise<PaymentFlow> | null = null;
  let flowHere: PaymentFlow | null = null;
  /** The wallet's button while one is shown (wallet-button.ts), and the 3-D Secure dialog while one is open. */
  let button: WalletButton | null = null;
  let closeChallenge: (() => void) | undefined;

  function emit({ name, detail }: Announcement) {
    if (alive) target.dispatchEvent(new BuiltinCustomEvent(name, { bubbles: true, composed: true, detail }));
  }
  function announce(moved: View) {
    const announces = WIDGET_STATES[moved.state].announce;
    if (!announces) return;
    const t = wordsAtHand(language);
    const announcement = t && announces(moved, { sessionId, t, en: wordsAtHand('en') ?? enFirstPaint });
    if (announcement === undefined) unannounced.push(moved);
    else if (announcement) emit(announcement);
  }
  /** A language's chunk, or the rest of English, has come: the status line, and the events that waited, are worded. */
  function wordsArrived() {
    paint();
    for (const moved of unannounced.splice(0)) announce(moved);
  }
  /** Moves to `next` if the state table allows it, dispatches the event its row announces, and renders. */
  function setView(next: View) {
    const moved = move(view, next);
    if (moved === view) return;
    view = moved;
    paint();
    announce(moved);
    afterMove();
  }
  function setSession(next: PublicSession | null) {
    session = next;
    paint();
  }
  function fail(code: CheckoutErrorCode, reason: string | null) {
    setView({ state: 'error', code, reason });
  }

  /** Loads the session (and the sandbox wallet when the session asks for it), then the button can show. */
  function load() {
    loading.abort();
    const ctl = (loading = new AbortController());
    session = null;
    walletLoaded = false;
    announcedReady = false;
    setView({ state: 'loading' });
    if (!sessionId) return fail('invalid_client_secret', null);
    // The page's view spares the first load its request; any later one (Try again, a stale view) asks the backend.
    const carried = run === 0 ? carriedView(props.options.sessionView, sessionId) : null;
    carriedStatus = carried?.status ?? null;
    // Drawn at once while the view is asked for; a carried view is drawn once, with its button (below).
    if (!carried) paint();
    void (async () => {
      let s: PublicSession;
      try {
        s = carried ?? (await fetchPublicSession(apiBase, sessionId, clientSecret, ctl.signal));
      } catch (err) {
        // Shown by the after-click chunk; without it, the network is the likeliest reason.
        if (!ctl.signal.aborted) loadFlow().then((f) => f.failCall(err, 'server_error'), () => fail('network_error', null));
        return;
      }
      if (ctl.signal.aborted) return;
      session = s;
      // A session past its start (a reload after an attempt) is placed by the after-click chunk, which knows its statuses.
      if (s.status !== 'open') {
        paint(); // the summary, while the flow comes
        let resumed: PaymentFlow;
        try {
          resumed = await loadFlow();
        } catch (err) {
          if (!ctl.signal.aborted) flowUnavailable(err);
          return;
        }
        if (ctl.signal.aborted) return;
        if (!resumed.resume(s)) return paint(); // paid: no button needed
      }
      try {
        if (s.wallet.environment === 'SANDBOX' && !hasPaymentsClient()) {
          if (!s.wallet.sandbox_script) throw new Error('The session names no sandbox wallet script.');
          // Asked for before the summary is drawn, as pay.js is (wallet-button.ts): the amount's formatting runs while it downloads.
          const walletScript = loadScriptOnce(resolveScriptUrl(s.wallet.sandbox_script, apiBase), nonce());
          paint(); // the summary, while the sandbox wallet's script loads
          await walletScript;
          if (!hasPaymentsClient()) throw new Error('The sandbox wallet did not define PaymentsClient.');
        }
      } catch {
        if (!ctl.signal.aborted && view.state === 'loading') fail('wallet_unavailable', null);
        return;
      }
      if (ctl.signal.aborted) return;
      walletLoaded = true;
      paint();
    })();
    // A page's first Intl.NumberFormat loads the locale's data (16 to 20 ms in Chromium):
    // paid now, while the session is on the network, rather than before the amount can render.
    if (!carried) formatAmount(0, 'USD', 2, props.locale);
  }

  /** After every move: the carried view's check, and the flow, follow the state. */
  function afterMove() {
    // The page's view, once the button is up: if the session has moved on since (paid in another tab,
    // expired), the backend's view replaces it. Nothing is charged on the page's word meanwhile.
    // Once: a later return to the button (after a decline, say) finds the session changed by the shopper's own attempt.
    if (carriedStatus !== null && !carriedChecked && sessionId && (view.state === 'ready' || view.state === 'unavailable')) {
      carriedChecked = true;
      const ctl = (checking = new AbortController());
      // A shopper who paid meanwhile needs no check: the payment's answer says all the view would have.
      const startAgain = () => {
        if (view.state === 'ready' || view.state === 'unavailable') retryLoad();
      };
      // Once the button is drawn: the request never competes with it.
      whenIdle(() => {
        if (!ctl.signal.aborted)
          void fetchPublicSession(apiBase, sessionId, clientSecret, ctl.signal).then(
            (fresh) => fresh.status === carriedStatus || startAgain(),
            (err) => ctl.signal.aborted || (isApiError(err) && err.status !== 0 && startAgain()),
          );
      });
    }
    // The flow follows every move; a state past the first paint needs it (and its words and styles) at once.
    if (flowHere) flowHere.sync(view);
    else if (!WIDGET_STATES[view.state].firstPaint) withFlow(() => undefined);
  }

  function retryLoad() {
    run += 1;
    load();
  }

  /** The wallet's answer: the button, and `checkout:ready` with whether the shopper has a card. */
  function onReady(ready: boolean, paymentMethodPresent: boolean | null) {
    if (!sessionId) return;
    if (!ready) return setView({ state: 'unavailable' });
    // Not after a reloaded decline: its "Try again" brings the button back.
    if (view.state === 'loading' || view.state === 'unavailable') setView({ state: 'ready' });
    if (announcedReady) return;
    announcedReady = true;
    prefetchChunk('challenge', nonce());
    prefetchChunk('payment-flow', nonce());
    emit({ name: 'checkout:ready', detail: { sessionId, paymentMethodPresent } });
  }

  /** The flow, loaded once (prefetched when the button came up, so normally here already). */
  function loadFlow(): Promise<PaymentFlow> {
    if (!sessionId) return BuiltinPromise.reject(new Error('Wallet Checkout: no session to pay'));
    const host: FlowHost = {
      apiBase,
      sessionId,
      clientSecret,
      embedderOrigin: embedderOriginOf(),
      nonce: nonce(),
      view: () => view,
      setView,
      setSession,
      fail,
      loadChunk: (name) => loadChunk(name, nonce()),
      words: () => loadedMessages(language),
      cancelled: () => emit({ name: 'checkout:cancel', detail: { sessionId } }),
      alive: () => alive,
      root: () => drawn.root,
    };
    return (flow ??= (loadChunk('payment-flow', nonce()) as Promise<typeof afterClick | undefined>).then(
      (chunk) => {
        if (!chunk) throw new Error('Wallet Checkout: the payment flow chunk carried nothing');
        addEnglish(chunk.en);
        const created = (flowHere = chunk.paymentFlow(host));
        created.sync(view);
        wordsArrived();
        return created;
      },
      (err: unknown) => {
        flow = null; // the next click tries again
        throw err;
      },
    ));
  }
  /** The flow's code cannot be had: nothing is paid, and the shopper is told as of a network error. */
  function flowUnavailable(err: unknown) {
    console.error(err instanceof Error ? err.message : err);
    if (alive) fail('network_error', 'payment_unavailable');
  }
  function withFlow(use: (flow: PaymentFlow) => unknown): void {
    loadFlow().then(use, flowUnavailable);
  }

  const wallet = {
    onReady,
    // Without the flow the sheet closes, and the page says why.
    onPaymentAuthorized: (data: PaymentData): Promise<SheetResult> =>
      loadFlow().then(
        (f) => f.onPaymentAuthorized(data),
        (err: unknown) => (flowUnavailable(err), { transactionState: 'SUCCESS' as const }),
      ),
    onPaymentData: (data: PaymentData) => withFlow((f) => f.onPaymentData(data)),
    onCancel: () => withFlow((f) => f.onCancel()),
    onError: (err: { statusCode?: string }) => fail('wallet_error', err.statusCode ?? null),
  };

  function retry() {
    // After a blocked challenge the session is payable again and the wallet still loaded, as after a decline.
    if (view.state === 'declined' || view.code === 'challenge_blocked') setView({ state: 'ready' });
    else retryLoad();
  }

  /** The dialog's box was drawn (an `authenticating` view with a challenge), or taken away: the flow opens the dialog in it. */
  function challengeBox(box: HTMLDivElement | null) {
    closeChallenge?.();
    closeChallenge = undefined;
    if (!box) return;
    let closed = false;
    closeChallenge = () => void (closed = true);
    withFlow((f) => closed || (closeChallenge = f.showChallenge(box)));
  }

  const drawn = checkoutView(container, { challengeBox, onRetry: retry });

  function buttonSettings(s: PublicSession): WalletButtonSettings {
    return {
      environment: s.wallet.environment === 'SANDBOX' ? 'TEST' : s.wallet.environment,
      paymentRequest: s.payment_data_request,
      options: props.options,
      language,
    };
  }

  function paint() {
    if (!alive) return;
    const showButton = !!session && walletLoaded && WIDGET_STATES[view.state].button !== 'removed';
    const settings = session && buttonSettings(session);
    if (!showButton || !settings) {
      button?.element.remove();
      button = null;
    } else if (button) button.configure(settings);
    else button = createWalletButton(settings, session?.wallet.environment !== 'TEST', wallet);
    drawn.draw({
      view,
      session,
      button: button?.element ?? null,
      words: wordsAtHand(language),
      locale: props.locale,
      dir,
      fill: props.options.buttonSizeMode === 'fill',
    });
  }

  function useLanguage() {
    if (language === 'en' || loadedMessages(language)) return;
    void loadMessages(language, nonce()).then(() => alive && wordsArrived());
  }

  useLanguage();
  load();

  return {
    update(next) {
      const wanted = languageOf(next.locale) ?? 'en';
      props = next;
      if (wanted !== language) {
        language = wanted;
        dir = directionOf(language);
        useLanguage();
      }
      paint();
    },
    stop() {
      alive = false;
      loading.abort();
      checking?.abort();
      flowHere?.stop();
      closeChallenge?.();
      button?.element.remove();
      drawn.remove();
    },
  };
}
