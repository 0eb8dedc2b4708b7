/**
 * Every error reply, ours and the sandbox service's, is `{error: {code,
 * message}}`. Layers below the routes speak only of what went wrong (a
 * Failure); the status is decided at the edge, here.
 */
import type { ErrorRequestHandler, NextFunction, Request, Response } from 'express';
import type { z } from 'zod';
import { type ApiErrorBody, isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../../contracts';
import type { Failure } from '../result';
import { ERROR_CODES, isErrorCode } from '../../contracts/error-codes';

/** An error reply before it is sent: the status and the body's `error`. */
export interface HttpError extends Failure {
  status: number;
}

export const httpError = (status: number, code: string, message: string): HttpError => ({ status, code, message });

export const errorBody = (error: Failure): ApiErrorBody => ({ error: { code: error.code, message: error.message } });

export function sendError(res: Response, error: HttpError): void {
  res.status(error.status).json(errorBody(error));
}

/**
 * Seconds a client should wait before trying again, per code. The store: a
 * PostgreSQL restart or a managed failover takes seconds to a minute; a client
 * retrying sooner than this only adds load to a database coming back.
 */
export const STORE_RETRY_AFTER_SECONDS = 5;

const retryAfterByCode: Record<string, number> = {
  store_unavailable: STORE_RETRY_AFTER_SECONDS,
};

/** An unlisted code is our bug: 500. */
export const statusFor = (failure: Failure): number => (isErrorCode(failure.code) ? ERROR_CODES[failure.code].status : 500);

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

/** A 400 for text the store cannot keep (contracts/text.ts), naming where it is, never what. */
export const unstorableText = (path: (string | number)[]): HttpError =>
  httpError(400, 'invalid_request', `${path.map(String).join('.') || '(body)'}: ${UNSTORABLE_TEXT_MESSAGE}`);

/**
 * Errors that Express and body-parser raise for a client's mistake (a bad
 * percent-encoding in a path, a body that is not what its headers say) carry
 * a 4xx status: they are answered as such, in our shape, with fixed messages
 * (theirs can echo the input). Anything else goes on to the app's handler.
 */
const clientErrorByType: Record<string, Failure> = {
  'entity.parse.failed': { code: 'invalid_json', message: 'The body is not valid JSON' },
  'entity.too.large': { code: 'payload_too_large', message: 'The body is too large' },
  'charset.unsupported': { code: 'unsupported_media_type', message: 'The body must be UTF-8 JSON' },
  'encoding.unsupported': { code: 'unsupported_media_type', message: 'The body must be UTF-8 JSON' },
};

export const clientErrors: ErrorRequestHandler = (error: unknown, _req, res, next) => {
  const { type, status } = (error ?? {}) as { type?: unknown; status?: unknown };
  const known = typeof type === 'string' ? clientErrorByType[type] : undefined;
  if (known) return sendFailure(res, known);
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
