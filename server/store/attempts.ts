/**
 * A session's charge attempts (checkout/pay.ts): each is written before the
 * service is called and given its outcome after, so that every attempt ends
 * in exactly one known state.
 */
import { sql, type Transaction, type Updateable } from 'kysely';
import type { BackendDatabase, ChargeAttemptsTable } from './schema';
import type { Store } from '.';
import { syncStatement } from './sync-statements';

type Db = Store | Transaction<BackendDatabase>;

/** The session's newest attempt: the one a 3-D Secure challenge belongs to. */
export const latestAttempt = (db: Db, sessionId: string) =>
  db.selectFrom('charge_attempts').select(['id', 'authentication_session', 'payment_method']).where('session_id', '=', sessionId).orderBy('attempt_no', 'desc').executeTakeFirst();

/**
 * The service's idempotency key for one attempt: derived from the session, so a retry of it can never charge
 * twice. Its number is the claim's (oneMoreAttempt), so PostgreSQL's claim builds the key in its statement
 * from the same parts (store/attempt-moves.ts).
 */
export const ATTEMPT_KEY_INFIX = ':attempt:';
export const idempotencyKeyFor = (sessionId: string, attemptNo: number): string => `${sessionId}${ATTEMPT_KEY_INFIX}${attemptNo}`;

/** The change to a session that counts one more attempt, made by the move that claims it: its new `attempts` is the attempt's number (1 for the first). */
export const oneMoreAttempt = { attempts: sql<number>`attempts + 1` };

/** An attempt as its claim records it: in flight, with its request sealed, before the service is called. */
export interface NewAttemptRow {
  id: string;
  sessionId: string;
  attemptNo: number;
  idempotencyKey: string;
  sourceType: string;
  requestSealed: string;
  instanceId: string;
  now: number;
}

/** SQLite's claim writes one in its synchronous transaction (store/attempt-moves.ts); PostgreSQL's claim writes it in its one statement. */
export const inFlightAttempt = syncStatement((db, attempt: NewAttemptRow) =>
  db.insertInto('charge_attempts').values({
    id: attempt.id,
    session_id: attempt.sessionId,
    attempt_no: attempt.attemptNo,
    idempotency_key: attempt.idempotencyKey,
    status: 'in_flight',
    source_type: attempt.sourceType,
    charge_id: null,
    outcome: null,
    request_sealed: attempt.requestSealed,
    authentication_session: null,
    payment_method: null,
    created: attempt.now,
    updated: attempt.now,
    // The instance whose request makes it: while that instance is live, its attempt is its own (store/reconciliation.ts).
    instance_id: attempt.instanceId,
  }),
);

/** What an attempt came to: its outcome, and, while 3-D Secure runs, where it went on. */
export interface AttemptOutcome {
  status: string;
  chargeId: string | null;
  outcome: string;
  settled: boolean;
  authentication_session?: string;
  payment_method?: string;
}

/** A settled outcome drops the sealed request, which is no longer needed; a 3-D Secure attempt keeps where it went on. */
export function attemptOutcomeChanges(result: AttemptOutcome, now: number): Updateable<ChargeAttemptsTable> {
  const { status, chargeId, outcome, settled, ...authentication } = result;
  return { status, charge_id: chargeId, outcome, updated: now, ...(settled && { request_sealed: null }), ...authentication };
}

const attemptOutcomeUpdate = (db: Db, { attemptId, result, now }: { attemptId: string; result: AttemptOutcome; now: number }) =>
  db.updateTable('charge_attempts').set(attemptOutcomeChanges(result, now)).where('id', '=', attemptId);

export async function recordAttemptOutcome(db: Db, attemptId: string, result: AttemptOutcome): Promise<void> {
  await attemptOutcomeUpdate(db, { attemptId, result, now: Date.now() }).execute();
}

/** recordAttemptOutcome in SQLite's synchronous transaction (store/attempt-moves.ts). */
export const attemptOutcome = syncStatement(attemptOutcomeUpdate);

/** How many attempts are in each of `statuses` (a status with none is absent), counted over the whole store: every instance sharing it reads the same. */
export async function countAttemptsByStatus(store: Store, statuses: readonly string[]): Promise<Map<string, number>> {
  const rows = await store
    .selectFrom('charge_attempts')
    .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
    .where('status', 'in', statuses)
    .groupBy('status')
    .execute();
  return new Map(rows.map((row) => [row.status, Number(row.count)]));
}
