/**
 * The checkout widget: loads the session's public view, shows the amount and
 * the Google Pay button, posts the wallet's PaymentData, and shows the outcome.
 *
 * States (root `[data-checkout-state]`):
 *   loading -> ready -> processing -> paid | declined | error | confirming
 *   loading -> unavailable (isReadyToPay false) | error (session load failed)
 *   confirming polls the session every 2 s until the outcome is final.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { PaymentData, PaymentOutcome, PublicSession } from '../../server/contracts';
import {
  CheckoutApiError,
  fetchPublicSession,
  loadScriptOnce,
  postPayment,
  resolveScriptUrl,
  sessionLoadMessage,
} from './api';
import { describeCard, formatAmount } from './format';
import type { CheckoutEventDetails, CheckoutEventName, CheckoutState, MountOptions } from './types';
import { WalletButton, type WalletError } from './WalletButton';

const POLL_MS = 2000;

interface View {
  state: CheckoutState;
  message?: string;
  outcome?: PaymentOutcome | null;
}

export interface CheckoutProps {
  /** The merchant's mount element: events are dispatched on it. */
  target: HTMLElement;
  options: MountOptions;
  apiBase: string;
  sessionId: string | null;
}

const hasPaymentsClient = () =>
  !!(window as { google?: { payments?: { api?: { PaymentsClient?: unknown } } } }).google?.payments?.api?.PaymentsClient;

