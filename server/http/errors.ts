import type { Response } from 'express';
import type { z } from 'zod';
import type { Failure } from '../lib/result';

/**
 * Every error reply is `{error: {code, message}}`. Status codes are decided
 * here, from the code, so the layers below speak only of what went wrong.
 */
const statusByCode: Record<string, number> = {
  invalid_request: 400,
  invalid_json: 400,
  invalid_payment_token: 400,
  unauthenticated: 401,
  origin_not_allowed: 403,
  not_found: 404,
  payment_in_progress: 409,
  session_completed: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  service_unavailable: 502,
  root_keys_unavailable: 503,
  direct_mode_unavailable: 503,
};

export const statusFor = (code: string): number => statusByCode[code] ?? 500;

export function sendFailure(res: Response, failure: Failure): void {
  res.status(statusFor(failure.code)).json({ error: { code: failure.code, message: failure.message } });
}

/** Names the offending fields without echoing what was sent (it may be payment data). */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.join('.') || 'body';
      if (issue.code === 'unrecognized_keys') return `${path}: unknown field(s) ${issue.keys.join(', ')}`;
      if (issue.code === 'invalid_type') return `${path}: expected ${issue.expected}`;
      return `${path}: invalid value`;
    })
    .join('; ');
}

export const invalidRequest = (error: z.ZodError): Failure => ({ code: 'invalid_request', message: describeIssues(error) });
