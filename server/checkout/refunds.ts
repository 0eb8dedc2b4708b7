/**
 * Refunds of a paid session, by the merchant's server: all that is left, or
 * part of it, as many times as the money allows. Each refund is written
 * `pending` with its amount reserved on the session before the service is
 * asked (under an idempotency key derived from the refund's id), then settled
 * by the service's answer, its event in the same transaction. An unknown
 * answer leaves it pending: reconciliation replays the same request with the
 * same key, never guesses (docs/reliability.md).
 */
import { createHash } from 'node:crypto';
import type { App } from '../apps';
import { CreateRefundBody, type Refund, RefundReason, type ServiceRefund, type SessionStatus } from '../../contracts';
import { invalidRequest } from '../../common/http/errors';
import { type Failure, type Result, err, ok } from '../../common/result';
import { randomId } from '../../common/secrets';
import type { Logger } from '../../common/logging';
import type { ServiceClient, ServiceFailure } from '../service-client';
import type { Store } from '../store';
import { releaseReplayLease, takeReplayLease } from '../store/reconciliation';
import { findRefund, pendingRefunds, type RefundRow, type RefundSettlement, reserveRefund, settleRefundRecordingEvent, toRefund } from '../store/refunds';
import { chargedAmountOf } from './build-charge';
import { outcomeOf } from './sessions';
import { findSession, type SessionRow } from '../store/sessions';

export interface RefundDependencies {
  store: Store;
  service: ServiceClient;
}

/** The statuses whose money can be given back, and how much was taken in each. */
const takenIn: Partial<Record<SessionStatus, (session: SessionRow) => number>> = {
  succeeded: chargedAmountOf,
  captured: (session) => session.amount_captured ?? 0,
};
export const REFUNDABLE_FROM = Object.keys(takenIn) as SessionStatus[];

/** The service's key for one refund: derived from our refund's id, so every replay of it is the same refund. */
export const refundIdempotencyKey = (sessionId: string, refundId: string): string => `${sessionId}:refund:${refundId}`;

/**
 * A refund's id: derived from the merchant's Idempotency-Key when it sent one,
 * so that a retry whose first request died before its reply was stored (the
 * key then runs the request again) finds the refund it made instead of making
 * a second; random otherwise, where each request is a new refund.
 */
function refundIdFor(app: App, session: SessionRow, merchantKey: string | undefined): string {
  if (merchantKey === undefined) return `re_${randomId(16)}`;
  return `re_${createHash('sha256').update(`${app.id}\0${session.id}\0${merchantKey}`).digest('base64url').slice(0, 22)}`;
}

function notRefundable(session: SessionRow): Failure {
  if (session.intent === 'setup') return { code: 'invalid_state', message: 'A setup keeps a card and takes no money: there is nothing to refund' };
  const why = session.status === 'authorized' ? ': an uncaptured hold is released (POST .../release), not refunded' : ': only a succeeded or captured checkout is';
  return { code: 'invalid_state', message: `A ${session.status} checkout cannot be refunded${why}` };
}

const exceeds = (left: number): Failure => ({ code: 'amount_exceeds_refundable', message: `amount: more than is left to refund of this checkout (${left} in minor units)` });

