/**
 * The widget's state machine, in one table (as server/checkout/states.ts is
 * the session's): each state's row says where it may go next, what the widget
 * shows in it, and which DOM event entering it dispatches. The deciders say
 * where to go (mount-decide.ts before a click, flow-decide.ts after it, both
 * pure) and widget.ts moves only through `move`, which refuses what the
 * table does not allow, and renders from the row; the public `CheckoutState` type, the gallery's
 * scenarios (demo/server/gallery.ts) and the QA kit's copy follow from the
 * keys. A new state is its row here, its words in each locale file, and its
 * gallery scenario (the compiler asks for the last two). docs/shopper-experience.md draws it.
 *
 * `checkout:ready` and `checkout:cancel` are not state changes (the wallet's
 * readiness, which a reloaded declined session also reports, and a closed
 * sheet), so widget.ts dispatches those itself.
 */
import type { PaymentOutcome, SessionStatus } from '../../contracts';
import { declineMessage, type Words } from './locales';
import type { CheckoutErrorCode, CheckoutEventDetails, CheckoutEventName, CheckoutState } from './types';

/** What the widget shows: a state, and the details its row words. Codes, not words, so a change of locale re-words it. */
export interface ViewOf<S extends string> {
  state: S;
  /** error: what went wrong, and the backend's or the wallet's own code for the merchant's logs. */
  code?: CheckoutErrorCode;
  reason?: string | null;
  /** paid, captured, released, declined, confirming, authenticating: the payment's outcome. */
  outcome?: PaymentOutcome | null;
  /** The outcome of an earlier page's attempt (a reload): only success is announced again. */
  reloaded?: boolean;
}

/** One DOM event, typed by its name. */
export type Announcement = { [K in CheckoutEventName]: { name: K; detail: CheckoutEventDetails[K] } }[CheckoutEventName];

interface Row<S extends string> {
  /** The states this one may move to; any other move is refused. */
  to: readonly S[];
  /** Work under way: `aria-busy`, and a spinner before the words. */
  busy?: true;
  /**
   * The wallet's button: `shown`; `kept` mounted but hidden (it reports readiness while
   * loading, and comes back after a decline); `removed`: the session is not paid here again.
   */
  button: 'shown' | 'kept' | 'removed';
  /** The status line; undefined while its words are not here (blank for those few ms, never another language). */
  words(t: Words, view: ViewOf<S>): string | undefined;
  /**
   * Met before any click (the first paint): its view, words and styles are in the first script. Any
   * other state loads the after-click chunk (payment-flow.ts) as it is entered.
   */
  firstPaint?: true;
  /** The card the payment was made with, beside the words. */
  showsCard?: true;
  /** "Try again" is offered. */
  retry?: true;
  /** The bank's 3-D Secure challenge is open over the page (challenge-dialog.ts, opened by challenge-opener.ts in the box the view draws). */
  challenge?: true;
  /**
   * The event entering this state dispatches on the mount element (none when null; undefined: its
   * words are not here yet, and it is dispatched once they are).
   */
  announce?(view: ViewOf<S>, context: { sessionId: string | null; t: Words; en: Words }): Announcement | null | undefined;
}

export function errorAnnouncement(sessionId: string | null, code: CheckoutErrorCode, reason: string | null, t: Words): Announcement | undefined {
  const message = t.errors[code];
  return message === undefined ? undefined : { name: 'checkout:error', detail: { sessionId, code, reason, message } };
}

