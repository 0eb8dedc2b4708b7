/**
 * The checkout widget's controller: the glue between the page (the session's load, the wallet's
 * callbacks, the DOM events) and the mount's decisions (mount-decide.ts, pure). Its state is the
 * view of the state table (states.ts, root `[data-checkout-state]`), which moves only through
 * `move`; every change draws the one view again (widget-paint.ts). What follows a click is the
 * payment flow's (payment-flow.ts, a chunk prefetched once the button is up, flow-loader.ts).
 *
 * One closure rather than more files: it ships in the first script, where each seam between
 * files (an object of callbacks, whose names the minifier keeps) costs 30 to 100 bytes gzipped
 * that the page pays before the button shows.
 */
import type { PublicSession } from '../../contracts';
import { formatAmount } from '../../contracts/money';
import { BuiltinCustomEvent, BuiltinPromise } from '../../common/browser/builtins';
import { carriedView, embedderOriginOf, fetchPublicSession } from './api';
import { loadChunk, prefetchChunk, whenIdle } from './chunks';
import type { PaymentFlow } from './flow-host';
import { flowLoader } from './flow-loader';
import { directionOf, languageOf } from './locales';
import { enFirstPaint } from './locales/en';
import { loadedMessages, loadMessages, wordsAtHand } from './locales/load';
import { checksCarried, isStale, readyView, retryView } from './mount-decide';
import { sandboxWalletReady } from './sandbox-wallet';
import { type Announcement, move, type View, WIDGET_STATES } from './states';
import { painter } from './widget-paint';
import type { CheckoutProps, CheckoutWidget } from './widget-props';

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
  let alive = true;
  let announcedReady = false;
  /** The status of the view the page handed over (the first run's), and whether it was checked against the backend's. */
  let carried: PublicSession['status'] | null = null;
  let carriedChecked = false;
  /** The current load (aborted by a new one or `stop`), and the carried view's check. */
  let loading = new AbortController();
  let checking: AbortController | undefined;
  let flowHere: PaymentFlow | null = null;
  let closeChallenge: (() => void) | undefined;
  /** Moves whose event needs words not here yet: announced once they are, in the words the shopper reads. */
  const unannounced: View[] = [];

  function emit({ name, detail }: Announcement) {
    if (alive) target.dispatchEvent(new BuiltinCustomEvent(name, { bubbles: true, composed: true, detail }));
  }
  /** The event the move's row announces (states.ts). */
  function announce(moved: View) {
    const announces = WIDGET_STATES[moved.state].announce;
    if (!announces) return;
    const t = wordsAtHand(language);
    const announcement = t && announces(moved, { sessionId, t, en: wordsAtHand('en') ?? enFirstPaint });
    if (announcement === undefined) unannounced.push(moved);
    else if (announcement) emit(announcement);
  }

  /** Moves to `next` if the state table allows it, draws, announces, and the carried view's check and the flow follow. */
  function setView(next: View) {
    const moved = move(view, next);
    if (moved === view) return;
    view = moved;
    paint();
    announce(moved);
    if (checksCarried(view, carried, carriedChecked)) checkCarried();
    // The flow follows every move; a state past the first paint needs it (and its words and styles) at once.
    if (flowHere) flowHere.sync(view);
    else if (!WIDGET_STATES[view.state].firstPaint) withFlow(() => undefined);
  }

  /** The page's view, once the button is up, against the backend's: replaced by it if stale (mount-decide.ts). */
  function checkCarried() {
    carriedChecked = true;
    const ctl = (checking = new AbortController());
    const answered = (answer: Parameters<typeof isStale>[2]) => isStale(view, carried, answer) && load(1);
    whenIdle(() => {
      if (!ctl.signal.aborted)
        void fetchPublicSession(apiBase, sessionId!, clientSecret, ctl.signal).then(
          ({ status }) => answered({ status }),
          (error: unknown) => ctl.signal.aborted || answered({ error }),
        );
    });
  }

  const flow = flowLoader(
    () => ({
      apiBase,
      sessionId: sessionId!,
      clientSecret,
      embedderOrigin: embedderOriginOf(),
      nonce: nonce(),
      view: () => view,
      setView,
      setSession: (s) => ((session = s), paint()),
      loadChunk: (name) => loadChunk(name, nonce()),
      words: () => loadedMessages(language),
      cancelled: () => emit({ name: 'checkout:cancel', detail: { sessionId: sessionId! } }),
      alive: () => alive,
      root: () => drawn.root,
    }),
    nonce,
    (created) => {
      flowHere = created;
      created.sync(view);
      wordsArrived();
    },
  );
  const loadFlow = () => (sessionId ? flow() : BuiltinPromise.reject(new Error('Wallet Checkout: no session to pay')));
  /** The flow's code cannot be had: nothing is paid, and the shopper is told as of a network error. */
  function flowUnavailable(err: unknown) {
    console.error(err instanceof Error ? err.message : err);
    if (alive) setView({ state: 'error', code: 'network_error', reason: 'payment_unavailable' });
  }
  const withFlow = (use: (flow: PaymentFlow) => unknown) => void loadFlow().then(use, flowUnavailable);

  /** Loads the session and the wallet (`run` 0: the first, which may take the page's view), then the button can show. */
  function load(run: number) {
    loading.abort();
    const { signal } = (loading = new AbortController());
    session = null;
    walletLoaded = announcedReady = false;
    setView({ state: 'loading' });
    if (!sessionId) return setView({ state: 'error', code: 'invalid_client_secret', reason: null });
    // The page's view spares the first load its request; any later one (Try again, a stale view) asks the backend.
    const taken = run === 0 ? carriedView(props.options.sessionView, sessionId) : null;
    carried = taken?.status ?? null;
    // Drawn at once while the view is asked for; a carried view is drawn once, with its button (below).
    if (!taken) paint();
    void (async () => {
      let s: PublicSession;
      try {
        s = taken ?? (await fetchPublicSession(apiBase, sessionId, clientSecret, signal));
      } catch (err) {
        // Shown by the after-click chunk; without it, the network is the likeliest reason.
        if (!signal.aborted) loadFlow().then((f) => f.failCall(err, 'server_error'), () => setView({ state: 'error', code: 'network_error', reason: null }));
        return;
      }
      if (signal.aborted) return;
      session = s;
      // A session past its start (a reload after an attempt) is placed by the after-click chunk, which knows its statuses.
      if (s.status !== 'open') {
        paint(); // the summary, while the flow comes
        let resumed: PaymentFlow;
        try {
          resumed = await loadFlow();
        } catch (err) {
          if (!signal.aborted) flowUnavailable(err);
          return;
        }
        if (signal.aborted) return;
        if (!resumed.resume(s)) return paint(); // paid: no button needed
      }
      const walletReady = await sandboxWalletReady(s, apiBase, nonce(), paint); // the summary, while the sandbox wallet's script loads
      if (signal.aborted) return;
      if (walletReady) {
        walletLoaded = true;
        paint();
      } else if (view.state === 'loading') setView({ state: 'error', code: 'wallet_unavailable', reason: null });
    })();
    // A page's first Intl.NumberFormat loads the locale's data (16 to 20 ms in Chromium):
    // paid now, while the session is on the network, rather than before the amount can render.
    if (!taken) formatAmount(0, 'USD', 2, props.locale);
  }

  const drawn = painter(container, {
    /** The dialog's box was drawn (an `authenticating` view with a challenge), or taken away: the flow opens the dialog in it. */
    challengeBox(box) {
      closeChallenge?.();
      closeChallenge = undefined;
      if (!box) return;
      let closed = false;
      closeChallenge = () => void (closed = true);
      withFlow((f) => closed || (closeChallenge = f.showChallenge(box)));
    },
    onRetry: () => {
      const back = retryView(view);
      if (back) setView(back);
      else load(1);
    },
    /** The wallet's answer: the button, and `checkout:ready` with whether the shopper has a card. */
    onReady(ready, paymentMethodPresent) {
      if (!sessionId) return;
      const next = readyView(view, ready);
      if (next) setView(next);
      if (!ready || announcedReady) return;
      announcedReady = true;
      prefetchChunk('challenge', nonce());
      prefetchChunk('payment-flow', nonce());
      emit({ name: 'checkout:ready', detail: { sessionId, paymentMethodPresent } });
    },
    // Without the flow the sheet closes, and the page says why.
    onPaymentAuthorized: (data) => loadFlow().then((f) => f.onPaymentAuthorized(data), (err: unknown) => (flowUnavailable(err), { transactionState: 'SUCCESS' as const })),
    onPaymentData: (data) => withFlow((f) => f.onPaymentData(data)),
    onCancel: () => withFlow((f) => f.onCancel()),
    onError: (err) => setView({ state: 'error', code: 'wallet_error', reason: err.statusCode ?? null }),
  });

  function paint() {
    if (alive) drawn.paint(view, session, walletLoaded, props, language, dir, wordsAtHand(language));
  }
  /** A language's chunk, or the rest of English, has come: the status line, and the events that waited, are worded. */
  function wordsArrived() {
    paint();
    for (const moved of unannounced.splice(0)) announce(moved);
  }
  function useLanguage() {
    if (language !== 'en' && !loadedMessages(language)) void loadMessages(language, nonce()).then(() => alive && wordsArrived());
  }

  useLanguage();
  load(0);

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
      drawn.remove();
    },
  };
}
