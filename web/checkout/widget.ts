/**
 * The checkout widget's controller: it owns the mount's state (the view of the state table,
 * states.ts, root `[data-checkout-state]`, which moves only through `move`; the session; the
 * wallet's readiness) and performs the mount's decisions (mount-decide.ts, pure) with its glue:
 * the session's loads and checks (mount-load.ts), the language and the events moves announce
 * (mount-words.ts), the payment flow (flow-loader.ts; payment-flow.ts is a chunk prefetched once
 * the button is up), the DOM and the wallet's button (widget-paint.ts: every change draws the one
 * view again). The seams pass positional functions: this ships in the first script, where the
 * names of an object of callbacks would be paid before the button shows.
 */
import type { PublicSession } from '../../contracts';
import { formatAmount } from '../../contracts/money';
import { carriedView, embedderOriginOf, fetchPublicSession } from './api';
import { loadChunk, prefetchChunk, whenIdle } from './chunks';
import { flowLoader } from './flow-loader';
import { loadedMessages } from './locales/load';
import { CLICK_WAIT_MS, checksCarried, clickWaitsFor, isStale, LOADING, opensForClick, readyView, retryView, VIEW_LATE } from './mount-decide';
import { checkCarried, loadSession } from './mount-load';
import { widgetWords } from './mount-words';
import { walletHere } from './readiness';
import { sandboxWalletReady } from './sandbox-wallet';
import { move, type View } from './states';
import { painter } from './widget-paint';
import type { CheckoutProps, CheckoutWidget } from './widget-props';

