/**
 * The mount's decisions before any click, each a pure function of what the widget shows and what
 * just happened (the wallet's readiness, "Try again", the backend's answer to the view the page
 * handed over): the view to move to, or the effect to run. widget.ts performs them; what follows
 * a click is the payment flow's decider (flow-decide.ts, a chunk). Plain functions with plain
 * answers rather than a reducer of events, as they ship in the first script, whose every byte is
 * paid before the button shows.
 */
import type { PublicSession, SessionStatus } from '../../contracts';
import { isApiError } from './api';
import type { View } from './states';

/** The backend's answer to a check of the session: its status, or what the call threw. */
export type CheckAnswer = { status: SessionStatus } | { error: unknown };

const READY: View = { state: 'ready' };
/** What a load shows until the session is placed; also a click's wait for the session's view (busy, the button hidden). */
export const LOADING: View = { state: 'loading' };

/**
 * How long a click on the button drawn before the session's view waits for it (widget.ts). Google
 * opens its sheet only in response to a click, and every engine keeps a click's transient
 * activation for 5 s (Chromium's kActivationLifespan, Firefox's dom.user_activation.transient.timeout,
 * WebKit's defaultTransientActivationDuration): the cap leaves a second of it for the sheet to open.
 */
export const CLICK_WAIT_MS = 4000;

/** The view had not arrived (or the wallet not answered its request) within CLICK_WAIT_MS of the click: the shopper's "Try again" loads it again. */
export const VIEW_LATE: View = { state: 'error', code: 'network_error', reason: 'view_timeout' };

/**
 * Whether a click before the view still opens the sheet once the session's view is here: for an open
 * session that keeps no card. A session past its start is placed by the payment flow, and one that
 * keeps the card shows its agreement first, which the shopper accepts by clicking again.
 */
export const clickWaitsFor = (s: PublicSession): boolean => s.status === 'open' && !s.save_payment_method;

/** The wallet answered the session's own request (`ready`), a click waiting since `clickedAt` (ms): whether the sheet opens now, within the click's activation. */
export const opensForClick = (clickedAt: number | undefined, now: number, ready: boolean): boolean => ready && clickedAt !== undefined && now - clickedAt < CLICK_WAIT_MS;
const showsButton = ({ state }: View) => state === 'ready' || state === 'unavailable';

/**
 * The wallet's answer to isReadyToPay (before the session's view, to the product's card method; then to the session's own
 * request): the view to move to, if any (not after a reloaded decline: its "Try again" brings the button back).
 */
export const readyView = (view: View, ready: boolean): View | undefined =>
  !ready ? { state: 'unavailable' } : view.state === 'loading' || view.state === 'unavailable' ? READY : undefined;

/**
 * "Try again": back to the button after a decline or a blocked challenge (the session is payable
 * again and the wallet still loaded); null: the session and the button are loaded again.
 */
export const retryView = (view: View): View | null => (view.state === 'declined' || view.code === 'challenge_blocked' ? READY : null);

/**
 * Whether to ask the backend now for the session whose view the page handed over (`carried`, its
 * status): once the button is up, so the request never competes with it, and once (`checked`): a
 * later return to the button (after a decline, say) finds the session changed by the shopper's own attempt.
 */
export const checksCarried = (view: View, carried: SessionStatus | null, checked: boolean): boolean => carried !== null && !checked && showsButton(view);

/**
 * The backend answered that check (the session's status, or what the call threw): true if the
 * page's view was stale (paid in another tab, expired) and the backend's is to be loaded in its
 * place. Nothing is charged on the page's word meanwhile, and a shopper who paid since needs no check.
 */
export const isStale = (view: View, carried: SessionStatus | null, answer: CheckAnswer): boolean =>
  showsButton(view) && ('status' in answer ? answer.status !== carried : isApiError(answer.error) && answer.error.status !== 0);

