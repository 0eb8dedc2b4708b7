/**
 * Every error reply, ours and the sandbox service's, is `{error: {code,
 * message}}`. Layers below the routes speak only of what went wrong (a
 * Failure); the status is decided at the edge, here.
 */
import express, { type ErrorRequestHandler, type Response } from 'express';
import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import type { ApiErrorBody } from '../contracts';
import type { Failure } from '../lib/result';

/** An error reply before it is sent: the status and the body's `error`. */
export interface HttpError extends Failure {
  status: number;
}

export const httpError = (status: number, code: string, message: string): HttpError => ({ status, code, message });

export const errorBody = (error: Failure): ApiErrorBody => ({ error: { code: error.code, message: error.message } });

export function sendError(res: Response, error: HttpError): void {
  res.status(error.status).json(errorBody(error));
}

/** The status of each code the checkout's layers return; an unlisted code is our bug. */
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
  rate_limited: 429,
  service_unavailable: 502,
  root_keys_unavailable: 503,
  direct_mode_unavailable: 503,
};

export const statusFor = (failure: Failure): number => statusByCode[failure.code] ?? 500;

export const sendFailure = (res: Response, failure: Failure): void => sendError(res, { status: statusFor(failure), ...failure });

/**
 * Names the fields at fault and what was wrong, never the values (they may be
 * payment data): zod 4's messages state expectations, and unknown keys are field names.
 */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join('.') || '(body)'}: ${issue.message}`)
    .join('; ');
}

export const invalidRequest = (error: z.ZodError): Failure => ({ code: 'invalid_request', message: describeIssues(error) });

/** The exact bytes each JSON body arrived as: idempotency fingerprints hash them, not a re-serialisation. */
const rawBodies = new WeakMap<IncomingMessage, Buffer>();

export const rawBodyOf = (req: IncomingMessage): Buffer | undefined => rawBodies.get(req);

export const jsonBody = (limit: string) =>
  express.json({
    limit,
    verify: (req, _res, buf) => {
      rawBodies.set(req, buf);
    },
  });

/** Body-parser's refusals are the client's mistakes (4xx); anything else goes on to the app's handler. */
export const bodyParserErrors: ErrorRequestHandler = (error: unknown, _req, res, next) => {
  const type = (error as { type?: unknown } | null)?.type;
  if (type === 'entity.parse.failed') return sendError(res, httpError(400, 'invalid_json', 'The body is not valid JSON'));
  if (type === 'entity.too.large') return sendError(res, httpError(413, 'payload_too_large', 'The body is too large'));
  if (type === 'charset.unsupported' || type === 'encoding.unsupported') return sendError(res, httpError(415, 'unsupported_media_type', 'The body must be UTF-8 JSON'));
  next(error);
};