export function Checkout({ target, options, apiBase, sessionId }: CheckoutProps) {
  const [session, setSession] = useState<PublicSession | null>(null);
  const [view, setViewState] = useState<View>({ state: 'loading' });
  const [walletLoaded, setWalletLoaded] = useState(false);
  /** Bumped by "Try again" after an error: reloads the session and the button. */
  const [run, setRun] = useState(0);
  const viewRef = useRef(view);
  const alive = useRef(true);
  const announcedReady = useRef(false);
  const clientSecret = options.clientSecret;

  const setView = (v: View) => {
    viewRef.current = v;
    setViewState(v);
  };
  function emit<K extends CheckoutEventName>(name: K, detail: CheckoutEventDetails[K]) {
    if (alive.current) target.dispatchEvent(new CustomEvent(name, { bubbles: true, composed: true, detail }));
  }
  function fail(code: string, message: string) {
    setView({ state: 'error', message });
    emit('checkout:error', { sessionId, code, message });
  }

  /**
   * Shows a payment outcome (from /pay, a poll, or a reloaded session).
   * `reloaded`: the outcome of an earlier page; only success is re-announced.
   */
  function showOutcome(outcome: PaymentOutcome, reloaded = false) {
    if (!sessionId) return;
    switch (outcome.status) {
      case 'succeeded':
        setView({ state: 'paid', outcome });
        emit('checkout:success', { sessionId, chargeId: outcome.charge_id, status: 'succeeded' });
        return;
      case 'declined': {
        const message = outcome.failure_message || 'Your card was declined.';
        setView({ state: 'declined', message, outcome });
        if (!reloaded) emit('checkout:decline', { sessionId, chargeId: outcome.charge_id, code: outcome.failure_code, message });
        return;
      }
      case 'failed':
        fail(outcome.failure_code || 'payment_failed', outcome.failure_message || "The payment couldn't be completed. Please try again.");
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

  // Load the session (and the sandbox wallet when the session asks for it).
  useEffect(() => {
    setSession(null);
    setWalletLoaded(false);
    announcedReady.current = false;
    setView({ state: 'loading' });
    if (!sessionId) {
      fail('invalid_client_secret', "This checkout isn't set up correctly (invalid client secret). Please contact the store.");
      return;
    }
    const ctl = new AbortController();
    (async () => {
      let s: PublicSession;
      try {
        s = await fetchPublicSession(apiBase, sessionId, clientSecret, ctl.signal);
      } catch (err) {
        if (ctl.signal.aborted) return;
        const e = err instanceof CheckoutApiError ? err : new CheckoutApiError(0, 'network_error', String(err));
        fail(e.code, sessionLoadMessage(e));
        return;
      }
      if (ctl.signal.aborted) return;
      setSession(s);
      if (s.status === 'processing' || s.status === 'pending') setView({ state: 'confirming', outcome: s.outcome });
      else if (s.outcome && s.status === s.outcome.status && s.status !== 'failed') {
        // A reload after an attempt: show its outcome (declined keeps "Try again").
        showOutcome(s.outcome, true);
      }
      if (s.status === 'succeeded') return; // no button needed
      try {
        if (s.wallet.environment === 'SANDBOX' && !hasPaymentsClient()) {
          if (!s.wallet.sandbox_script) throw new Error('The session names no sandbox wallet script.');
          await loadScriptOnce(resolveScriptUrl(s.wallet.sandbox_script, apiBase));
          if (!hasPaymentsClient()) throw new Error('The sandbox wallet did not define PaymentsClient.');
        }
      } catch {
        if (!ctl.signal.aborted && viewRef.current.state === 'loading') {
          fail('wallet_unavailable', "Google Pay couldn't be loaded. Please try again.");
        }
        return;
      }
      if (!ctl.signal.aborted) setWalletLoaded(true);
    })();
    return () => ctl.abort();
  }, [apiBase, sessionId, clientSecret, run]);

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
          return fail('payment_not_completed', "Your payment wasn't completed. You can try again.");
        }
      } catch (err) {
        if (ctl.signal.aborted) return;
        if (err instanceof CheckoutApiError && (err.status === 401 || err.status === 404)) {
          return fail(err.code, sessionLoadMessage(err));
        }
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

  function onReady(ready: boolean) {
    if (!sessionId) return;
    if (!ready) {
      if (viewRef.current.state === 'loading') setView({ state: 'unavailable', message: "Google Pay isn't available on this device or browser" });
      return;
    }
    if (viewRef.current.state === 'loading' || viewRef.current.state === 'unavailable') setView({ state: 'ready' });
    if (!announcedReady.current) {
      announcedReady.current = true;
      emit('checkout:ready', { sessionId });
    }
  }

  async function onPaymentData(data: PaymentData) {
    if (!sessionId || viewRef.current.state !== 'ready') return;
    setView({ state: 'processing' });
    try {
      const res = await postPayment(apiBase, sessionId, clientSecret, data);
      if (!alive.current) return;
      setSession(res.session);
      showOutcome(res.outcome);
    } catch (err) {
      if (!alive.current) return;
      const e = err instanceof CheckoutApiError ? err : new CheckoutApiError(0, 'network_error', String(err));
      if (e.status === 409 && e.code === 'payment_in_progress') setView({ state: 'confirming' });
      else fail(e.code, e.message);
    }
  }

  function onCancel() {
    if (!sessionId) return;
    if (viewRef.current.state === 'processing') setView({ state: 'ready' });
    emit('checkout:cancel', { sessionId });
  }

  function onWalletError(err: WalletError) {
    const message = err.statusMessage || err.message || 'Google Pay reported an error.';
    fail(err.statusCode ? `wallet_${err.statusCode.toLowerCase()}` : 'wallet_error', `Google Pay couldn't complete the payment: ${message}`);
  }

  function retry() {
    if (view.state === 'declined') setView({ state: 'ready' });
    else setRun((n) => n + 1);
  }

  const { state } = view;
  const locale = options.buttonLocale;
  const card = view.outcome?.card;
  const showButton = !!session && walletLoaded && session.status !== 'succeeded' && state !== 'paid';

  return (
    <div class="wc" data-checkout-state={state} aria-busy={state === 'loading' || state === 'processing' || state === 'confirming'}>
      {session && (
        <div class="summary">
          <span class="merchant" data-testid="merchant">{session.merchant_name}</span>
          <span class="amount" data-testid="amount">{formatAmount(session.amount, session.currency, locale)}</span>
          {session.description && <p class="desc">{session.description}</p>}
        </div>
      )}
      {showButton && (
        <WalletButton
          environment={session.wallet.environment === 'SANDBOX' ? 'TEST' : session.wallet.environment}
          paymentRequest={session.payment_data_request}
          options={options}
          hidden={state !== 'ready'}
          onReady={onReady}
          onPaymentData={(d) => void onPaymentData(d)}
          onCancel={onCancel}
          onError={onWalletError}
        />
      )}
      <p class="status" role="status" aria-live="polite" data-testid="status">
        {state === 'loading' && <><span class="spinner" aria-hidden="true" />Loading checkout…</>}
        {state === 'processing' && <><span class="spinner" aria-hidden="true" />Processing your payment…</>}
        {state === 'confirming' && <><span class="spinner" aria-hidden="true" />We are confirming your payment…</>}
        {state === 'paid' && (
          <>
            Paid
            {card && <span class="card" data-testid="card">{describeCard(card)}</span>}
          </>
        )}
        {(state === 'declined' || state === 'error' || state === 'unavailable') && view.message}
      </p>
      {(state === 'declined' || state === 'error') && (
        <button type="button" class="retry" data-testid="retry" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}
