/**
 * The merchant's side of a hold (a session with intent `hold`, `authorized`
 * once the shopper paid): capture all or part of it, or release it. The
 * service is asked first, under one idempotency key per operation and
 * session, so a retry after an unknown outcome is safe; the session then
 * moves as the state machine allows (server/checkout/states.ts).
 */
import { type App, getApp } from '../apps';
import type { z } from 'zod';
import { CaptureSessionBody, type Charge, EmptyBody, HOLD_LIFETIME_MS, SessionStatus } from '../../contracts';
import { errorBody, invalidRequest, statusFor } from '../../common/http/errors';
import type { HandlerReply } from '../http/idempotency';
import { type Failure, type Result, err, ok } from '../../common/result';
import type { DataCipher } from '../lib/data-cipher';
import type { ServiceClient, ServiceFailure } from '../service-client';
import type { Store } from '../store';
import { claimIdempotencyKey, releaseIdempotencyKey } from '../../common/store/idempotency';
import { lapsedHoldIds } from '../store/session-expiry';
import { chargedAmountOf } from './build-charge';
import { outcomeOf } from './sessions';
import { findSession, type SessionRow } from '../store/sessions';
import { canTransition, moveSession } from './states';

export interface HoldDependencies {
  store: Store;
  service: ServiceClient;
  /** Opens the session's billing addresses for the event of its move. */
  cipher: DataCipher;
  /** No request runs longer: a hold's claim older than this was left by a process that died mid-operation (default 2 minutes). */
  longestRequestMs?: number;
}

export type HoldOperation = 'capture' | 'release';

const targetOf: Record<HoldOperation, 'captured' | 'released'> = { capture: 'captured', release: 'released' };

/** One key per operation on a session: a session is captured or released once, so a retry is the same request. */
export const holdIdempotencyKey = (sessionId: string, operation: HoldOperation): string => `${sessionId}:${operation}`;

const invalidState = (session: SessionRow, operation: HoldOperation): Failure => ({
  code: 'invalid_state',
  message: `A ${session.status} checkout cannot be ${targetOf[operation]}${session.intent === 'hold' ? '' : ': it is not a hold'}`,
});

/** A refusal of a request that did nothing (another operation on the hold was under way): not kept against the caller's Idempotency-Key. */
export type HoldFailure = Failure & { untried?: true };

const operationUnderWay = (operation: HoldOperation): HoldFailure => ({
  code: 'invalid_state',
  message: `Another capture or release of this checkout is under way: it cannot be ${targetOf[operation]} now (read the session for the outcome)`,
  untried: true,
});

/** Where a hold's operation is claimed: the idempotency keys' table, under a scope no merchant's key has (theirs are `app_...:path`). */
const HOLD_CLAIM_SCOPE = 'hold-operation';
const DEFAULT_LONGEST_REQUEST_MS = 120_000;

/**
 * One capture or release of a session at a time, across instances: the first
 * request claims the session in the store (a row insert, which one request
 * wins) and the others are refused at once, 409 invalid_state, without asking
 * the service. Without it the losers of a burst of captures queued at the
 * service behind the winner's idempotency key until their retries ran out
 * (502 service_unavailable), for a hold captured once. The claim is dropped
 * when the operation ends, whatever its outcome; one left by a process that
 * died (or that the store failed to drop) lapses after `longestRequestMs`.
 */
async function withHoldClaim<T>(deps: HoldDependencies, session: SessionRow, operation: HoldOperation, run: () => Promise<Result<T, HoldFailure>>): Promise<Result<T, HoldFailure>> {
  const claim = await claimIdempotencyKey(deps.store, {
    scope: HOLD_CLAIM_SCOPE,
    key: session.id,
    fingerprint: operation,
    now: Date.now(),
    abandonedAfterMs: deps.longestRequestMs ?? DEFAULT_LONGEST_REQUEST_MS,
  });
  if (claim.kind !== 'claimed') return err(operationUnderWay(operation));
  try {
    return await run();
  } finally {
    // A store that fails here must not turn the operation's outcome into an error: the claim then lapses by itself.
    await releaseIdempotencyKey(deps.store, HOLD_CLAIM_SCOPE, session.id).catch(() => undefined);
  }
}

export async function operateHold(deps: HoldDependencies, app: App, session: SessionRow, operation: HoldOperation, body: unknown): Promise<Result<SessionRow, HoldFailure>> {
  // A release takes no fields (EmptyBody): an `amount` there is refused, never read as a capture's.
  const schema: z.ZodType<CaptureSessionBody> = operation === 'capture' ? CaptureSessionBody : EmptyBody;
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) return err(invalidRequest(parsed.error));
  const to = targetOf[operation];
  if (!canTransition(SessionStatus.parse(session.status), to) || !outcomeOf(session)?.charge_id) return err(invalidState(session, operation));
  if ((parsed.data.amount ?? 0) > chargedAmountOf(session)) return err({ code: 'invalid_request', message: 'amount: more than the held amount' });

  return withHoldClaim(deps, session, operation, async () => {
    // Read again under the claim: a request that finished between our first read and the claim moved it.
    const current = await findSession(deps.store, session.id);
    const chargeId = current && outcomeOf(current)?.charge_id;
    if (!current || !canTransition(SessionStatus.parse(current.status), to) || !chargeId) return err(invalidState(current ?? session, operation));
    const call = { merchantId: app.merchantId, idempotencyKey: holdIdempotencyKey(session.id, operation) };
    const reply = operation === 'capture' ? await deps.service.captureCharge(chargeId, parsed.data, call) : await deps.service.releaseCharge(chargeId, call);
    if (!reply.ok) return err(failureOf(reply.error, current, operation));
    return record(deps, current, operation, reply.value);
  });
}

/**
 * The reply to a capture or release request (the API's and the dashboard's), for respondIdempotently:
 * `view` is the caller's view of the moved session.
 */
export async function holdReply(deps: HoldDependencies, app: App, session: SessionRow, operation: HoldOperation, body: unknown, view: (moved: SessionRow) => Promise<unknown>): Promise<HandlerReply> {
  const done = await operateHold(deps, app, session, operation, body);
  if (done.ok) return { status: 200, body: await view(done.value), record: true };
  // A refused body never ran, nor did a request that met another operation under way, and an unavailable
  // service may answer a retry: none is kept against the key.
  const record = done.error.code !== 'invalid_request' && done.error.code !== 'service_unavailable' && !done.error.untried;
  return { status: statusFor(done.error), body: errorBody(done.error), record };
}

function failureOf(failure: ServiceFailure, session: SessionRow, operation: HoldOperation): Failure {
  if (failure.serviceCode === 'invalid_state') return invalidState(session, operation);
  if (failure.code === 'service_declined') {
    return {
      code: 'capture_declined',
      message: `The card issuer refused the capture (${failure.serviceCode ?? 'card_declined'}): nothing was captured and the checkout is still authorized; release the hold, and ask the shopper to pay again`,
    };
  }
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
