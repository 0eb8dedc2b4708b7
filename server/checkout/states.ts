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
import { newEvent, recordEvent, type StoreTransaction } from '../store/events';
import { type ClaimedSession, claimSessionForAttempt, type NewAttempt, recordAttemptAndMoveOnSqlite, recordClaimedOutcome } from '../store/attempt-moves';
import { type AttemptOutcome, recordAttemptOutcome } from '../store/attempts';
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
  const event = eventOfMove(cipher, moved, to);
  if (event) await recordEvent(trx, moved.app_id, event.type, event.view, event.sealWith);
  return moved;
}

/**
 * Records an attempt's outcome and moves its session (as moveSession does, from one of `from` to `to` with
 * `changes`, and the move's event) in one transaction: on SQLite a synchronous one of statements prepared once
 * (store/attempt-moves.ts), on PostgreSQL Kysely's. The attempt's outcome is recorded even when the session was
 * in none of `from`; then this answers undefined, as moveSession does.
 */
export async function recordAttemptAndMove(
  { store, cipher }: SessionStore,
  sessionId: string,
  attemptId: string,
  attempt: AttemptOutcome,
  from: readonly SessionStatus[],
  to: SessionStatus,
  changes: SessionChanges,
): Promise<SessionRow | undefined> {
  const now = Date.now();
  const move = { sessionId, from: from.filter((status) => canTransition(status, to)), to, changes, expected: {}, now };
  const eventOf = (moved: SessionRow) => {
    const event = eventOfMove(cipher, moved, to);
    return event && newEvent(moved.app_id, event.type, event.view, event.sealWith, now);
  };
  const onSqlite = recordAttemptAndMoveOnSqlite(store, { attemptId, attempt, move, eventOf });
  if (onSqlite) return onSqlite;
  return store.transaction().execute(async (trx) => {
    await recordAttemptOutcome(trx, attemptId, attempt);
    return moveSession(trx, cipher, sessionId, from, to, changes);
  });
}

/**
 * What a move to `to` tells the merchant, about the session as moved: the event's type and the session's view
 * (sealed with `cipher` when it carries personal data); nothing for the steps in between.
 */
function eventOfMove(cipher: DataCipher, moved: SessionRow, to: SessionStatus) {
  const type = eventOnEntering[to];
  if (!type) return undefined;
  // No refunds to read for the event's view: they are made only on succeeded or captured sessions
  // (checkout/refunds.ts), which are final, so a session that moves never had one.
  const view = merchantView(moved, [], cipher);
  return { type, view, sealWith: carriesPersonalData(view) ? cipher : undefined };
}

/**
 * Claims the session for a new attempt: moves it to processing (with `changes`, from one of `from`, while it holds
 * `expected`) and records the attempt, in one transaction, one statement on PostgreSQL (store/attempt-moves.ts).
 * Entering processing tells the merchant nothing (eventOnEntering), so the claim records no event.
 */
export async function claimSession(
  store: Store,
  sessionId: string,
  from: readonly SessionStatus[],
  changes: SessionChanges,
  expected: SessionExpectations,
  attempt: NewAttempt,
): Promise<ClaimedSession | undefined> {
  const allowed = from.filter((status) => canTransition(status, 'processing'));
  if (allowed.length === 0) return undefined;
  return claimSessionForAttempt(store, { sessionId, from: allowed, to: 'processing', changes, expected, now: Date.now() }, attempt);
}

/**
 * An attempt's outcome and its session's move right after the claim, when the row is still as the claim left
 * it (PostgreSQL can tell: ClaimedSession's version): the row as moved is then known before the move, and so
 * is the move's event, so the attempt, the move, the event and its deliveries are written in one statement.
 * Undefined when that cannot be (SQLite, or the row changed since the claim) and nothing was written: the
 * caller records the outcome as any other move, in a transaction.
 */
export async function moveClaimedSession(
  { store, cipher }: SessionStore,
  claimed: ClaimedSession,
  attemptId: string,
  attempt: AttemptOutcome,
  from: readonly SessionStatus[],
  to: SessionStatus,
  changes: Pick<Partial<SessionRow>, 'outcome' | 'address_verification' | 'card_network' | 'card_last4' | 'decline_code'>,
): Promise<SessionRow | undefined> {
  const { version } = claimed;
  if (version === undefined || !from.includes(SessionStatus.parse(claimed.row.status)) || !canTransition(SessionStatus.parse(claimed.row.status), to)) return undefined;
  const now = Date.now();
  const moved: SessionRow = { ...claimed.row, ...changes, status: to, updated: now };
  const event = eventOfMove(cipher, moved, to);
  const move = { sessionId: moved.id, from: [claimed.row.status], to, changes, expected: {}, now };
  return recordClaimedOutcome(store, { claimed: { ...claimed, version }, attemptId, attempt, move, event: event && newEvent(moved.app_id, event.type, event.view, event.sealWith, now).row });
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
