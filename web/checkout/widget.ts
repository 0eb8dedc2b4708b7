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
import { CLICK_WAIT_MS, checksCarried, lateView, LOADING, NETWORK_ERROR, readyView, retryView } from './mount-decide';
import { loadSession } from './mount-load';
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
  /** The status of the view the page handed over (the first run's), and whether it was checked against the backend's. */
  let carried: PublicSession['status'] | null = null;
  let carriedChecked = false;
  /** The current load (aborted by a new one or `stop`; the carried view's check is the payment flow's, stopped with it). */
  let loading = new AbortController();
  const [announce, emit, wordsArrived, speak, language] = widgetWords(target, sessionId, nonce, () => alive, paint);

  /** Moves to `next` (if any, and if the state table allows it), draws, announces; the carried view's check and the payment flow follow. */
  function setView(next: View | undefined) {
    const moved = next ? move(view, next) : view;
    if (moved === view) return;
    view = moved;
    paint();
    announce(moved);
    if (checksCarried(view, carried, carriedChecked)) {
      carriedChecked = true;
      // By the payment flow, prefetched as the button came up: nothing is charged on the page's word meanwhile. A flow
      // that cannot be had leaves it unchecked; a click asks for the flow again.
      loadFlow().then((f) => f.checkCarried(carried!, () => load(1)), () => undefined);
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
    setView(LOADING);
    if (!sessionId) return setView({ state: 'error', code: 'invalid_client_secret', reason: null });
    // The page's view spares the first load its request; any later one (Try again, a stale view) asks the backend.
    const taken = run === 0 ? carriedView(props.options.sessionView, sessionId) : null;
    carried = taken?.status ?? null;
    // Drawn at once while the view is asked for; a carried view is drawn once, with its button. Without one, a wallet
    // already on the page is asked at once, with the product's card method, while the view is on its way (wallet-button.ts:
    // its answer comes before the view's request leaves, which waits for the view key's digest).
    if (!taken) {
      walletLoaded = walletHere();
      paint();
    }
    void loadSession(
      // A page's first Intl.NumberFormat loads the locale's data (16 to 20 ms in Chromium): paid once the view's request
      // has left (its view key is digested first, api.ts) and the page is idle, while the view is on the network, after
      // a button drawn before it, not before the amount can render.
      signal, taken, () => fetchPublicSession(apiBase, sessionId, clientSecret, signal, () => whenIdle(() => formatAmount(0, 'USD', 2, props.locale))), loadFlow,
      (s) => sandboxWalletReady(s, apiBase, nonce(), paint), // the summary is drawn while the sandbox wallet's script loads
      (s, draw) => {
        session = s;
        // The agreement is shown before the button, in the shopper's words, which the after-click chunk has: wanted at once.
        if (s.save_payment_method) loadFlow().catch(flowUnavailable);
        // A session past its start is placed by the payment flow from `loading`, without a button until the flow says
        // one is wanted (walletReady), as ever: a button drawn before the view goes.
        if (draw) {
          walletLoaded = false;
          setView(LOADING);
          paint();
        }
      },
      // A failed load is shown by the after-click chunk; without it, the network is the likeliest reason.
      (err, unavailable) =>
        unavailable ? flowUnavailable(err) : loadFlow().then((f) => f.failCall(err, 'server_error'), () => setView(NETWORK_ERROR)),
      (ready) => {
        if (ready) {
          walletLoaded = true;
          paint();
        } else if (view.state === 'loading') setView({ state: 'error', code: 'wallet_unavailable', reason: null });
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
    /** The wallet's answer: the button, and, to the session's own request, `checkout:ready` (once a load) with whether the shopper has a card. */
    onReady(ready, paymentMethodPresent, asSession) {
      setView(readyView(view, ready));
      if (ready && asSession && !announcedReady) {
        announcedReady = true;
        prefetchChunk('challenge', nonce());
        prefetchChunk('payment-flow', nonce());
        // A button is only drawn for a session (load returns before one without an id).
        emit({ name: 'checkout:ready', detail: { sessionId: sessionId!, paymentMethodPresent } });
      }
      return view.state === 'ready';
    },
    onError: (err) => setView({ state: 'error', code: 'wallet_error', reason: err.statusCode ?? null }),
    /** A click before the session's view: busy while it waits (wallet-button.ts); the view not here within CLICK_WAIT_MS, an error to retry. */
    onEarlyClick() {
      const waiting = { ...LOADING };
      setView(waiting);
      setTimeout(() => setView(lateView(view, waiting, !!session)), CLICK_WAIT_MS);
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
      stopFlow();
      drawn.remove();
    },
  };
}
