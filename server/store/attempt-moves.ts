/**
 * The two writes of a payment attempt (checkout/pay.ts), each one round trip on PostgreSQL: the claim
 * (the session moved to processing and the attempt recorded, before the service is called) and the
 * outcome (the attempt settled, the session moved, its event and the event's deliveries, after). Each
 * is a single statement whose steps are data-modifying CTEs, atomic in PostgreSQL without BEGIN and
 * COMMIT: all of it commits or none. SQLite has no data-modifying CTEs, and needs none: in-process,
 * its statements cost no round trip; there each is the transaction it always was, run synchronously
 * by better-sqlite3 from statements prepared once (store/sync-statements.ts), not through Kysely's
 * executor (docs/reliability.md#round-trips, docs/benchmarks.md).
 */
import { sql } from 'kysely';
import type { Store } from '.';
import { ATTEMPT_KEY_INFIX, type AttemptOutcome, attemptOutcome, attemptOutcomeChanges, idempotencyKeyFor, inFlightAttempt } from './attempts';
import { type EventRow, type newEvent, recordingEvent, recordNewEvent } from './events';
import { movedSession, type SessionMove, sessionMove, type SessionRow } from './sessions';
import { inSyncTransaction } from './sync-statements';

/** A session as its attempt's claim left it. */
export interface ClaimedSession {
  row: SessionRow;
  idempotencyKey: string;
  /**
   * PostgreSQL's xmin of the row as claimed (the transaction that wrote it): any later write of the
   * row by anyone changes it, so the outcome can tell the row is still exactly `row`. Undefined on SQLite.
   */
  version: string | undefined;
}

export interface NewAttempt {
  id: string;
  sourceType: string;
  requestSealed: string;
  instanceId: string;
}

/**
 * Moves the session (a compare-and-set: of two concurrent claims one wins) and records the attempt,
 * numbered by the move's `attempts`, in flight with its sealed request; undefined when the session
 * was not in a state to move.
 */
export async function claimSessionForAttempt(store: Store, move: SessionMove, attempt: NewAttempt): Promise<ClaimedSession | undefined> {
  const now = move.now;
  const claimedOnSqlite = inSyncTransaction(store, (transaction): ClaimedSession | undefined => {
    const [row] = movedSession(transaction, move);
    if (!row) return undefined;
    const idempotencyKey = idempotencyKeyFor(row.id, row.attempts);
    inFlightAttempt(transaction, { ...attempt, sessionId: row.id, attemptNo: row.attempts, idempotencyKey, now });
    return { row, idempotencyKey, version: undefined };
  });
  if (claimedOnSqlite) return claimedOnSqlite;
  const claimed = await store
    .with('moved', (db) => sessionMove(db, move).returningAll().returning(sql<string>`xmin::text`.as('row_version')))
    .with('attempt', (db) =>
      db
        .insertInto('charge_attempts')
        .columns(['id', 'session_id', 'attempt_no', 'idempotency_key', 'status', 'source_type', 'request_sealed', 'created', 'updated', 'instance_id'])
        .expression((eb) =>
          eb
            .selectFrom('moved')
            .select([
              sql<string>`${attempt.id}::text`.as('id'),
              'moved.id as session_id',
              'moved.attempts as attempt_no',
              sql<string>`moved.id || ${ATTEMPT_KEY_INFIX}::text || moved.attempts`.as('idempotency_key'),
              sql<string>`'in_flight'`.as('status'),
              sql<string>`${attempt.sourceType}::text`.as('source_type'),
              sql<string>`${attempt.requestSealed}::text`.as('request_sealed'),
              sql<number>`${now}::bigint`.as('created'),
              sql<number>`${now}::bigint`.as('updated'),
              sql<string>`${attempt.instanceId}::text`.as('instance_id'),
            ]),
        )
        .returning(['session_id', 'idempotency_key']),
    )
    .selectFrom('moved')
    .innerJoin('attempt', 'attempt.session_id', 'moved.id')
    .selectAll('moved')
    .select('attempt.idempotency_key')
    .executeTakeFirst();
  if (!claimed) return undefined;
  const { row_version, idempotency_key, ...row } = claimed;
  return { row, idempotencyKey: idempotency_key, version: row_version };
}

/** An attempt's outcome, recorded with its session's move from the claim. */
export interface ClaimedOutcome {
  claimed: ClaimedSession & { version: string };
  attemptId: string;
  attempt: AttemptOutcome;
  move: SessionMove;
  /** The move's event (newEvent), made from the row as the move leaves it; none when the move tells the merchant nothing. */
  event: EventRow | undefined;
}

/**
 * PostgreSQL only: in one statement, moves the session only if its row is still exactly as its claim
 * left it (its xmin unchanged), and then, with it, records the attempt's outcome, the event and a
 * pending delivery of it to each live endpoint of the app that listens to its type (read in the
 * statement, as recordEvent reads them in its transaction). Answers the row as moved; undefined when
 * the row changed since the claim, and then nothing was written: the caller takes the transactional path.
 */
export async function recordClaimedOutcome(store: Store, { claimed, attemptId, attempt, move, event }: ClaimedOutcome): Promise<SessionRow | undefined> {
  const now = move.now;
  const statement = store
    .with('moved', (db) => sessionMove(db, move).where(sql<boolean>`xmin::text = ${claimed.version}`).returningAll())
    .with('attempt', (db) =>
      db
        .updateTable('charge_attempts')
        .set(attemptOutcomeChanges(attempt, now))
        .where('charge_attempts.id', '=', attemptId)
        .where(({ exists, selectFrom }) => exists(selectFrom('moved').select('moved.id')))
        .returning('charge_attempts.id'),
    );
  if (!event) return statement.selectFrom('moved').selectAll().executeTakeFirst();
  return recordingEvent(statement, 'moved', event)
    .selectFrom('moved')
    .selectAll()
    .executeTakeFirst();
}

/** An outcome's transaction: the attempt's outcome, its session's move, and the event of the row as moved. */
export interface AttemptAndMove {
  attemptId: string;
  attempt: AttemptOutcome;
  move: SessionMove;
  /** The move's event (newEvent) made from the row as moved; none when the move tells the merchant nothing. */
  eventOf(moved: SessionRow): ReturnType<typeof newEvent> | undefined;
}

/**
 * SQLite only (undefined elsewhere, where the caller runs the same writes in a Kysely transaction): in one
 * synchronous transaction, records the attempt's outcome, moves its session (a compare-and-set from
 * `move.from`) and, when it moved, records its event with the event's deliveries (recordNewEvent). Answers
 * the row as moved; undefined when the session was in none of `move.from` (the attempt's outcome is recorded all the same).
 */
export function recordAttemptAndMoveOnSqlite(store: Store, { attemptId, attempt, move, eventOf }: AttemptAndMove): Promise<SessionRow | undefined> | undefined {
  return inSyncTransaction(store, (transaction) => {
    attemptOutcome(transaction, { attemptId, result: attempt, now: move.now });
    // local-work-signals.ts: an attempt left pending is reconciliation's work.
    if (attempt.status === 'pending') transaction.signal('reconcile');
    if (move.from.length === 0) return undefined;
    const [moved] = movedSession(transaction, move);
    if (!moved) return undefined;
    const event = eventOf(moved);
    if (event) recordNewEvent(transaction, event);
    return moved;
  });
}
