/**
 * The merchant's side of a hold (a session with intent `hold`, `authorized`
 * once the shopper paid): capture all or part of it, or release it. The
 * service is asked first, under one idempotency key per operation and
 * session, so a retry after an unknown outcome is safe; the session then
 * moves as the state machine allows (server/checkout/states.ts).
 */
import { type App, getApp } from '../apps';
import type { z } from 'zod';
import { CaptureSessionBody, type Charge, EmptyBody, HOLD_LIFETIME_MS, SessionStatus } from '../contracts';
import { errorBody, invalidRequest, statusFor } from '../http/errors';
import type { HandlerReply } from '../http/idempotency';
import { type Failure, type Result, err, ok } from '../lib/result';
import type { DataCipher } from '../lib/data-cipher';
import type { ServiceClient, ServiceFailure } from '../service-client';
import type { Store } from '../store';
import { lapsedHoldIds } from '../store/session-expiry';
import { findSession, outcomeOf, type SessionRow } from './sessions';
import { canTransition, moveSession } from './states';

export interface HoldDependencies {
  store: Store;
  service: ServiceClient;
  /** Opens the session's billing addresses for the event of its move. */
  cipher: DataCipher;
}

export type HoldOperation = 'capture' | 'release';

const targetOf: Record<HoldOperation, 'captured' | 'released'> = { capture: 'captured', release: 'released' };

/** One key per operation on a session: a session is captured or released once, so a retry is the same request. */
export const holdIdempotencyKey = (sessionId: string, operation: HoldOperation): string => `${sessionId}:${operation}`;

const invalidState = (session: SessionRow, operation: HoldOperation): Failure => ({
  code: 'invalid_state',
  message: `A ${session.status} checkout cannot be ${targetOf[operation]}${session.intent === 'hold' ? '' : ': it is not a hold'}`,
});

export async function operateHold(deps: HoldDependencies, app: App, session: SessionRow, operation: HoldOperation, body: unknown): Promise<Result<SessionRow, Failure>> {
  // A release takes no fields (EmptyBody): an `amount` there is refused, never read as a capture's.
  const schema: z.ZodType<CaptureSessionBody> = operation === 'capture' ? CaptureSessionBody : EmptyBody;
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) return err(invalidRequest(parsed.error));
  const to = targetOf[operation];
  const chargeId = outcomeOf(session)?.charge_id;
  if (!canTransition(SessionStatus.parse(session.status), to) || !chargeId) return err(invalidState(session, operation));
  if ((parsed.data.amount ?? 0) > session.amount) return err({ code: 'invalid_request', message: 'amount: more than the held amount' });

  const call = { merchantId: app.merchantId, idempotencyKey: holdIdempotencyKey(session.id, operation) };
  const reply = operation === 'capture' ? await deps.service.captureCharge(chargeId, parsed.data, call) : await deps.service.releaseCharge(chargeId, call);
  if (!reply.ok) return err(failureOf(reply.error, session, operation));
  return record(deps, session, operation, reply.value);
}

/**
 * The reply to a capture or release request (the API's and the dashboard's), for respondIdempotently:
 * `view` is the caller's view of the moved session.
 */
export async function holdReply(deps: HoldDependencies, app: App, session: SessionRow, operation: HoldOperation, body: unknown, view: (moved: SessionRow) => Promise<unknown>): Promise<HandlerReply> {
  const done = await operateHold(deps, app, session, operation, body);
  if (done.ok) return { status: 200, body: await view(done.value), record: true };
  // A refused body never ran, and an unavailable service may answer a retry: neither is kept against the key.
  const record = done.error.code !== 'invalid_request' && done.error.code !== 'service_unavailable';
  return { status: statusFor(done.error), body: errorBody(done.error), record };
}

function failureOf(failure: ServiceFailure, session: SessionRow, operation: HoldOperation): Failure {
  if (failure.serviceCode === 'invalid_state') return invalidState(session, operation);
  if (failure.serviceCode === 'hold_expired') return { code: 'hold_expired', message: 'The hold lapsed 7 days after it was placed and can no longer be captured; it is released by the next sweep (or release it now), and the shopper pays again' };
  return { code: 'service_unavailable', message: `The payment service could not ${operation} the hold (${failure.serviceCode ?? failure.code}); retry with the same request: it is idempotent` };
}

async function record({ store, cipher }: HoldDependencies, session: SessionRow, operation: HoldOperation, charge: Charge): Promise<Result<SessionRow, Failure>> {
  const to = targetOf[operation];
  const moved = await store.transaction().execute((trx) => moveSession(trx, cipher, session.id, ['authorized'], to, { amount_captured: operation === 'capture' ? charge.amount_captured : null }));
  if (moved) return ok(moved);
  const current = await findSession(store, session.id);
  // A concurrent identical request moved it first: the same result, once.
  if (current?.status === to) return ok(current);
  return err(invalidState(current ?? session, operation));
}

/**
 * Releases every hold that lapsed at the service (HOLD_LIFETIME_MS after the
 * session became authorized): the money is no longer held for the merchant,
 * so the session says so (`released`, the event `session.released`) rather
 * than offer a capture the service would refuse. Each is an ordinary release,
 * under its idempotency key and the state machine's compare-and-set, so
 * several instances releasing at once release each hold once; one the service
 * cannot release now is left for the next pass. Returns how many this call released.
 */
export async function releaseLapsedHolds(deps: HoldDependencies, now = Date.now()): Promise<number> {
  let released = 0;
  for (const id of await lapsedHoldIds(deps.store, now - HOLD_LIFETIME_MS)) {
    const session = await findSession(deps.store, id);
    const app = session && (await getApp(deps.store, session.app_id));
    if (session && app && (await operateHold(deps, app, session, 'release', {})).ok) released++;
  }
  return released;
}
