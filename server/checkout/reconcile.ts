/**
 * Reconciliation: every attempt whose outcome is unknown (no reply, a 5xx, a
 * process killed mid-call) is settled by replaying its sealed request with its
 * own idempotency key. The service answers with the charge the first request
 * created, or creates it now if the first never arrived: either way exactly
 * one outcome, and never a guess. Pending refunds are settled the same way
 * (checkout/refunds.ts). Each pass then expires the sessions whose time is up
 * (expiry.ts), after settling: a session whose attempt has just come back
 * unpaid expires in the same pass; and releases the holds that lapsed (holds.ts).
 */
import { getApp } from '../apps';
import type { Logger } from '../logging';
import { chargeBodyFrom, type ServiceClient } from '../service-client';
import type { Store } from '../store';
import type { DataCipher } from '../lib/data-cipher';
import { expirePastDueSessions } from './expiry';
import { releaseLapsedHolds } from './holds';
import { type AbandonedAttempts, chargeOutcome, recordOutcome } from './pay';
import { reconcileRefunds, type RefundReconcileReport } from './refunds';

export interface ReconcileDependencies {
  store: Store;
  service: ServiceClient;
  cipher: DataCipher;
  logger: Logger;
  /** Settled whatever their age, then forgotten (pay.ts). */
  abandoned: AbandonedAttempts;
}

export interface ReconcileReport {
  examined: number;
  settled: number;
  stillPending: number;
  /** Pending refunds, replayed the same way. */
  refunds: RefundReconcileReport;
  /** Sessions this pass moved to `expired`. */
  expired: number;
  /** Holds this pass released because they had lapsed at the service (holds.ts). */
  lapsedHoldsReleased: number;
}

/**
 * Settles `pending` attempts, and `in_flight` ones started before
 * `inFlightBefore` (a live request younger than that is left to finish) or
 * abandoned by their request; then expires the sessions past due.
 */
export async function reconcile(deps: ReconcileDependencies, inFlightBefore: number): Promise<ReconcileReport> {
  const abandoned = [...deps.abandoned];
  const attempts = await deps.store
    .selectFrom('charge_attempts')
    .innerJoin('sessions', 'sessions.id', 'charge_attempts.session_id')
    .select(['charge_attempts.id', 'charge_attempts.session_id', 'charge_attempts.idempotency_key', 'charge_attempts.request_sealed', 'sessions.app_id'])
    .where((eb) =>
      eb.or([
        eb('charge_attempts.status', '=', 'pending'),
        eb.and([
          eb('charge_attempts.status', '=', 'in_flight'),
          eb.or([eb('charge_attempts.created', '<', inFlightBefore), ...(abandoned.length > 0 ? [eb('charge_attempts.id', 'in', abandoned)] : [])]),
        ]),
      ]),
    )
    .orderBy('charge_attempts.created')
    .execute();

  // An abandoned attempt no longer in flight was settled by another instance: nothing left to do here.
  for (const id of abandoned) if (!attempts.some((attempt) => attempt.id === id)) deps.abandoned.delete(id);
  let settled = 0;
  for (const attempt of attempts) {
    const opened = attempt.request_sealed ? deps.cipher.open(attempt.request_sealed) : undefined;
    const body = opened?.ok ? chargeBodyFrom(opened.value) : undefined;
    const app = await getApp(deps.store, attempt.app_id);
    if (!body || !app) {
      // Without the exact request we cannot ask the service: leave it pending for a person to look at.
      deps.logger.error({ attempt: attempt.id }, 'pending attempt cannot be replayed');
      continue;
    }
    const outcome = await chargeOutcome(deps.service, body, { merchantId: app.merchantId, idempotencyKey: attempt.idempotency_key });
    await recordOutcome(deps.store, attempt.session_id, attempt.id, outcome);
    // Recorded (pending or settled): from now on an ordinary attempt of the store's.
    deps.abandoned.delete(attempt.id);
    if (outcome.status !== 'pending') settled++;
    deps.logger.info({ attempt: attempt.id, session: attempt.session_id, status: outcome.status }, 'attempt reconciled');
  }
  const refunds = await reconcileRefunds(deps);
  const expired = await expirePastDueSessions(deps.store);
  const lapsedHoldsReleased = await releaseLapsedHolds(deps);
  if (expired > 0 || lapsedHoldsReleased > 0) deps.logger.info({ expired, lapsedHoldsReleased }, 'sessions expired and lapsed holds released');
  return { examined: attempts.length, settled, stillPending: attempts.length - settled, refunds, expired, lapsedHoldsReleased };
}

export interface Reconciler {
  /** One pass; concurrent calls share the pass under way. */
  run(inFlightBefore?: number): Promise<ReconcileReport>;
  stop(): Promise<void>;
}

/**
 * Runs a pass at start (every in-flight attempt then belongs to a process that
 * is gone, or is safe to replay anyway) and then every `intervalMs`.
 */
export function startReconciler(deps: ReconcileDependencies, options: { intervalMs: number; inFlightGraceMs: number }): Reconciler {
  let current: Promise<ReconcileReport> | undefined;
  const run = (inFlightBefore = Date.now() - options.inFlightGraceMs) => {
    current ??= reconcile(deps, inFlightBefore).finally(() => {
      current = undefined;
    });
    return current;
  };
  const onError = (error: unknown) => deps.logger.error({ err: error }, 'reconciliation failed');
  run(Date.now()).catch(onError);
  const timer = setInterval(() => run().catch(onError), options.intervalMs);
  timer.unref();
  return {
    run,
    async stop() {
      clearInterval(timer);
      await current?.catch(() => undefined);
    },
  };
}
