/**
 * Loading a widget's session, what its button needs: the view the page handed over (the first
 * run's) or the backend's, then, for a session past its start, where the payment flow places it,
 * then the sandbox's wallet if the session needs one.
 */
import type { PublicSession, SessionStatus } from '../../contracts';
import { formatAmount } from '../../contracts/money';
import { carriedView, fetchPublicSession } from './api';
import type { PaymentFlow } from './flow-host';
import { loadSandboxWallet } from './sandbox-wallet';
import type { View } from './states';
import type { MountOptions } from './types';

/** What a load fills in of the widget's state. */
export interface Loading {
  view: View;
  session: PublicSession | null;
  walletLoaded: boolean;
  run: number;
  carried: SessionStatus | null;
}

export interface LoadContext {
  apiBase: string;
  sessionId: string | null;
  clientSecret: string;
  options: MountOptions;
  locale: string;
  signal: AbortSignal;
  setView(view: View): void;
  paint(): void;
  flow(): Promise<PaymentFlow>;
  flowUnavailable(err: unknown): void;
}

export function loadSession(w: Loading, c: LoadContext): void {
  const { sessionId, signal } = c;
  c.setView({ state: 'loading' });
  if (!sessionId) return c.setView({ state: 'error', code: 'invalid_client_secret', reason: null });
  // The page's view spares the first load its request; any later one (Try again, a stale view) asks the backend.
  const carried = w.run === 0 ? carriedView(c.options.sessionView, sessionId) : null;
  w.carried = carried?.status ?? null;
  // Drawn at once while the view is asked for; a carried view is drawn once, with its button (below).
  if (!carried) c.paint();
  void (async () => {
    let s: PublicSession;
    try {
      s = carried ?? (await fetchPublicSession(c.apiBase, sessionId, c.clientSecret, signal));
    } catch (err) {
      // Shown by the after-click chunk; without it, the network is the likeliest reason.
      if (!signal.aborted) c.flow().then((f) => f.failCall(err, 'server_error'), () => c.setView({ state: 'error', code: 'network_error', reason: null }));
      return;
    }
    if (signal.aborted) return;
    w.session = s;
    // A session past its start (a reload after an attempt) is placed by the after-click chunk, which knows its statuses.
    if (s.status !== 'open') {
      c.paint(); // the summary, while the flow comes
      let resumed: PaymentFlow;
      try {
        resumed = await c.flow();
      } catch (err) {
        if (!signal.aborted) c.flowUnavailable(err);
        return;
      }
      if (signal.aborted) return;
      if (!resumed.resume(s)) return c.paint(); // paid: no button needed
    }
    try {
      await loadSandboxWallet(s, c.apiBase, c.options.nonce, c.paint); // the summary is drawn while its script loads
    } catch {
      if (!signal.aborted && w.view.state === 'loading') c.setView({ state: 'error', code: 'wallet_unavailable', reason: null });
      return;
    }
    if (signal.aborted) return;
    w.walletLoaded = true;
    c.paint();
  })();
  // A page's first Intl.NumberFormat loads the locale's data (16 to 20 ms in Chromium):
  // paid now, while the session is on the network, rather than before the amount can render.
  if (!carried) formatAmount(0, 'USD', 2, c.locale);
}