/** Starts a widget for one session, rendered into `container` (in the widget's shadow root). */
export function startCheckout(initial: CheckoutProps, container: HTMLElement): CheckoutWidget {
  let props = initial;
  const { target, apiBase, sessionId } = initial;
  const clientSecret = initial.options.clientSecret;
  const nonce = () => props.options.nonce;
  let view: View = { state: 'loading' };
  let session: PublicSession | null = null;
  let walletLoaded = false;
  let alive = true;
  let announcedReady = false;
  /** When the shopper clicked the button drawn before the session's view, while that click waits for it (performance.now()). */
  let clickedAt: number | undefined;
  /** The status of the view the page handed over (the first run's), and whether it was checked against the backend's. */
  let carried: PublicSession['status'] | null = null;
  let carriedChecked = false;
  /** The current load (aborted by a new one or `stop`), and the carried view's check. */
  let loading = new AbortController();
  let checking: AbortController | undefined;
  const [announce, emit, wordsArrived, speak, language] = widgetWords(target, sessionId, nonce, () => alive, paint);
  const fetchSession = (signal: AbortSignal, sent?: () => void) => fetchPublicSession(apiBase, sessionId!, clientSecret, signal, sent);

  /** Moves to `next` (if any, and if the state table allows it), draws, announces; the carried view's check and the payment flow follow. */
  function setView(next: View | undefined) {
    const moved = next ? move(view, next) : view;
    if (moved === view) return;
    view = moved;
    paint();
    announce(moved);
    if (checksCarried(view, carried, carriedChecked)) {
      carriedChecked = true;
      checking = checkCarried(fetchSession, (answer) => isStale(view, carried, answer) && load(1));
    }
    followFlow(view);
  }

  // The widget as the payment flow sees it (flow-host.ts).
  /** The saved card's agreement as the widget last drew it (a session that keeps the card), with its id. */
  let agreementShown: { id: string; text: string } | undefined;
  const [loadFlow, flowUnavailable, followFlow, flowHandlers, stopFlow, agreementIn] = flowLoader(
    () => ({
      apiBase, sessionId: sessionId!, clientSecret, embedderOrigin: embedderOriginOf(), nonce: nonce(),
      view: () => view, setView, setSession: (s) => ((session = s), paint()),
      loadChunk: (name) => loadChunk(name, nonce()), words: () => loadedMessages(language()), agreementShown: () => agreementShown?.id,
      cancelled: () => emit({ name: 'checkout:cancel', detail: { sessionId: sessionId! } }),
      alive: () => alive, root: () => drawn.root,
    }),
    wordsArrived,
  );

  /** Loads the session and the wallet (`run` 0: the first, which may take the page's view), then the button can show. */
  function load(run: number) {
    loading.abort();
    const { signal } = (loading = new AbortController());
    session = null;
    walletLoaded = announcedReady = false;
    clickedAt = undefined;
    setView(LOADING);
    if (!sessionId) return setView({ state: 'error', code: 'invalid_client_secret', reason: null });
    // The page's view spares the first load its request; any later one (Try again, a stale view) asks the backend.
    const taken = run === 0 ? carriedView(props.options.sessionView, sessionId) : null;
    carried = taken?.status ?? null;
    // Drawn at once while the view is asked for; a carried view is drawn once, with its button.
    if (!taken) paint();
    void loadSession(
      signal, taken, (sent) => fetchSession(signal, sent), loadFlow,
      (s) => sandboxWalletReady(s, apiBase, nonce(), paint), // the summary is drawn while the sandbox wallet's script loads
      (s, draw) => {
        session = s;
        if (!clickWaitsFor(s)) clickedAt = undefined;
        // The agreement is shown before the button, in the shopper's words, which the after-click chunk has: wanted at once.
        if (s.save_payment_method) loadFlow().catch(flowUnavailable);
        // A session past its start is placed by the payment flow from `loading`, without a button until it says one is wanted
        // (walletReady), as ever: a button drawn before the view goes.
        if (draw) {
          walletLoaded = false;
          setView(LOADING);
          paint();
        }
      },
      // A failed load is shown by the after-click chunk; without it, the network is the likeliest reason.
      (err, unavailable) => {
        clickedAt = undefined;
        walletLoaded = false;
        setView(LOADING);
        if (unavailable) flowUnavailable(err);
        else loadFlow().then((f) => f.failCall(err, 'server_error'), () => setView({ state: 'error', code: 'network_error', reason: null }));
      },
      (ready) => {
        if (ready) {
          walletLoaded = true;
          paint();
        } else if (view.state === 'loading') setView({ state: 'error', code: 'wallet_unavailable', reason: null });
      },
      () => {
        // The view's request has left: a wallet already on the page is asked now, with the product's card method, and its
        // button drawn before the view arrives (wallet-button.ts); the session's own request is asked once it is here.
        if (walletHere()) {
          walletLoaded = true;
          paint();
        }
        // A page's first Intl.NumberFormat loads the locale's data (16 to 20 ms in Chromium): paid while the view is on the
        // network (its view key is digested first, api.ts), after that button, and not before the amount can render.
        whenIdle(() => formatAmount(0, 'USD', 2, props.locale));
      },
    );
  }

  const drawn = painter(container, {
    ...flowHandlers,
    onRetry: () => {
      const back = retryView(view);
      if (back) setView(back);
      else load(1);
    },
    /**
     * The wallet's answer: the button, and, to the session's own request, a click that waited for it answered and
     * `checkout:ready` (once a load) with whether the shopper has a card.
     */
    onReady(ready, paymentMethodPresent, asSession) {
      if (!sessionId) return;
      const opens = asSession && opensForClick(clickedAt, performance.now(), ready);
      if (asSession) clickedAt = undefined;
      setView(readyView(view, ready));
      if (opens) drawn.pay();
      if (!ready || !asSession || announcedReady) return;
      announcedReady = true;
      prefetchChunk('challenge', nonce());
      prefetchChunk('payment-flow', nonce());
      emit({ name: 'checkout:ready', detail: { sessionId, paymentMethodPresent } });
    },
    onError: (err) => setView({ state: 'error', code: 'wallet_error', reason: err.statusCode ?? null }),
    /** A click before the session's view: busy until the wallet has answered its request, for at most CLICK_WAIT_MS (mount-decide.ts). */
    onEarlyClick() {
      if (clickedAt !== undefined) return;
      const at = (clickedAt = performance.now());
      setView(LOADING);
      setTimeout(() => clickedAt === at && ((clickedAt = undefined), setView(VIEW_LATE)), CLICK_WAIT_MS);
    },
  });

  /**
   * Draws the view. A session that keeps the card shows its button only with the agreement the shopper gives
   * by paying, in their words (the dictionary and the chunk that words it here).
   */
  function paint() {
    if (!alive) return;
    const saving = session?.save_payment_method;
    const words = saving && loadedMessages(language());
    const text = saving && words && agreementIn({ ...session!, save_payment_method: saving }, words.saving, props.locale);
    agreementShown = saving && text ? { id: saving.agreement.id, text } : undefined;
    const saved = saving && words ? { agreement: text, nothingToday: saving.setup ? words.saving.nothingToday : undefined } : undefined;
    drawn.paint(view, session, walletLoaded && (!saving || !!agreementShown), props, language(), saved);
  }

  speak(initial.locale);
  load(0);

  return {
    update(next) {
      props = next;
      speak(next.locale);
      paint();
    },
    stop() {
      alive = false;
      loading.abort();
      checking?.abort();
      stopFlow();
      drawn.remove();
    },
  };
}