/** `merchantKey`: the request's Idempotency-Key, if it had one. */
export async function createRefund(deps: RefundDependencies, app: App, session: SessionRow, body: unknown, merchantKey?: string): Promise<Result<Refund, Failure>> {
  const parsed = CreateRefundBody.safeParse(body ?? {});
  if (!parsed.success) return err(invalidRequest(parsed.error));
  const id = refundIdFor(app, session, merchantKey);
  // Only an id derived from the merchant's key can have been made before: a random one is new.
  const made = merchantKey === undefined ? undefined : await findRefund(deps.store, id);
  // Made by an earlier run of this request: sent again if its outcome is still unknown (the same key at the service), else as it is.
  if (made) return ok(made.status === 'pending' ? await send(deps, made, app.merchantId) : toRefund(made));
  const taken = takenIn[session.status as SessionStatus]?.(session);
  const chargeId = outcomeOf(session)?.charge_id;
  if (taken === undefined || !chargeId || session.intent === 'setup') return err(notRefundable(session));
  const amount = parsed.data.amount ?? taken - session.amount_refunded;
  if (amount <= 0) return err(exceeds(0));

  const now = Date.now();
  const row: RefundRow = {
    id,
    session_id: session.id,
    app_id: app.id,
    amount,
    currency: session.currency,
    reason: parsed.data.reason ?? null,
    status: 'pending',
    charge_id: chargeId,
    service_refund_id: null,
    idempotency_key: refundIdempotencyKey(session.id, id),
    failure_code: null,
    failure_message: null,
    created: now,
    updated: now,
    lease_until: null,
    replays: 0,
  };
  if (!(await reserveRefund(deps.store, row, REFUNDABLE_FROM, taken))) {
    const current = await findSession(deps.store, session.id);
    return err(exceeds(current ? taken - current.amount_refunded : 0));
  }
  return ok(await send(deps, row, app.merchantId));
}

/** Asks the service for the refund (again, under its own key) and records what it said; the refund as it now is. */
async function send(deps: RefundDependencies, row: RefundRow, merchantId: string): Promise<Refund> {
  const reply = await deps.service.createRefund(
    { charge: row.charge_id, amount: row.amount, ...(row.reason !== null && { reason: RefundReason.parse(row.reason) }) },
    { merchantId, idempotencyKey: row.idempotency_key },
  );
  const settlement = settlementOf(reply);
  const settled = settlement && (await settleRefundRecordingEvent(deps.store, row, settlement, settlement.status === 'succeeded' ? 'refund.succeeded' : 'refund.failed'));
  // Read again only when this request did not settle it: another did, or it is still pending.
  const current = settled ?? (await findRefund(deps.store, row.id));
  return toRefund(current ?? row);
}

/** What the service's answer settles; undefined when it leaves the outcome unknown (no reply, a 5xx): the refund stays pending. */
function settlementOf(reply: Result<ServiceRefund, ServiceFailure>): RefundSettlement | undefined {
  if (reply.ok) {
    const refund = reply.value;
    const failed = refund.status === 'failed';
    const why = refund.failure_code === null ? '' : ` (${refund.failure_code})`;
    return { status: refund.status, service_refund_id: refund.id, failure_code: refund.failure_code, failure_message: failed ? `The payment service could not refund the payment${why}` : null };
  }
  if (reply.error.outcomeUnknown) return undefined;
  // A refusal: nothing was refunded.
  return { status: 'failed', service_refund_id: null, failure_code: reply.error.serviceCode ?? reply.error.code, failure_message: reply.error.message };
}

export interface RefundReconcileReport {
  examined: number;
  settled: number;
  stillPending: number;
}

/**
 * Replays every pending refund with its own key and body, each under a lease
 * (store/reconciliation.ts) so that two instances' passes do not both replay
 * it. One still in flight may be replayed too: the service runs a key once,
 * so the replay either meets it (idempotency_key_in_use: still pending) or is it.
 */
export async function reconcileRefunds(deps: RefundDependencies & { logger: Logger; leaseMs: number }): Promise<RefundReconcileReport> {
  const pending = await pendingRefunds(deps.store, Date.now());
  let examined = 0;
  let settled = 0;
  for (const { merchant_id: merchantId, ...row } of pending) {
    const lease = await takeReplayLease(deps.store, 'refunds', row, Date.now() + deps.leaseMs, Date.now());
    if (lease === undefined) continue;
    examined++;
    const refund = await send(deps, row, merchantId);
    await releaseReplayLease(deps.store, 'refunds', row.id, lease);
    if (refund.status !== 'pending') settled++;
    deps.logger.info({ refund: refund.id, session: refund.session_id, status: refund.status }, 'refund reconciled');
  }
  return { examined, settled, stillPending: examined - settled };
}
