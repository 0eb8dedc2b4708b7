/**
 * The mount's decisions before any click, each a pure function of what the widget shows and what
 * just happened (the wallet's readiness, "Try again", the backend's answer to the view the page
 * handed over): the view to move to, or the effect to run. widget.ts performs them; what follows
 * a click is the payment flow's decider (flow-decide.ts, a chunk). Plain functions with plain
 * answers rather than a reducer of events, as they ship in the first script, whose every byte is
 * paid before the button shows.
 */
import type { SessionStatus } from '../../contracts';
import { isApiError } from './api';
import type { View } from './states';

/** The backend's answer to a check of the session: its status, or what the call threw. */
export type CheckAnswer = { status: SessionStatus } | { error: unknown };

const READY: View = { state: 'ready' };
/** What a load shows until the session is placed; a copy of it, a click's wait for the session's view (busy, the button hidden). */
export const LOADING: View = { state: 'loading' };

/**
 * How long a click on the button drawn before the session's view waits for it (widget.ts). Google
 * opens its sheet only in response to a click, and every engine keeps a click's transient
 * activation for 5 s (Chromium's kActivationLifespan, Firefox's dom.user_activation.transient.timeout,
 * WebKit's defaultTransientActivationDuration): the cap leaves a second of it for the sheet to open.
 */
export const CLICK_WAIT_MS = 4000;

/** What an unreachable backend shows: a failed load without the payment flow's words, or a view late for a click. */
export const NETWORK_ERROR: View = { state: 'error', code: 'network_error', reason: null };

/**
 * CLICK_WAIT_MS after a click on the button drawn before the session's view, which moved the widget to `waiting`: if it still
 * shows that wait and the view has not `arrived`, the shopper is told, and "Try again" loads the view again. Once the view is
 * here the wallet's answer to the session's own request ends the wait: its button shown again, the sheet opens
 * (wallet-button.ts), within the click's activation; a session past its start, or one that keeps the card (its agreement
 * is shown first), takes that button away and the click with it.
 */
export const lateView = (view: View, waiting: View, arrived: boolean): View | undefined => (view === waiting && !arrived ? NETWORK_ERROR : undefined);
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

