/**
 * The checkout session's state machine, in one place: every change of a
 * session's status goes through `moveSession`, which refuses what this table
 * does not allow (its table is contracts/session-states.ts). docs/holds-and-3ds.md draws it.
 */
import { type EventType, sessionExpired, SessionStatus } from '../../contracts';
import type { Failure } from '../../common/result';
import { sessionTransitions } from '../../contracts/session-states';
import type { DataCipher } from '../lib/data-cipher';
import type { Store } from '../store';
import { recordEvent, type StoreTransaction } from '../store/events';
import { type SessionChanges, type SessionExpectations, type SessionRow, setSessionStatus } from '../store/sessions';
import { carriesPersonalData } from './personal-data';
import { merchantView } from './sessions';

/** Where sessions move: the store, and the cipher that opens their billing addresses for the events of the moves. */
export interface SessionStore {
  store: Store;
  cipher: DataCipher;
}

/** Whether the table (contracts/session-states.ts, shared with the widget) lets a session move from `from` to `to`. */
export const canTransition = (from: SessionStatus, to: SessionStatus): boolean => sessionTransitions[from].includes(to);

/** The statuses a session can be in and still take `to`. */
export const statusesLeadingTo = (to: SessionStatus): SessionStatus[] => SessionStatus.options.filter((from) => canTransition(from, to));

/**
 * The event a move to each status tells the merchant of; none for the steps
 * in between, which the merchant's server cannot act on.
 */
export const eventOnEntering: Readonly<Record<SessionStatus, EventType | null>> = {
  open: null,
  processing: null,
  pending: null,
  requires_authentication: null,
  succeeded: 'session.succeeded',
  authorized: 'session.authorized',
  captured: 'session.captured',
  released: 'session.released',
  declined: 'session.payment_failed',
  failed: 'session.payment_failed',
  expired: 'session.expired',
};

/**
 * Moves a session to `to` if it is in one of `from` (and holds `expected`) and the machine allows it,
 * with `changes` to its other columns, and returns the row as moved; undefined
 * when it was not (someone else moved it first, or the move is not allowed): a
 * compare-and-set, so of two concurrent moves only one happens. The move's
 * event is recorded in the same transaction (the outbox); `cipher` opens the
 * session's billing addresses for it, and seals the event that carries them.
 */
export async function moveSession(
  trx: StoreTransaction,
  cipher: DataCipher,
  sessionId: string,
  from: readonly SessionStatus[],
  to: SessionStatus,
  changes: SessionChanges = {},
  expected: SessionExpectations = {},
): Promise<SessionRow | undefined> {
  const allowed = from.filter((status) => canTransition(status, to));
  if (allowed.length === 0) return undefined;
  // The row as moved comes back with the move: the event needs no second read.
  const moved = await setSessionStatus(trx, sessionId, allowed, to, changes, expected);
  if (!moved) return undefined;
  const type = eventOnEntering[to];
  if (!type) return moved;
  // No refunds to read for the event's view: they are made only on succeeded or captured sessions
  // (checkout/refunds.ts), which are final, so a session that moves never had one.
  const view = merchantView(moved, [], cipher);
  await recordEvent(trx, moved.app_id, type, view, carriesPersonalData(view) ? cipher : undefined);
  return moved;
}

/** Why a session could not take what was asked: paid, busy, or simply not in a state for it. */
export function conflictFor(status: string | undefined, otherwise: string): Failure {
  if (status === 'succeeded' || status === 'authorized' || status === 'captured' || status === 'released') {
    return { code: 'session_completed', message: 'This checkout has already been paid' };
  }
  if (status === 'processing' || status === 'pending') return { code: 'payment_in_progress', message: 'A payment for this checkout is already being processed' };
  if (status === 'expired') return sessionExpired;
  return { code: 'invalid_state', message: otherwise };
}
