/**
 * The one place that knows how to talk to the payment service: its paths,
 * how calls are authenticated, which merchant they are for, idempotency, the
 * reply shapes, which failures are worth retrying, and what a failure means.
 * A real service that differs from the sandbox's conventions
 * (docs/service-conventions.md) is a change here.
 */
import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import type { z } from 'zod';
import {
  type AddressVerification,
  ApiErrorBody,
  AuthenticationSession,
  type BackdateChargesRequest,
  BackdatedCharges,
  type CaptureRequest,
  Charge,
  ChargeRequest,
  type CreateAuthenticationSession,
  type KeepPaymentMethodRequest,
  KeptPaymentMethod,
  PaymentMethodUpdateList,
  type OpenDisputeRequest,
  ServiceDispute,
  type ServiceDisputeEvidence,
  ServiceDisputeList,
  ServiceRefund,
  type ServiceRefundRequest,
} from '../../contracts';
import { type Failure, type Result, err, ok } from '../../common/result';

export interface RetryPolicy {
  /** Tries in all, the first included. */
  maxTries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface ServiceClientOptions {
  baseUrl: string;
  secretKey: string;
  /** Per try. */
  timeoutMs: number;
  retry?: RetryPolicy;
}

export type ServiceFailureCode =
  /** The service refused the request (4xx): nothing was charged. */
  | 'service_rejected'
  /** The card's issuer refused it (402, the issuer's code as `serviceCode`): nothing was done, and a retry is refused again. */
  | 'service_declined'
  /** No reply, a 5xx, or a reply we cannot read: the charge may or may not exist. */
  | 'service_timeout'
  | 'service_unreachable'
  | 'service_error'
  | 'invalid_service_response';

export interface ServiceFailure extends Failure<ServiceFailureCode> {
  /** The service's own error code, when it gave one. */
  serviceCode: string | null;
  /** True when the charge may exist: never treat it as a decline. */
  outcomeUnknown: boolean;
}

/** A call that acts at the service (a charge, a capture, ...): for whom, and under which idempotency key. */
export interface ChargeCall {
  merchantId: string;
  idempotencyKey: string;
}

/**
 * A charge request as the exact bytes sent. The service matches a retry or a
 * replay to the first request by its bytes, so they are made once and kept.
 */
export type ChargeBody = string & { readonly brand: unique symbol };

export const serializeCharge = (request: ChargeRequest): ChargeBody => JSON.stringify(request) as ChargeBody;

/** Bytes kept from an earlier attempt, if they still are a charge request. */
export function chargeBodyFrom(text: string): ChargeBody | undefined {
  try {
    return ChargeRequest.safeParse(JSON.parse(text)).success ? (text as ChargeBody) : undefined;
  } catch {
    return undefined;
  }
}

export interface ServiceClient {
  /**
   * Creates the charge, or, called again with the same idempotency key and
   * body, returns the charge the first call created: the service replays it.
   */
  createCharge(body: ChargeBody, call: ChargeCall): Promise<Result<Charge, ServiceFailure>>;
  /** Captures a held charge (all of it without an amount); idempotent under the call's key. */
  captureCharge(chargeId: string, request: CaptureRequest, call: ChargeCall): Promise<Result<Charge, ServiceFailure>>;
  /** Releases a held charge; idempotent under the call's key. */
  releaseCharge(chargeId: string, call: ChargeCall): Promise<Result<Charge, ServiceFailure>>;
  /** Starts 3-D Secure on a PAN_ONLY payment method; idempotent under the call's key. */
  createAuthenticationSession(request: CreateAuthenticationSession, call: ChargeCall): Promise<Result<AuthenticationSession, ServiceFailure>>;
  getAuthenticationSession(id: string, merchantId: string): Promise<Result<AuthenticationSession, ServiceFailure>>;
  /**
   * Refunds part or all of a captured charge. Called again with the same key
   * and body (refundBody makes the bytes), it returns the refund the first
   * call made: the service replays it.
   */
  createRefund(request: ServiceRefundRequest, call: ChargeCall): Promise<Result<ServiceRefund, ServiceFailure>>;
  /**
   * Keeps the card of a charge made to keep it (stored_credential.initiator customer) for a customer, one
   * payment method per card and customer (the same card kept again answers the same one, updated);
   * idempotent under the call's key.
   */
  keepPaymentMethod(request: KeepPaymentMethodRequest, call: ChargeCall): Promise<Result<KeptPaymentMethod, ServiceFailure>>;
  /** Detaches a kept payment method, for good; idempotent under the call's key. */
  detachPaymentMethod(id: string, call: ChargeCall): Promise<Result<KeptPaymentMethod, ServiceFailure>>;
  /** The merchant's card updates after `after` (a sequence), oldest first, at most `limit`. */
  paymentMethodUpdates(merchantId: string, after: number, limit: number): Promise<Result<PaymentMethodUpdateList, ServiceFailure>>;
  /** The merchant's disputes changed after `after` (a feed sequence), each once as it is now, in sequence order, at most `limit`. */
  disputesChangedAfter(merchantId: string, after: number, limit: number): Promise<Result<ServiceDisputeList, ServiceFailure>>;
  /** Submits a dispute's evidence (once: the service refuses a second); idempotent under the call's key. */
  submitDisputeEvidence(disputeId: string, evidence: ServiceDisputeEvidence, call: ChargeCall): Promise<Result<ServiceDispute, ServiceFailure>>;
  /** A sandbox's test helper (docs/disputes.md): the cardholder's bank disputes a captured charge. Only a sandbox has the route. */
  openDispute(merchantId: string, request: OpenDisputeRequest): Promise<Result<ServiceDispute, ServiceFailure>>;
  /**
   * A sandbox's test helper (docs/test-clocks.md): the merchant's named charges placed `seconds` earlier. Only a
   * sandbox has the route; the backend calls it only when its payment service is one.
   */
  backdateCharges(merchantId: string, request: BackdateChargesRequest): Promise<Result<BackdatedCharges, ServiceFailure>>;
}

/** A refund request's bytes, the same for the same fields whoever builds them, so that a replay matches the first request. */
export const refundBody = (request: ServiceRefundRequest): string =>
  JSON.stringify({ charge: request.charge, amount: request.amount, ...(request.reason !== undefined && { reason: request.reason }) });

/**
 * The card issuer's address verification a charge reports, in the merchant's shape (the session's
 * `address_verification`). The sandbox's convention (docs/service-conventions.md#address-verification):
 * `address_line1_check` and `address_postal_code_check` on the charge, each `match`, `mismatch` or
 * `unavailable`, null for a field the request did not send. A field the service did not verify, for
 * whatever reason, is `unavailable` to the merchant; so is a charge that carries neither (a reply
 * stored before the service verified addresses). A service that reports it otherwise (Stripe's
 * `payment_method_details.card.checks` with `pass`/`fail`/`unchecked`, or a one-letter AVS result
 * code to split into the two fields) is a change to this function and to the Charge schema only.
 */
export function addressVerificationOf(charge: Charge): AddressVerification {
  return { line1: charge.address_line1_check ?? 'unavailable', postal_code: charge.address_postal_code_check ?? 'unavailable' };
}

export const defaultRetryPolicy: RetryPolicy = { maxTries: 3, baseDelayMs: 100, maxDelayMs: 1000 };

const failure = (code: ServiceFailureCode, message: string, serviceCode: string | null = null): ServiceFailure => ({
  code,
  message,
  serviceCode,
  outcomeUnknown: code !== 'service_rejected' && code !== 'service_declined',
});

/**
 * Worth another try with the same key: only an unknown outcome (which
 * includes the service still working on the first request: 409
 * idempotency_key_in_use). Any other refusal would be refused again.
 */
const isRetryable = (f: ServiceFailure): boolean => f.outcomeUnknown;

/** "Full jitter": a random delay up to an exponentially growing cap, so retrying clients do not move in step. */
const backoffMs = (policy: RetryPolicy, retry: number): number => Math.random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);

