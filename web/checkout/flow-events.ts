/**
 * What the payment flow's decider (flow-decide.ts) is told, and what it asks for: the events of
 * a payment after the click, the effects the glue (payment-flow.ts) performs, and the decision
 * joining the two.
 */
import type { PaymentData, PaymentOutcome, PublicSession } from '../../contracts';
import type { View } from './states';
import type { CheckoutErrorCode } from './types';

/**
 * The events' tags (`on`) and the effects' (`run`): numbers rather than words, as the chunk spells
 * each several times (deciding, dispatching, performing) and the bundler writes the digit in
 * place of the name.
 */
export const AUTHORIZED = 0;
export const SHEET_RETURNED = 1;
export const SHEET_CANCELLED = 2;
export const ANSWERED = 3;
export const PAY_FAILED = 4;
export const CALL_FAILED = 5;
export const CHALLENGE_DONE = 6;
export const CHALLENGE_BLOCKED = 7;
export const CHALLENGE_UNAVAILABLE = 8;
export const CHECKED = 9;
export const RESUMED = 10;
export const SHOWN = 11;

export const PAY = 0;
export const AUTHENTICATE = 1;
export const ABANDON_CHALLENGE = 2;
export const WATCH = 3;
export const UNWATCH = 4;
export const CHECK_AGAIN = 5;
export const FOCUS = 6;
export const ANNOUNCE_CANCEL = 7;
export const WARN = 8;

/** The session is checked again and again while a payment is confirmed (`poll`), and while a hold stands. */
export type Watched = 'poll' | 'hold';
/** A check's answer: the session, or what the call threw. */
export type Checked = { session: PublicSession } | { error: unknown };

export type FlowEvent =
  /** The sheet's PAYMENT_AUTHORIZATION callback: the shopper clicked and chose a card; the sheet waits for the answer. */
  | { on: typeof AUTHORIZED; data: PaymentData }
  /** The sheet returned its PaymentData (a wallet without the callback pays now). */
  | { on: typeof SHEET_RETURNED; data: PaymentData }
  | { on: typeof SHEET_CANCELLED }
  /** A payment step's answer (the payment, or the challenge's end). */
  | { on: typeof ANSWERED; outcome: PaymentOutcome; session: PublicSession }
  /** A payment step failed; `callFailed`: any other call (the session's load), with what a refusal means for it. */
  | { on: typeof PAY_FAILED; error: unknown }
  | { on: typeof CALL_FAILED; error: unknown; otherwise: CheckoutErrorCode }
  /** The challenge is over (`cancel`: the shopper closed it), blocked by the page's CSP, or its code cannot be had. */
  | { on: typeof CHALLENGE_DONE; cancel: boolean }
  | { on: typeof CHALLENGE_BLOCKED; origin: string }
  | { on: typeof CHALLENGE_UNAVAILABLE }
  /** A check of the session: polling while confirming, or watching a hold; its answer. */
  | ({ on: typeof CHECKED; what: Watched } & Checked)
  /** A session the page opens on past its start (a reload after an attempt). */
  | { on: typeof RESUMED; session: PublicSession }
  /** The widget now shows `state.view`, having shown `before`. */
  | { on: typeof SHOWN; before: View | undefined };

export type Effect =
  | { run: typeof PAY; data: PaymentData }
  | { run: typeof AUTHENTICATE; cancel: boolean }
  /** The challenge cannot be shown: cancelled on the backend (nothing charged), then `then` shown. */
  | { run: typeof ABANDON_CHALLENGE; then: View }
  /** Start or stop checking the session (polling while confirming, a hold until it is settled); `CHECK_AGAIN`: the check goes on. */
  | { run: typeof WATCH | typeof UNWATCH; what: Watched }
  | { run: typeof CHECK_AGAIN }
  | { run: typeof FOCUS; selector: '.retry' | '.wallet button' }
  /** `checkout:cancel`. */
  | { run: typeof ANNOUNCE_CANCEL }
  | { run: typeof WARN; message: string };

export interface FlowState {
  view: View;
  /** The sheet is deciding the payment (onPaymentAuthorized ran): its result is shown there, and its return needs no second payment. */
  decidedInSheet: boolean;
  /** The page the shopper sees, named to the merchant when it is refused. */
  pageOrigin: string;
}

export interface Decision {
  view?: View;
  session?: PublicSession;
  decidedInSheet?: boolean;
  effects: Effect[];
}
