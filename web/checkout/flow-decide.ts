/**
 * The payment flow's decider: given what the widget shows and what just happened (the sheet's
 * answer, the backend's, the challenge's, a check of the session), the view to move to and the
 * effects to run. Pure, so each step is a unit test; payment-flow.ts performs what it decides,
 * and the state table (states.ts) refuses a move it does not allow.
 */
import { isApiError } from './api';
import { ABANDON_CHALLENGE, ANNOUNCE_CANCEL, ANSWERED, AUTHENTICATE, AUTHORIZED, CALL_FAILED, CHALLENGE_BLOCKED, CHALLENGE_DONE, CHALLENGE_UNAVAILABLE, CHECK_AGAIN, CHECKED, type Checked, type Decision, type Effect, type FlowEvent, type FlowState, FOCUS, PAY, PAY_FAILED, RESUMED, SHEET_CANCELLED, SHEET_RETURNED, SHOWN, UNWATCH, WARN, WATCH, type Watched } from './flow-events';
import { challengeBlockedHelp, errorView, failureView, outcomeView, sheetRefusal, type Shown } from './outcome-view';
import { isPaidStatus, isSettledHold, type View } from './states';
import type { CheckoutErrorCode } from './types';

const PROCESSING: View = { state: 'processing' };
const NOTHING: Decision = { effects: [] };
const again: Decision = { effects: [{ run: CHECK_AGAIN }] };
/** A move to `view`, and the effects that go with it. */
const to = (view: View, ...effects: Effect[]): Decision => ({ view, effects });
const shown = ({ view, warning }: Shown): Decision => (warning ? to(view, { run: WARN, message: warning }) : to(view));
const isWatched = (what: Watched, view: View | undefined) =>
  what === 'poll' ? view?.state === 'confirming' : view?.state === 'paid' && view.outcome?.status === 'authorized';

export function decide(state: FlowState, event: FlowEvent): Decision {
  const { view } = state;
  const failed = (error: unknown, otherwise: CheckoutErrorCode) => shown(failureView(error, otherwise, state.pageOrigin));
  switch (event.on) {
    case AUTHORIZED:
      return { decidedInSheet: true, ...(view.state === 'ready' || view.state === 'declined' ? to(PROCESSING, { run: PAY, data: event.data }) : NOTHING) };
    case SHEET_RETURNED:
      if (state.decidedInSheet) return { decidedInSheet: false, effects: [] };
      return view.state === 'ready' ? to(PROCESSING, { run: PAY, data: event.data }) : NOTHING;
    case SHEET_CANCELLED:
      // A sheet closed after a decline shown in it: the wallet button is hidden, so "Try again" takes the focus.
      return view.state === 'processing'
        ? { decidedInSheet: false, view: { state: 'ready' }, effects: [{ run: ANNOUNCE_CANCEL }] }
        : { decidedInSheet: false, effects: [...(view.state === 'declined' ? [{ run: FOCUS, selector: '.retry' } as const] : []), { run: ANNOUNCE_CANCEL }] };
    case ANSWERED:
      return { session: event.session, ...to(outcomeView(event.outcome)) };
    case PAY_FAILED: {
      // Another tab or click got there first (in progress, or already paid): confirming reads the session's own outcome.
      const e = event.error;
      if (isApiError(e) && e.status === 409 && (e.code === 'payment_in_progress' || e.code === 'session_completed')) return to({ state: 'confirming' });
      // Refused, nothing charged, for what the shopper changes in the sheet still open (sheetResult says why there): the next authorization pays.
      if (state.decidedInSheet && sheetRefusal(e)) return to({ state: 'ready' });
      return failed(e, 'payment_failed');
    }
    case CALL_FAILED:
      return failed(event.error, event.otherwise);
    case CHALLENGE_DONE:
      return view.state === 'authenticating' ? to(PROCESSING, { run: AUTHENTICATE, cancel: event.cancel }) : NOTHING;
    case CHALLENGE_BLOCKED:
    case CHALLENGE_UNAVAILABLE: {
      if (view.state !== 'authenticating') return NOTHING;
      // Cancelled at once rather than left to expire, so the session can be paid again and nothing is charged.
      const blocked = event.on === CHALLENGE_BLOCKED;
      const then = blocked ? errorView('challenge_blocked', event.origin) : errorView('network_error', 'challenge_unavailable');
      const abandon: Effect = { run: ABANDON_CHALLENGE, then };
      return blocked ? to(PROCESSING, { run: WARN, message: challengeBlockedHelp(event.origin) }, abandon) : to(PROCESSING, abandon);
    }
    case CHECKED:
      return event.what === 'poll' ? polled(event, failed) : holdChecked(event);
    case RESUMED: {
      const { status, outcome } = event.session;
      if (status === 'processing' || status === 'pending') return to({ state: 'confirming', outcome });
      // The merchant's server settled the hold itself: nothing to announce to it.
      if (isSettledHold(status)) return to({ state: status, outcome });
      // Declined keeps "Try again"; a failed attempt leaves the session payable, with nothing to show.
      return outcome && (status === outcome.status || isPaidStatus(status)) && status !== 'failed' ? to(outcomeView(outcome, true)) : NOTHING;
    }
    case SHOWN:
      return { effects: watchesAndFocus(event.before, view, state.decidedInSheet) };
  }
}

/** Confirming: the session, checked until the outcome is final. */
function polled(checked: Checked, failed: (error: unknown, otherwise: CheckoutErrorCode) => Decision): Decision {
  if (!('session' in checked)) {
    const e = checked.error;
    return isApiError(e) && (e.status === 401 || e.status === 404 || e.status === 410) ? failed(e, 'server_error') : again; // else transient
  }
  const { session } = checked;
  if (session.status === 'processing' || session.status === 'pending') return { session, ...again };
  if (session.outcome && session.outcome.status !== 'pending') return { session, ...to(outcomeView(session.outcome)) };
  return { session, ...(session.status === 'open' ? to(errorView('payment_not_completed', null)) : again) };
}

/** A hold: shown captured or released once the merchant's server has done so. */
function holdChecked(checked: Checked): Decision {
  // The hold stands whatever a failed check says; a session gone or refused will not come back.
  if (!('session' in checked)) return isApiError(checked.error) && (checked.error.status === 401 || checked.error.status === 404) ? NOTHING : again;
  const { session } = checked;
  return isSettledHold(session.status) ? { session, ...to({ state: session.status, outcome: session.outcome }) } : again;
}

/** Polling and hold checks follow the view; keyboard users keep their place as the wallet button hides and comes back. */
function watchesAndFocus(before: View | undefined, view: View, decidedInSheet: boolean): Effect[] {
  const effects: Effect[] = [];
  for (const what of ['poll', 'hold'] as const) {
    const wanted = isWatched(what, view);
    if (wanted !== isWatched(what, before)) effects.push({ run: wanted ? WATCH : UNWATCH, what });
  }
  // The wallet button hides while paying, so focus goes to "Try again" when it appears, and back to the wallet after it.
  if (before?.state === 'processing' && (view.state === 'declined' || view.state === 'error') && !decidedInSheet) effects.push({ run: FOCUS, selector: '.retry' });
  if ((before?.state === 'declined' || before?.state === 'error') && view.state === 'ready') effects.push({ run: FOCUS, selector: '.wallet button' });
  return effects;
}