/** Every path of the service, relative to its base URL. */
const paths = {
  charges: '/api/v1/charges',
  capture: (chargeId: string) => `/api/v1/charges/${encodeURIComponent(chargeId)}/capture`,
  release: (chargeId: string) => `/api/v1/charges/${encodeURIComponent(chargeId)}/release`,
  authenticationSessions: '/api/v1/authentication_sessions',
  authenticationSession: (id: string) => `/api/v1/authentication_sessions/${encodeURIComponent(id)}`,
  refunds: '/api/v1/refunds',
  paymentMethods: '/api/v1/payment_methods',
  detach: (paymentMethodId: string) => `/api/v1/payment_methods/${encodeURIComponent(paymentMethodId)}/detach`,
  paymentMethodUpdates: (after: number, limit: number) => `/api/v1/payment_method_updates?after=${after}&limit=${limit}`,
  backdateCharges: '/test_helpers/charges/backdate',
  disputesChangedAfter: (after: number, limit: number) => `/api/v1/disputes?changed_after=${after}&limit=${limit}`,
  disputeEvidence: (disputeId: string) => `/api/v1/disputes/${encodeURIComponent(disputeId)}/evidence`,
  openDispute: '/test_helpers/disputes',
};

/**
 * Aborts a try after `ms`, body included: a service may start a reply and never finish it. The timer
 * is cleared when the try ends. The signal is an emitter, which undici takes in place of an
 * AbortSignal: an AbortController's signal is made transferable and carries a weak reference and
 * listeners of its own, costly on every pay for a deadline that almost never passes.
 */
