/**
 * The one place that knows how to talk to the payment service: its paths,
 * how calls are authenticated, which merchant they are for, idempotency, the
 * reply shapes, and what a failure means. A real service that differs from
 * the sandbox's conventions (docs/service-conventions.md) is a change here.
 */
import { ApiErrorBody, Charge, type ChargeRequest } from '../contracts';
import { type Failure, type Result, err, ok } from '../lib/result';

export interface ServiceClientOptions {
  baseUrl: string;
  secretKey: string;
  timeoutMs: number;
}

export type ServiceFailureCode =
  /** The service refused the request (4xx): nothing was charged. */
  | 'service_rejected'
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

export interface ChargeCall {
  merchantId: string;
  idempotencyKey: string;
}

export interface ServiceClient {
  createCharge(request: ChargeRequest, call: ChargeCall): Promise<Result<Charge, ServiceFailure>>;
}

const failure = (code: ServiceFailureCode, message: string, serviceCode: string | null = null): ServiceFailure => ({
  code,
  message,
  serviceCode,
  outcomeUnknown: code !== 'service_rejected',
});

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const chargesUrl = `${options.baseUrl.replace(/\/$/, '')}/api/v1/charges`;

  return {
    async createCharge(request, call) {
      let response: Response;
      try {
        response = await fetch(chargesUrl, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${options.secretKey}`,
            'content-type': 'application/json',
            'merchant-account': call.merchantId,
            'idempotency-key': call.idempotencyKey,
          },
          body: JSON.stringify(request),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (cause) {
        const timedOut = cause instanceof DOMException && cause.name === 'TimeoutError';
        return err(failure(timedOut ? 'service_timeout' : 'service_unreachable', timedOut ? 'The payment service did not answer in time' : 'The payment service could not be reached'));
      }
      const body: unknown = await response.json().catch(() => undefined);
      if (response.ok) {
        const charge = Charge.safeParse(body);
        return charge.success ? ok(charge.data) : err(failure('invalid_service_response', 'The payment service replied with an unexpected charge shape'));
      }
      const error = ApiErrorBody.safeParse(body);
      const serviceCode = error.success ? error.data.error.code : null;
      const message = error.success ? error.data.error.message : `The payment service answered ${response.status}`;
      return err(response.status >= 500 ? failure('service_error', message, serviceCode) : failure('service_rejected', message, serviceCode));
    },
  };
}
