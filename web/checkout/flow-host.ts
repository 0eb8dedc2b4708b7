/**
 * The two sides of the after-click chunk's seam: the widget as the payment flow sees it
 * (FlowHost, built by widget.ts in the first script and used by flow-loader.ts), and the flow as the widget drives it
 * (PaymentFlow, payment-flow.ts). Types only, so the first script carries none of the flow.
 */
import type { PaymentData, PublicSession, SessionStatus } from '../../contracts';
import type { Messages } from './locales';
import type { View } from './states';
import type { PaymentDataChange, SheetUpdate } from './quote-decide';
import type { CheckoutErrorCode } from './types';
import type { SheetResult } from './wallet-button';

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
  /** The bundle's chunk loader (chunks.ts), which knows where the chunks are and their hashes: the 3-D Secure dialog's. */
  loadChunk(name: string): Promise<unknown>;
  /** The id of the saved card's agreement the widget shows the shopper (a session that keeps the card), which the payment names. */
  agreementShown(): string | undefined;
  /** The widget's language's dictionary, if it is here (English is the chunk's). */
  words(): Messages | undefined;
  /** `checkout:cancel`. */
  cancelled(): void;
  alive(): boolean;
  /** The widget's root element, for focus, in the shadow root the styles go in. */
  root(): HTMLElement | null;
}

export interface PaymentFlow {
  /** A failed backend call, shown as the widget shows it; `otherwise`: what a refusal means for this call. */
  failCall(err: unknown, otherwise: CheckoutErrorCode): void;
  onPaymentAuthorized(data: PaymentData): Promise<SheetResult>;
  /** The sheet's onPaymentDataChanged (a session the backend prices), `declared` its request's callbackIntents: the relay's answer (quote-relay.ts). */
  onPaymentDataChanged(data: PaymentDataChange, declared: readonly string[]): Promise<SheetUpdate>;
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
  /**
   * Once the button is up, when the page is idle: the backend's status of the session whose view the page handed over
   * (`carried`, its status), and `stale()` if that view was stale (paid in another tab, expired), for the backend's to be
   * loaded in its place. Here rather than in the first script, which its bytes would weigh on before any button.
   */
  checkCarried(carried: SessionStatus, stale: () => void): void;
  /** The widget shows `view` now: polling and hold checks start or stop, and the focus follows. */
  sync(view: View): void;
  stop(): void;
}
