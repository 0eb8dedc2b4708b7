/**
 * Test clocks' queries (checkout/test-clocks.ts, docs/test-clocks.md): moving an
 * application's clock forward by Δ is backdating by Δ every time its rows keep
 * (sessions, attempts, refunds, disputes, events, webhook deliveries, Idempotency-Key
 * replies, kept cards), and adding Δ to its offset, in one transaction, so
 * two advances at once add up and every instance on the store agrees.
 * Leases, dashboard sign-ins, secret keys' expiry and rate limits are left on
 * the real clock: they guard the running system, not the merchant's data.
 */
import type { Transaction } from 'kysely';
import type { Result } from '../../common/result';
import type { BackendDatabase } from './schema';
import type { Store } from '.';

/** Whose rows move: the whole application's, or one session's of it. */
export interface ClockTarget {
  appId: string;
  sessionId?: string;
}

/** How far the application's clock was moved forward, in all (ms); 0 when never. */
export async function testClockOffset(store: Store, appId: string): Promise<number> {
  const row = await store.selectFrom('test_clocks').select('offset_ms').where('app_id', '=', appId).executeTakeFirst();
  return row ? Number(row.offset_ms) : 0;
}

type Trx = Transaction<BackendDatabase>;

/** The target's sessions, as a subquery. */
const sessionsOf = (trx: Trx, target: ClockTarget) => {
  const query = trx.selectFrom('sessions').select('id').where('app_id', '=', target.appId);
  return target.sessionId === undefined ? query : query.where('id', '=', target.sessionId);
};

/**
 * The scopes of the target's Idempotency-Key replies, as a range: an application's keys are scoped `app_id`
 * (session creation) or `app_id:path`; a session's, `app_id:/api/sessions/{id}/...`. The range is the prefix
 * exactly (`:` and `/` are followed by `;` and `0`), where LIKE would read an id's `_` as a wildcard.
 */
function idempotencyScopes(target: ClockTarget): { exact?: string; from: string; below: string } {
  if (target.sessionId === undefined) return { exact: target.appId, from: `${target.appId}:`, below: `${target.appId};` };
  const prefix = `${target.appId}:/api/sessions/${target.sessionId}`;
  return { from: `${prefix}/`, below: `${prefix}0` };
}

async function backdateRows(trx: Trx, target: ClockTarget, ms: number): Promise<void> {
  const sessions = sessionsOf(trx, target);
  await trx
    .updateTable('sessions')
    .set((eb) => ({ created: eb('created', '-', ms), updated: eb('updated', '-', ms), expires_at: eb('expires_at', '-', ms), personal_data_erased: eb('personal_data_erased', '-', ms) }))
    .where('id', 'in', sessions)
    .execute();
  await trx.updateTable('charge_attempts').set((eb) => ({ created: eb('created', '-', ms), updated: eb('updated', '-', ms) })).where('session_id', 'in', sessions).execute();
  await trx.updateTable('refunds').set((eb) => ({ created: eb('created', '-', ms), updated: eb('updated', '-', ms) })).where('session_id', 'in', sessions).execute();
  // The sandbox backdates the charges' disputes with them: both agree on the due date.
  await trx
    .updateTable('disputes')
    .set((eb) => ({ created: eb('created', '-', ms), updated: eb('updated', '-', ms), evidence_due_by: eb('evidence_due_by', '-', ms), evidence_submitted: eb('evidence_submitted', '-', ms) }))
    .where('session_id', 'in', sessions)
    .execute();
  let events = trx.selectFrom('events').select('id').where('app_id', '=', target.appId);
  if (target.sessionId !== undefined) events = events.where('session_id', '=', target.sessionId);
  // Deliveries first: their events are found by id, not by time.
  await trx
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      next_attempt: eb('next_attempt', '-', ms),
      retry_until: eb('retry_until', '-', ms),
      delivered: eb('delivered', '-', ms),
      created: eb('created', '-', ms),
      updated: eb('updated', '-', ms),
    }))
    .where('event_id', 'in', events)
    .execute();
  let eventRows = trx.updateTable('events').set((eb) => ({ created: eb('created', '-', ms) })).where('app_id', '=', target.appId);
  if (target.sessionId !== undefined) eventRows = eventRows.where('session_id', '=', target.sessionId);
  await eventRows.execute();
  const scopes = idempotencyScopes(target);
  await trx
    .updateTable('idempotency_keys')
    .set((eb) => ({ created: eb('created', '-', ms) }))
    .where((eb) => eb.or([...(scopes.exact === undefined ? [] : [eb('scope', '=', scopes.exact)]), eb.and([eb('scope', '>=', scopes.from), eb('scope', '<', scopes.below)])]))
    .execute();
  if (target.sessionId !== undefined) return;
  await trx
    .updateTable('payment_methods')
    .set((eb) => ({ created: eb('created', '-', ms), updated: eb('updated', '-', ms), detached: eb('detached', '-', ms), service_detached: eb('service_detached', '-', ms) }))
    .where('app_id', '=', target.appId)
    .execute();
}

/** The service's charges of the target's payment attempts: those whose times the service must move too. */
async function chargesOf(trx: Trx, target: ClockTarget): Promise<string[]> {
  const rows = await trx.selectFrom('charge_attempts').select('charge_id').distinct().where('session_id', 'in', sessionsOf(trx, target)).where('charge_id', 'is not', null).orderBy('charge_id').execute();
  return rows.flatMap((row) => (row.charge_id === null ? [] : [row.charge_id]));
}

/** Thrown to roll the transaction back when the service would not follow: carries its refusal out. */
class NotFollowed<F> extends Error {
  constructor(readonly refusal: { ok: false; error: F }) {
    super('the payment service did not move its charges');
  }
}

/**
 * Moves the target's clock forward by `ms`: its rows are backdated, and for an application its offset grows,
 * then `follow` is given the service's charges of those rows to backdate there, inside the transaction: when it
 * fails, nothing moved (the store's rows are put back). Answers what `follow` answered.
 */
export async function advanceTestClock<T, F>(store: Store, target: ClockTarget, ms: number, now: number, follow: (chargeIds: string[]) => Promise<Result<T, F>>): Promise<Result<T, F>> {
  try {
    return await store.transaction().execute(async (trx) => {
      await backdateRows(trx, target, ms);
      if (target.sessionId === undefined) {
        await trx
          .insertInto('test_clocks')
          .values({ app_id: target.appId, offset_ms: ms, updated: now })
          .onConflict((oc) => oc.column('app_id').doUpdateSet((eb) => ({ offset_ms: eb('test_clocks.offset_ms', '+', ms), updated: now })))
          .execute();
      }
      const followed = await follow(await chargesOf(trx, target));
      if (!followed.ok) throw new NotFollowed(followed);
      return followed;
    });
  } catch (error) {
    if (error instanceof NotFollowed) return (error as NotFollowed<F>).refusal;
    throw error;
  }
}