/** One row for each of the published states, and no other; every `to` must name one of them. */
export const WIDGET_STATES: { [K in CheckoutState]: Row<CheckoutState> } = {
  loading: {
    // A reloaded page finds the session wherever an earlier one left it.
    to: ['ready', 'unavailable', 'error', 'expired', 'confirming', 'authenticating', 'paid', 'captured', 'released', 'declined'],
    busy: true,
    button: 'kept',
    firstPaint: true,
    words: (t) => t.loading,
  },
  // `loading`: the view the page handed over was stale, a button drawn before the view waits for it after a click, or the view
  // found the session past its start; `unavailable`, `expired`: the view, arriving after a button drawn before it, found the
  // session's own request one the wallet cannot pay, or the session expired.
  ready: { to: ['processing', 'error', 'loading', 'unavailable', 'expired'], button: 'shown', firstPaint: true, words: () => '' },
  processing: {
    // `ready`: the shopper closed the sheet, or the payment was refused for what the shopper changes in it (flow-decide.ts).
    to: ['paid', 'authenticating', 'confirming', 'declined', 'error', 'expired', 'ready'],
    busy: true,
    button: 'kept',
    words: (t) => t.processing,
  },
  authenticating: { to: ['processing'], button: 'kept', challenge: true, words: (t) => t.authenticating },
  confirming: { to: ['paid', 'authenticating', 'declined', 'error', 'expired'], busy: true, button: 'kept', words: (t) => t.confirming },
  paid: {
    // A hold, which the merchant's server captures or releases later.
    to: ['captured', 'released'],
    button: 'removed',
    showsCard: true,
    words: (t, view) => (view.outcome?.status === 'authorized' ? t.authorized : t.paid),
    announce: ({ outcome }, { sessionId }) =>
      sessionId && outcome && (outcome.status === 'succeeded' || outcome.status === 'authorized')
        ? { name: 'checkout:success', detail: { sessionId, chargeId: outcome.charge_id, status: outcome.status } }
        : null,
  },
  captured: { to: [], button: 'removed', showsCard: true, words: (t) => t.captured },
  released: { to: [], button: 'removed', showsCard: true, words: (t) => t.released },
  declined: {
    // `ready`: "Try again"; `processing`: another card picked in the sheet that showed the decline.
    to: ['ready', 'processing', 'error'],
    button: 'kept',
    retry: true,
    words: (t, { outcome }) => declineMessage(t, outcome?.failure_code ?? null, outcome?.failure_message ?? null),
    // The merchant gets the service's English reason, whatever the shopper's language.
    announce({ outcome, reloaded }, { sessionId, en }) {
      if (!sessionId || !outcome || reloaded) return null;
      const message = outcome.failure_message || en.declined;
      return message === undefined ? undefined : { name: 'checkout:decline', detail: { sessionId, chargeId: outcome.charge_id, code: outcome.failure_code, message } };
    },
  },
  error: {
    // `loading`: "Try again" reloads; `ready`: it returns to the button after a blocked challenge (the wallet is still loaded).
    to: ['loading', 'ready'],
    button: 'kept',
    retry: true,
    words: (t, { code }) => (code ? t.errors[code] : ''),
    announce: ({ code, reason }, { sessionId, t }) => (code ? errorAnnouncement(sessionId, code, reason ?? null, t) : null),
  },
  unavailable: { to: ['ready', 'error', 'loading'], button: 'kept', firstPaint: true, words: (t) => t.unavailable },
  // Final and calm (no "Try again": the shopper starts again at the store); the merchant is told as of an error.
  expired: {
    to: [],
    button: 'removed',
    words: (t) => t.errors.session_expired,
    announce: (_view, { sessionId, t }) => errorAnnouncement(sessionId, 'session_expired', 'session_expired', t),
  },
};

export type View = ViewOf<CheckoutState>;

export const canMove = (from: CheckoutState, to: CheckoutState): boolean => WIDGET_STATES[from].to.includes(to);

/** `next` if the table allows the move, else `current` unchanged. */
export const move = (current: View, next: View): View => (canMove(current.state, next.state) ? next : current);

/**
 * Sessions paid for, a hold included (whatever the merchant did with it since): no button,
 * the outcome shown. The server's PAID_STATUSES (contracts/session-states.ts) written out, which
 * states.test.ts holds equal to it: worked out from the server's table, they carried the table
 * into the after-click chunk.
 */
const PAID_STATUSES: readonly SessionStatus[] = ['succeeded', 'authorized', 'captured', 'released'];
export const isPaidStatus = (status: SessionStatus): boolean => PAID_STATUSES.includes(status);

/** A hold the merchant has since captured or released: the widget's state of the same name. */
export const isSettledHold = (status: SessionStatus): status is 'captured' | 'released' => status === 'captured' || status === 'released';
