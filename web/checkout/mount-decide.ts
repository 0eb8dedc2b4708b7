/**
 * The mount's decider, before any click: given what the widget shows and what just happened (the
 * wallet's readiness, "Try again", the backend's answer to the view the page handed over), the
 * view to move to and the effects to run. Pure, so each step is a unit test; widget.ts performs
 * what it decides. What follows a click is the payment flow's (flow-decide.ts, a chunk).
 */
import type { SessionStatus } from '../../contracts';
import { isApiError } from './api';
import type { View } from './states';

export type MountEvent =
  /** The wallet's answer to isReadyToPay (`paymentMethodPresent`: whether the shopper has a card in it, null where it cannot say). */
  | { on: 'walletReady'; ready: boolean; paymentMethodPresent: boolean | null }
  | { on: 'retry' }
  /** The widget moved (to `state.view`). */
  | { on: 'moved' }
  /** The backend's view of a session whose view the page handed over: its status, or what the call threw. */
  | { on: 'carriedChecked'; status?: SessionStatus; error?: unknown };

/**
 * `reload`: the session and the button again (a new run); `announceReady`: `checkout:ready`, and the
 * chunks a click needs are fetched; `checkCarried`: the backend is asked for the session's view.
 */
export type MountEffect = 'reload' | 'announceReady' | 'checkCarried';

export interface MountState {
  view: View;
  /** `checkout:ready` was dispatched (this run). */
  announcedReady: boolean;
  /** The status of the view the page handed over (this run), to be checked once against the backend's. */
  carried: SessionStatus | null;
  carriedChecked: boolean;
}

export interface MountDecision {
  view?: View;
  effects: MountEffect[];
}

const showsButton = ({ state }: View) => state === 'ready' || state === 'unavailable';

export function decideMount({ view, announcedReady, carried, carriedChecked }: MountState, event: MountEvent): MountDecision {
  switch (event.on) {
    case 'walletReady':
      if (!event.ready) return { view: { state: 'unavailable' }, effects: [] };
      // Not after a reloaded decline: its "Try again" brings the button back.
      return { view: view.state === 'loading' || view.state === 'unavailable' ? { state: 'ready' } : undefined, effects: announcedReady ? [] : ['announceReady'] };
    case 'retry':
      // After a decline, or a blocked challenge, the session is payable again and the wallet still loaded.
      return view.state === 'declined' || view.code === 'challenge_blocked' ? { view: { state: 'ready' }, effects: [] } : { effects: ['reload'] };
    case 'moved':
      // Once the button is up: the request never competes with it. Once: a later return to the button (after a decline, say) finds the session changed by the shopper's own attempt.
      return { effects: carried !== null && !carriedChecked && showsButton(view) ? ['checkCarried'] : [] };
    case 'carriedChecked': {
      // The session moved on since (paid in another tab, expired): the backend's view replaces the page's. A shopper who paid meanwhile needs no check.
      const stale = event.error === undefined ? event.status !== carried : isApiError(event.error) && event.error.status !== 0;
      return { effects: stale && showsButton(view) ? ['reload'] : [] };
    }
  }
}