export function tryDeadline(ms: number): { signal: EventEmitter; passed: () => boolean; clear: () => void } {
  const signal = new EventEmitter();
  let passed = false;
  const timer = setTimeout(() => {
    passed = true;
    signal.emit('abort');
  }, ms);
  return { signal, passed: () => passed, clear: () => clearTimeout(timer) };
}

/** The reply's JSON, or undefined for a body that is not JSON. */
function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

interface Call<T> {
  method: 'GET' | 'POST';
  path: string;
  merchantId: string;
  idempotencyKey?: string;
  body?: string;
  reply: z.ZodType<T>;
  what: string;
}

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const baseUrl = options.baseUrl.replace(/\/$/, '');
  const policy = options.retry ?? defaultRetryPolicy;

  /**
   * undici's `request`, not `fetch`: fetch builds WHATWG requests, responses and streams around
   * every call, about five times the client CPU of `request` (`npm run bench:service-call`,
   * docs/benchmarks.md). Kept-alive connections of the service's own pool.
   */
  const dispatcher = new Agent();

  /** One try, over once the reply's body is read: the deadline covers the body too. */
  async function tryOnce<T>(call: Call<T>): Promise<Result<T, ServiceFailure>> {
    const deadline = tryDeadline(options.timeoutMs);
    let status: number;
    let text: string;
    try {
      const response = await request(`${baseUrl}${call.path}`, {
        method: call.method,
        headers: {
          authorization: `Bearer ${options.secretKey}`,
          'merchant-account': call.merchantId,
          ...(call.body !== undefined && { 'content-type': 'application/json' }),
          ...(call.idempotencyKey !== undefined && { 'idempotency-key': call.idempotencyKey }),
        },
        body: call.body,
        signal: deadline.signal,
        dispatcher,
      });
      status = response.statusCode;
      text = await response.body.text();
    } catch {
      // No reply, or one cut off: the service may have acted or not.
      return err(deadline.passed() ? failure('service_timeout', 'The payment service did not answer in time') : failure('service_unreachable', 'The payment service could not be reached'));
    } finally {
      deadline.clear();
    }
    return answerOf(call, status, jsonOf(text));
  }

  /** What the service's reply means. */
  function answerOf<T>(call: Call<T>, status: number, reply: unknown): Result<T, ServiceFailure> {
    if (status >= 200 && status < 300) {
      const parsed = call.reply.safeParse(reply);
      return parsed.success ? ok(parsed.data) : err(failure('invalid_service_response', `The payment service replied with an unexpected ${call.what} shape`));
    }
    const error = ApiErrorBody.safeParse(reply);
    const serviceCode = error.success ? error.data.error.code : null;
    const message = error.success ? error.data.error.message : `The payment service answered ${status}`;
    if (status >= 500) return err(failure('service_error', message, serviceCode));
    if (status === 402) return err(failure('service_declined', message, serviceCode));
    // An idempotency conflict means a first request with this key exists: its outcome is what counts, and we do not know it yet.
    const keyConflict = serviceCode === 'idempotency_key_in_use' || serviceCode === 'idempotency_key_reused';
    return err({ ...failure('service_rejected', message, serviceCode), outcomeUnknown: keyConflict });
  }

  /** Every call is retried on an unknown outcome: POSTs carry their idempotency key, so a retry cannot act twice. */
  async function send<T>(call: Call<T>): Promise<Result<T, ServiceFailure>> {
    let result = await tryOnce(call);
    for (let retry = 0; !result.ok && isRetryable(result.error) && retry < policy.maxTries - 1; retry++) {
      await sleep(backoffMs(policy, retry));
      result = await tryOnce(call);
    }
    return result;
  }

  return {
    createCharge: (body, call) => send({ method: 'POST', path: paths.charges, ...call, body, reply: Charge, what: 'charge' }),
    captureCharge: (chargeId, request, call) => send({ method: 'POST', path: paths.capture(chargeId), ...call, body: JSON.stringify(request), reply: Charge, what: 'charge' }),
    releaseCharge: (chargeId, call) => send({ method: 'POST', path: paths.release(chargeId), ...call, reply: Charge, what: 'charge' }),
    createAuthenticationSession: (request, call) =>
      send({ method: 'POST', path: paths.authenticationSessions, ...call, body: JSON.stringify(request), reply: AuthenticationSession, what: 'authentication session' }),
    getAuthenticationSession: (id, merchantId) => send({ method: 'GET', path: paths.authenticationSession(id), merchantId, reply: AuthenticationSession, what: 'authentication session' }),
    createRefund: (request, call) => send({ method: 'POST', path: paths.refunds, ...call, body: refundBody(request), reply: ServiceRefund, what: 'refund' }),
    keepPaymentMethod: (request, call) =>
      send({ method: 'POST', path: paths.paymentMethods, ...call, body: JSON.stringify({ charge: request.charge, customer: request.customer }), reply: KeptPaymentMethod, what: 'payment method' }),
    detachPaymentMethod: (id, call) => send({ method: 'POST', path: paths.detach(id), ...call, reply: KeptPaymentMethod, what: 'payment method' }),
    paymentMethodUpdates: (merchantId, after, limit) => send({ method: 'GET', path: paths.paymentMethodUpdates(after, limit), merchantId, reply: PaymentMethodUpdateList, what: 'payment method update list' }),
    disputesChangedAfter: (merchantId, after, limit) => send({ method: 'GET', path: paths.disputesChangedAfter(after, limit), merchantId, reply: ServiceDisputeList, what: 'dispute list' }),
    submitDisputeEvidence: (disputeId, evidence, call) => send({ method: 'POST', path: paths.disputeEvidence(disputeId), ...call, body: JSON.stringify(evidence), reply: ServiceDispute, what: 'dispute' }),
    // Opening a dispute is not idempotent (a charge is disputed once: a second call is refused): a call whose outcome is unknown is not repeated.
    openDispute: (merchantId, request) => tryOnce({ method: 'POST', path: paths.openDispute, merchantId, body: JSON.stringify(request), reply: ServiceDispute, what: 'dispute' }),
    // Backdating is not idempotent (each call moves the charges again): a call whose outcome is unknown is not repeated.
    backdateCharges: (merchantId, request) => tryOnce({ method: 'POST', path: paths.backdateCharges, merchantId, body: JSON.stringify(request), reply: BackdatedCharges, what: 'backdate reply' }),
  };
}
