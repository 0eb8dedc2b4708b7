/** HTTP plumbing shared by the sandbox's service and wallet routers. */
import type { IncomingMessage } from 'node:http';
import express from 'express';
import type { ErrorRequestHandler, Response } from 'express';
import type { z } from 'zod';
import type { ApiErrorBody } from '../contracts';

/** An error reply before it is sent: the status and the body's `error`. */
export interface HttpError {
  status: number;
  code: string;
  message: string;
}

export const httpError = (status: number, code: string, message: string): HttpError => ({ status, code, message });

export const errorBody = (error: HttpError): ApiErrorBody => ({ error: { code: error.code, message: error.message } });

export function sendError(res: Response, error: HttpError): void {
  res.status(error.status).json(errorBody(error));
}

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

/**
 * Names the fields at fault and what was wrong, never the values: zod 4's
 * messages state expectations, and unknown keys are field names.
 */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join('.') || '(body)'}: ${issue.message}`)
    .join('; ');
}

/** Body-parser failures become the API's JSON errors; anything else is ours and goes to the app. */
export const bodyParserErrors: ErrorRequestHandler = (error: unknown, _req, res, next) => {
  const type = (error as { type?: unknown } | null)?.type;
  if (type === 'entity.parse.failed') return sendError(res, httpError(400, 'invalid_request', 'request body is not valid JSON'));
  if (type === 'entity.too.large') return sendError(res, httpError(413, 'request_too_large', 'request body is too large'));
  if (type === 'charset.unsupported' || type === 'encoding.unsupported') {
    return sendError(res, httpError(415, 'unsupported_media_type', 'request body must be UTF-8 JSON'));
  }
  next(error);
};
