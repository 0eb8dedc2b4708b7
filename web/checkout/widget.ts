/**
 * The checkout widget's controller: the glue between the mount's decider (mount-decide.ts, pure)
 * and the page. Its state is the view of the state table (states.ts, root `[data-checkout-state]`),
 * which moves only through `move`; every change draws the one view again (widget-paint.ts) and
 * dispatches the move's event (announcer.ts). It loads the session (session-load.ts) and feeds
 * the deciders what happens; what follows a click is the payment flow's (payment-flow.ts, a chunk
 * prefetched once the button is up, loaded by flow-loader.ts).
 */
import { BuiltinPromise } from '../../common/browser/builtins';
import { embedderOriginOf, fetchPublicSession } from './api';
import { announcer } from './announcer';
import { loadChunk, prefetchChunk, whenIdle } from './chunks';
import { flowLoader } from './flow-loader';
import type { PaymentFlow } from './flow-host';
import { directionOf, languageOf } from './locales';
import { loadedMessages, loadMessages, wordsAtHand } from './locales/load';
import { decideMount, type MountEvent, type MountState } from './mount-decide';
import { type Loading, loadSession } from './session-load';
import { move, type View, WIDGET_STATES } from './states';
import type { MountOptions } from './types';
import { painter } from './widget-paint';

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

/** A widget's state: what it shows, what it has, and what it has done this run ("Try again" after an error starts a new one). */
interface WidgetState extends Loading, MountState {
  props: CheckoutProps;
  language: string;
  alive: boolean;
}

/** Starts a widget for one session, rendered into `container` (in the widget's shadow root). */
export function startCheckout(initial: CheckoutProps, container: HTMLElement): CheckoutWidget {
  const { target, apiBase, sessionId } = initial;
  const clientSecret = initial.options.clientSecret;
  const nonce = () => w.props.options.nonce;
  const w: WidgetState = { props: initial, language: languageOf(initial.locale) ?? 'en', view: { state: 'loading' }, session: null, walletLoaded: false, run: 0, alive: true, announcedReady: false, carried: null, carriedChecked: false };
  let dir = directionOf(w.language);
  let loading = new AbortController();
  let checking: AbortController | undefined;
  let flowHere: PaymentFlow | null = null;
  let closeChallenge: (() => void) | undefined;
  const events = announcer(target, sessionId, () => w.alive);

  function setView(next: View) {
    const moved = move(w.view, next);
    if (moved === w.view) return;
    w.view = moved;
    paint();
    events.announce(moved, w.language);
    tell({ on: 'moved' });
    // The flow follows every move; a state past the first paint needs it (and its words and styles) at once.
    if (flowHere) flowHere.sync(moved);
    else if (!WIDGET_STATES[moved.state].firstPaint) withFlow(() => undefined);
  }

  /** Decides `event` (mount-decide.ts), moves, and performs the effects. */
  function tell(event: MountEvent) {
    const decision = decideMount(w, event);
    if (decision.view) setView(decision.view);
    for (const effect of decision.effects) {
      if (effect === 'reload') load(w.run + 1);
      else if (effect === 'announceReady') {
        w.announcedReady = true;
        prefetchChunk('challenge', nonce());
        prefetchChunk('payment-flow', nonce());
        const paymentMethodPresent = event.on === 'walletReady' ? event.paymentMethodPresent : null;
        events.emit({ name: 'checkout:ready', detail: { sessionId: sessionId!, paymentMethodPresent } });
      } else checkCarried();
    }
  }

  /** The page's view, once the button is up, against the backend's: nothing is charged on the page's word meanwhile. */
  function checkCarried() {
    w.carriedChecked = true;
    const ctl = (checking = new AbortController());
    whenIdle(() => {
      if (!ctl.signal.aborted)
        void fetchPublicSession(apiBase, sessionId!, clientSecret, ctl.signal).then(
          (fresh) => tell({ on: 'carriedChecked', status: fresh.status }),
          (error: unknown) => ctl.signal.aborted || tell({ on: 'carriedChecked', error }),
        );
    });
  }

  const loadFlow = flowLoader(
    () => ({ apiBase, sessionId: sessionId!, clientSecret, embedderOrigin: embedderOriginOf(), nonce: nonce(), view: () => w.view, setView, setSession: (s) => ((w.session = s), paint()), loadChunk: (name) => loadChunk(name, nonce()), words: () => loadedMessages(w.language), cancelled: () => events.emit({ name: 'checkout:cancel', detail: { sessionId: sessionId! } }), alive: () => w.alive, root: () => drawn.root }),
    nonce,
    (created) => {
      flowHere = created;
      created.sync(w.view);
      wordsArrived();
    },
  );
  const flow = () => (sessionId ? loadFlow() : BuiltinPromise.reject(new Error('Wallet Checkout: no session to pay')));
  /** The flow's code cannot be had: nothing is paid, and the shopper is told as of a network error. */
  function flowUnavailable(err: unknown) {
    console.error(err instanceof Error ? err.message : err);
    if (w.alive) setView({ state: 'error', code: 'network_error', reason: 'payment_unavailable' });
  }
  const withFlow = (use: (flow: PaymentFlow) => unknown) => void flow().then(use, flowUnavailable);

  function load(run: number) {
    loading.abort();
    loading = new AbortController();
    Object.assign(w, { run, session: null, walletLoaded: false, announcedReady: false });
    loadSession(w, { apiBase, sessionId, clientSecret, options: w.props.options, locale: w.props.locale, signal: loading.signal, setView, paint, flow, flowUnavailable });
  }

  const drawn = painter(
    container,
    {
      /** The dialog's box was drawn (an `authenticating` view with a challenge), or taken away: the flow opens the dialog in it. */
      challengeBox(box) {
        closeChallenge?.();
        closeChallenge = undefined;
        if (!box) return;
        let closed = false;
        closeChallenge = () => void (closed = true);
        withFlow((f) => closed || (closeChallenge = f.showChallenge(box)));
      },
      onRetry: () => tell({ on: 'retry' }),
    },
    {
      onReady: (ready, paymentMethodPresent) => sessionId && tell({ on: 'walletReady', ready, paymentMethodPresent }),
      // Without the flow the sheet closes, and the page says why.
      onPaymentAuthorized: (data) => flow().then((f) => f.onPaymentAuthorized(data), (err: unknown) => (flowUnavailable(err), { transactionState: 'SUCCESS' as const })),
      onPaymentData: (data) => withFlow((f) => f.onPaymentData(data)),
      onCancel: () => withFlow((f) => f.onCancel()),
      onError: (err) => setView({ state: 'error', code: 'wallet_error', reason: err.statusCode ?? null }),
    },
  );

  function paint() {
    if (w.alive) drawn.paint({ ...w, options: w.props.options, locale: w.props.locale, dir, words: wordsAtHand(w.language) });
  }
  /** A language's chunk, or the rest of English, has come: the status line, and the events that waited, are worded. */
  function wordsArrived() {
    paint();
    events.wordsArrived(w.language);
  }
  function useLanguage() {
    if (w.language !== 'en' && !loadedMessages(w.language)) void loadMessages(w.language, nonce()).then(() => w.alive && wordsArrived());
  }

  useLanguage();
  load(0);

  return {
    update(next) {
      const wanted = languageOf(next.locale) ?? 'en';
      w.props = next;
      if (wanted !== w.language) {
        w.language = wanted;
        dir = directionOf(wanted);
        useLanguage();
      }
      paint();
    },
    stop() {
      w.alive = false;
      loading.abort();
      checking?.abort();
      flowHere?.stop();
      closeChallenge?.();
      drawn.remove();
    },
  };
}
