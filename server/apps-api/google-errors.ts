/**
 * The apps API answers errors as Google's APIs do: `{error: {code, message,
 * status, errors: [{domain, reason, message, location, locationType}]}}`, with
 * RFC 6750 challenges. The layers below return LookupFailures; statuses are decided here.
 */
import type { Response } from 'express';
import { z } from 'zod';
import { STORE_RETRY_AFTER_SECONDS } from '../../common/http/errors';
import type { Failure } from '../../common/result';

export type LookupCode =
  | 'no_route'
  | 'method_not_allowed'
  | 'invalid_app_id'
  | 'body_not_allowed'
  | 'invalid_parameter'
  | 'invalid_request'
  | 'credentials_required'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'security_assessment_required'
  | 'issuer_unavailable'
  | 'store_unavailable'
  | 'app_not_found';

export interface LookupFailure extends Failure<LookupCode> {
  /** The header or query/path parameter at fault. */
  location?: { name: string; type: 'header' | 'parameter' };
  /** For the scope refusals: the scopes that would have been accepted. */
  scopes?: readonly string[];
}

type CanonicalStatus = GoogleErrorBody['error']['status'];

interface Shape {
  http: number;
  status: CanonicalStatus;
  reason: string;
  /** The RFC 6750 `error` of the challenge; '' for a bare challenge; absent: no challenge. */
  bearerError?: string;
}

const shapes: Record<LookupCode, Shape> = {
  no_route: { http: 404, status: 'NOT_FOUND', reason: 'notFound' },
  // gRPC answers a method it does not serve with UNIMPLEMENTED; HTTP's word for it here is 405.
  method_not_allowed: { http: 405, status: 'UNIMPLEMENTED', reason: 'methodNotAllowed' },
  invalid_app_id: { http: 400, status: 'INVALID_ARGUMENT', reason: 'invalidParameter' },
  body_not_allowed: { http: 400, status: 'INVALID_ARGUMENT', reason: 'bodyNotAllowed' },
  invalid_parameter: { http: 400, status: 'INVALID_ARGUMENT', reason: 'invalidParameter' },
  invalid_request: { http: 400, status: 'INVALID_ARGUMENT', reason: 'badRequest', bearerError: 'invalid_request' },
  credentials_required: { http: 401, status: 'UNAUTHENTICATED', reason: 'required', bearerError: '' },
  invalid_token: { http: 401, status: 'UNAUTHENTICATED', reason: 'authError', bearerError: 'invalid_token' },
  insufficient_scope: { http: 403, status: 'PERMISSION_DENIED', reason: 'insufficientPermissions', bearerError: 'insufficient_scope' },
  security_assessment_required: { http: 403, status: 'PERMISSION_DENIED', reason: 'securityAssessmentRequired', bearerError: 'insufficient_scope' },
  issuer_unavailable: { http: 503, status: 'UNAVAILABLE', reason: 'backendError' },
  store_unavailable: { http: 503, status: 'UNAVAILABLE', reason: 'backendError' },
  app_not_found: { http: 404, status: 'NOT_FOUND', reason: 'notFound' },
};

/** RFC 6750 section 3; messages are ours and stay within its character set. */
function challenge(realm: string, failure: LookupFailure, bearerError: string): string {
  const params: [string, string][] = [['realm', realm]];
  if (bearerError) params.push(['error', bearerError], ['error_description', failure.message.replace(/["\\]/g, "'")]);
  if (failure.scopes) params.push(['scope', failure.scopes.join(' ')]);
  return `Bearer ${params.map(([name, value]) => `${name}="${value}"`).join(', ')}`;
}

/** The error body, as a schema so the OpenAPI document describes exactly what googleErrorBody builds. */
export const GoogleErrorBody = z.object({
  error: z.object({
    code: z.int(),
    message: z.string(),
    status: z.enum(['INVALID_ARGUMENT', 'UNAUTHENTICATED', 'PERMISSION_DENIED', 'NOT_FOUND', 'UNIMPLEMENTED', 'UNAVAILABLE']),
    errors: z.array(
      z.object({
        domain: z.string(),
        reason: z.string(),
        message: z.string(),
        location: z.string().optional(),
        locationType: z.enum(['header', 'parameter']).optional(),
      }),
    ),
  }),
});
export type GoogleErrorBody = z.infer<typeof GoogleErrorBody>;

function googleErrorBody(failure: LookupFailure): GoogleErrorBody {
  const shape = shapes[failure.code];
  return {
    error: {
      code: shape.http,
      message: failure.message,
      status: shape.status,
      errors: [
        {
          domain: 'global',
          reason: shape.reason,
          message: failure.message,
          ...(failure.location && { location: failure.location.name, locationType: failure.location.type }),
        },
      ],
    },
  };
}

export function sendLookupFailure(res: Response, failure: LookupFailure, realm: string): void {
  const shape = shapes[failure.code];
  if (shape.bearerError !== undefined) res.set('WWW-Authenticate', challenge(realm, failure, shape.bearerError));
  if (failure.code === 'method_not_allowed') res.set('Allow', 'GET, HEAD');
  if (failure.code === 'store_unavailable') res.set('Retry-After', String(STORE_RETRY_AFTER_SECONDS));
  // Otherwise Node reads and discards the refused body to keep the connection, however large it is.
  if (failure.code === 'body_not_allowed') res.set('Connection', 'close');
  res.status(shape.http).type('json').send(JSON.stringify(googleErrorBody(failure), null, 2));
}
