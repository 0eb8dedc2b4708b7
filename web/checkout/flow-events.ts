/**
 * What the payment flow's decider (flow-decide.ts) is told, and what it asks for: the events of
 * a payment after the click, the effects the glue (payment-flow.ts) performs, and the decision
 * joining the two.
 */
import type { PaymentData, PaymentOutcome, PublicSession } from '../../contracts';
import type { View } from './states';
import type { CheckoutErrorCode } from './types';

/** The session is checked again and again while a payment is confirmed (`poll`), and while a hold stands. */
export type Watched = 'poll' | 'hold';
/** A check's answer: the session, or what the call threw. */
export type Checked = { session: PublicSession } | { error: unknown };

export type FlowEvent =
  /** The sheet's PAYMENT_AUTHORIZATION callback: the shopper clicked and chose a card; the sheet waits for the answer. */
  | { on: 'authorized'; data: PaymentData }
  /** The sheet returned its PaymentData (a wallet without the callback pays now). */
  | { on: 'sheetReturned'; data: PaymentData }
  | { on: 'sheetCancelled' }
  /** A payment step's answer (the payment, or the challenge's end). */
  | { on: 'answered'; outcome: PaymentOutcome; session: PublicSession }
  /** A payment step failed; `callFailed`: any other call (the session's load), with what a refusal means for it. */
  | { on: 'payFailed'; error: unknown }
  | { on: 'callFailed'; error: unknown; otherwise: CheckoutErrorCode }
  /** The challenge is over (`cancel`: the shopper closed it), blocked by the page's CSP, or its code cannot be had. */
  | { on: 'challengeDone'; cancel: boolean }
  | { on: 'challengeBlocked'; origin: string }
  | { on: 'challengeUnavailable' }
  /** A check of the session: polling while confirming, or watching a hold; its answer. */
  | ({ on: 'checked'; what: Watched } & Checked)
  /** A session the page opens on past its start (a reload after an attempt). */
  | { on: 'resumed'; session: PublicSession }
  /** The widget now shows `state.view`, having shown `before`. */
  | { on: 'shown'; before: View | undefined };

export type Effect =
  | { run: 'pay'; data: PaymentData }
  | { run: 'authenticate'; cancel: boolean }
  /** The challenge cannot be shown: cancelled on the backend (nothing charged), then `then` shown. */
  | { run: 'abandonChallenge'; then: View }
  /** Start or stop checking the session (polling while confirming, a hold until it is settled); `checkAgain`: the check goes on. */
  | { run: 'watch' | 'unwatch'; what: Watched }
  | { run: 'checkAgain' }
  | { run: 'focus'; selector: '.retry' | '.wallet button' }
  /** `checkout:cancel`. */
  | { run: 'announceCancel' }
  | { run: 'warn'; message: string };

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
