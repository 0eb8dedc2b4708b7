/**
 * Every error reply, ours and the sandbox service's, is `{error: {code,
 * message}}`. Layers below the routes speak only of what went wrong (a
 * Failure); the status is decided at the edge, here.
 */
import express, { type ErrorRequestHandler, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { type ApiErrorBody, isStorableText, UNSTORABLE_TEXT_MESSAGE, unstorableTextPath } from '../contracts';
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
  url_not_allowed: 400,
  unauthenticated: 401,
  origin_not_allowed: 403,
  csrf_refused: 403,
  not_found: 404,
  payment_in_progress: 409,
  session_completed: 409,
  invalid_state: 409,
  amount_exceeds_refundable: 409,
  authentication_pending: 409,
  hold_expired: 409,
  replayed_token: 409,
  too_many_endpoints: 409,
  // Gone for good: an expired checkout never takes a payment again (the merchant creates a new one).
  session_expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  service_unavailable: 502,
  root_keys_unavailable: 503,
  direct_mode_unavailable: 503,
  platform_not_configured: 503,
  direct_key_not_registered: 503,
  store_unavailable: 503,
};

/**
 * Seconds a client should wait before trying again, per code. The store: a
 * PostgreSQL restart or a managed failover takes seconds to a minute; a client
 * retrying sooner than this only adds load to a database coming back.
 */
export const STORE_RETRY_AFTER_SECONDS = 5;

const retryAfterByCode: Record<string, number> = {
  store_unavailable: STORE_RETRY_AFTER_SECONDS,
};

export const statusFor = (failure: Failure): number => statusByCode[failure.code] ?? 500;

export function sendFailure(res: Response, failure: Failure): void {
  const retryAfter = retryAfterByCode[failure.code];
  if (retryAfter !== undefined) res.set('Retry-After', String(retryAfter));
  sendError(res, { status: statusFor(failure), ...failure });
}

/**
 * Names the fields at fault and what was wrong, never the values (they may be
 * payment data): zod 4's messages state expectations, and unknown keys are field names.
 */
export function describeIssues(error: z.ZodError, whole = '(body)'): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join('.') || whole}: ${issue.message}`)
    .join('; ');
}

/** `whole`: what an issue of no one field is about (an unknown key), the body unless said otherwise. */
export const invalidRequest = (error: z.ZodError, whole?: string): Failure => ({ code: 'invalid_request', message: describeIssues(error, whole) });

/** The exact bytes each JSON body arrived as: idempotency fingerprints hash them, not a re-serialisation. */
const rawBodies = new WeakMap<IncomingMessage, Buffer>();

export const rawBodyOf = (req: IncomingMessage): Buffer | undefined => rawBodies.get(req);

/** A 400 for text the store cannot keep (server/contracts/text.ts), naming where it is, never what. */
export const unstorableText = (path: (string | number)[]): HttpError =>
  httpError(400, 'invalid_request', `${path.map(String).join('.') || '(body)'}: ${UNSTORABLE_TEXT_MESSAGE}`);

/**
 * The JSON body parser of every route that takes one, ours and the sandbox's:
 * it keeps the raw bytes and refuses, before any handler runs, a body with a
 * string (or key) the store could not keep.
 */
export const jsonBody = (limit: string): RequestHandler => {
  const parse = express.json({
    limit,
    verify: (req, _res, buf) => {
      rawBodies.set(req, buf);
    },
  });
  return (req, res, next) =>
    parse(req, res, (error?: unknown) => {
      if (error) return next(error);
      const path = unstorableTextPath(req.body);
      if (path) return sendError(res, unstorableText(path));
      next();
    });
};

/**
 * Errors that Express and body-parser raise for a client's mistake (a bad
 * percent-encoding in a path, a body that is not what its headers say) carry
 * a 4xx status: they are answered as such, in our shape, with fixed messages
 * (theirs can echo the input). Anything else goes on to the app's handler.
 */
const clientErrorByType: Record<string, HttpError> = {
  'entity.parse.failed': httpError(400, 'invalid_json', 'The body is not valid JSON'),
  'entity.too.large': httpError(413, 'payload_too_large', 'The body is too large'),
  'charset.unsupported': httpError(415, 'unsupported_media_type', 'The body must be UTF-8 JSON'),
  'encoding.unsupported': httpError(415, 'unsupported_media_type', 'The body must be UTF-8 JSON'),
};

export const clientErrors: ErrorRequestHandler = (error: unknown, _req, res, next) => {
  const { type, status } = (error ?? {}) as { type?: unknown; status?: unknown };
  const known = typeof type === 'string' ? clientErrorByType[type] : undefined;
  if (known) return sendError(res, known);
  if (typeof status === 'number' && status >= 400 && status < 500) return sendError(res, httpError(status, 'invalid_request', 'The request is malformed'));
  next(error);
};

/**
 * A `router.param` check of a path id, before anything reads the store: text the store cannot hold
 * is a 400; an id of another shape than `shape` names nothing (`missing`, a 404), as a stranger's does.
 */
export const pathIdParam = (shape: z.ZodType<string>, missing: Failure) => (_req: Request, res: Response, next: NextFunction, id: string) => {
  if (!isStorableText(id)) return sendError(res, unstorableText(['id']));
  if (!shape.safeParse(id).success) return sendFailure(res, missing);
  next();
};
