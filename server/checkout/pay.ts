/**
 * One payment attempt of a session, written to the store before and after the
 * call to the service so that every attempt ends in exactly one known state.
 */
import type { App } from '../apps';
import { type Charge, type PaymentOutcome, PayBody } from '../contracts';
import { invalidRequest } from '../http/errors';
import { type Failure, type Result, err, ok } from '../lib/result';
import { randomId } from '../lib/secrets';
import type { DataCipher } from '../lib/data-cipher';
import { type ChargeBody, type ChargeCall, type ServiceClient, type ServiceFailure, serializeCharge } from '../service-client';
import type { Store } from '../store';
import { billingDetailsFrom } from './billing';
import { buildCharge } from './build-charge';
import { findSession, type SessionRow } from './sessions';
import { chargeSourceFor, type DirectDecryption, parseWalletToken } from './source';

export interface PayDependencies {
  store: Store;
  service: ServiceClient;
  direct: DirectDecryption | undefined;
  /** Seals the charge request kept while an attempt's outcome is unknown. */
  cipher: DataCipher;
}

/** Sessions in these states may take a (new) payment attempt. */
const PAYABLE = ['open', 'declined', 'failed'];

/** The service's idempotency key for one attempt: derived from the session, so a retry of it can never charge twice. */
export const idempotencyKeyFor = (sessionId: string, attemptNo: number): string => `${sessionId}:attempt:${attemptNo}`;

export async function pay(deps: PayDependencies, app: App, session: SessionRow, body: unknown): Promise<Result<PaymentOutcome, Failure>> {
  const parsed = PayBody.safeParse(body);
  if (!parsed.success) return err(invalidRequest(parsed.error));
  const paymentMethod = parsed.data.payment_data.paymentMethodData;
  const token = parseWalletToken(paymentMethod.tokenizationData.token);
  if (!token.ok) return token;
  const source = await chargeSourceFor(app, token.value, deps.direct);
  if (!source.ok) return source;

  const billingAddress = paymentMethod.info.billingAddress;
  const request = buildCharge(session, source.value, billingAddress && billingDetailsFrom(billingAddress));
  // Written before the call, with the request sealed, so that whatever happens
  // next (no reply, a crash) the attempt can be replayed with the same key.
  const chargeBody = serializeCharge(request);
  const attempt = await claimAttempt(deps.store, session.id, source.value.type, deps.cipher.seal(chargeBody));
  if (!attempt.ok) return attempt;

  const outcome = await chargeOutcome(deps.service, chargeBody, { merchantId: app.merchantId, idempotencyKey: attempt.value.idempotencyKey });
  await recordOutcome(deps.store, session.id, attempt.value.id, outcome);
  return ok(outcome);
}

/** Calls the service and says what its answer means for the shopper. */
export async function chargeOutcome(service: ServiceClient, body: ChargeBody, call: ChargeCall): Promise<PaymentOutcome> {
  const reply = await service.createCharge(body, call);
  return reply.ok ? outcomeOfCharge(reply.value) : outcomeOfFailure(reply.error);
}

/**
 * Moves the session to `processing` and records the attempt in one
 * transaction: of two concurrent payments only one can claim the session.
 */
async function claimAttempt(store: Store, sessionId: string, sourceType: string, requestSealed: string): Promise<Result<{ id: string; idempotencyKey: string }, Failure>> {
  return store.transaction().execute(async (trx) => {
    const now = Date.now();
    const claimed = await trx
      .updateTable('sessions')
      .set((eb) => ({ status: 'processing', attempts: eb('attempts', '+', 1), updated: now }))
      .where('id', '=', sessionId)
      .where('status', 'in', PAYABLE)
      .returning('attempts')
      .executeTakeFirst();
    if (!claimed) {
      const current = await findSession(trx, sessionId);
      return current?.status === 'succeeded'
        ? err({ code: 'session_completed', message: 'This checkout has already been paid' })
        : err({ code: 'payment_in_progress', message: 'A payment for this checkout is already being processed' });
    }
    const attempt = { id: `att_${randomId(12)}`, idempotencyKey: idempotencyKeyFor(sessionId, claimed.attempts) };
    await trx
      .insertInto('charge_attempts')
      .values({ id: attempt.id, session_id: sessionId, attempt_no: claimed.attempts, idempotency_key: attempt.idempotencyKey, status: 'in_flight', source_type: sourceType, charge_id: null, outcome: null, request_sealed: requestSealed, created: now, updated: now })
      .execute();
    return ok(attempt);
  });
}

function outcomeOfCharge(charge: Charge): PaymentOutcome {
  return {
    status: charge.status === 'succeeded' ? 'succeeded' : 'declined',
    charge_id: charge.id,
    card: charge.card,
    failure_code: charge.failure_code,
    failure_message: charge.failure_message,
  };
}

/**
 * A refusal by the service means nothing was charged. Anything else (no
 * reply, a 5xx) leaves the outcome unknown: it is recorded as pending, never
 * guessed, and the shopper is told we are confirming it.
 */
function outcomeOfFailure(failure: ServiceFailure): PaymentOutcome {
  return {
    status: failure.outcomeUnknown ? 'pending' : 'failed',
    charge_id: null,
    card: null,
    failure_code: failure.serviceCode ?? failure.code,
    failure_message: failure.outcomeUnknown ? 'We are confirming your payment with the payment service' : failure.message,
  };
}

/** Records an attempt's outcome on it and its session; a known outcome drops the sealed request, which is no longer needed. */
export async function recordOutcome(store: Store, sessionId: string, attemptId: string, outcome: PaymentOutcome): Promise<void> {
  const now = Date.now();
  const json = JSON.stringify(outcome);
  const settled = outcome.status !== 'pending';
  await store.transaction().execute(async (trx) => {
    await trx
      .updateTable('charge_attempts')
      .set({ status: outcome.status, charge_id: outcome.charge_id, outcome: json, updated: now, ...(settled && { request_sealed: null }) })
      .where('id', '=', attemptId)
      .execute();
    await trx.updateTable('sessions').set({ status: outcome.status, outcome: json, updated: now }).where('id', '=', sessionId).execute();
  });
}

