/**
 * Request bodies, read at the edge: before authentication, before a rate
 * limit reads the store, before any handler or walk sees them. A body must be
 * UTF-8 `application/json` (nothing else is ever read: a payment product must
 * not move money on a body it could not read), within its route's size, within
 * the shape limits (json-shape.ts: depth, keys, string length, checked on the
 * raw bytes before JSON.parse), a JSON object, and storable text. docs/api.md,
 * "Bodies".
 */
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { IncomingMessage } from 'node:http';
import { unstorableTextPath } from '../contracts';
import type { Failure } from '../lib/result';
import { sendError, sendFailure, unstorableText } from './errors';
import { JSON_SHAPE_LIMITS, type JsonShapeLimits, jsonShapeProblem } from './json-shape';

/** The exact bytes each JSON body arrived as: idempotency fingerprints hash them, not a re-serialisation. */
const rawBodies = new WeakMap<IncomingMessage, Buffer>();

export const rawBodyOf = (req: IncomingMessage): Buffer | undefined => rawBodies.get(req);

/** A body is announced by a non-zero Content-Length or by any Transfer-Encoding (chunked, even if it then carries nothing). */
export const carriesBody = (req: IncomingMessage): boolean => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) !== 0;

export const UNSUPPORTED_MEDIA_TYPE: Failure = { code: 'unsupported_media_type', message: 'The body must be UTF-8 JSON: Content-Type: application/json' };
const INVALID_JSON: Failure = { code: 'invalid_json', message: 'The body is not valid JSON' };
const NOT_UTF8: Failure = { code: 'invalid_json', message: 'The body is not valid UTF-8' };
const NOT_AN_OBJECT: Failure = { code: 'invalid_request', message: '(body): the body must be a JSON object' };

/**
 * `application/json`, with no parameter but `charset=utf-8` (any case, quoted or not): JSON's
 * media type has no parameters (RFC 8259), and UTF-8 is the only encoding read. A `+json` type,
 * another charset (utf-16 among them) or any other parameter is not it.
 */
export function isUtf8Json(contentType: string): boolean {
  const [type, ...parameters] = contentType.split(';');
  if (type!.trim().toLowerCase() !== 'application/json') return false;
  return parameters.every((parameter) => {
    const match = /^\s*charset\s*=\s*(?:"utf-8"|utf-8)\s*$/i.exec(parameter);
    return match !== null;
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export interface JsonBodyOptions {
  /** The most bytes the route takes, as body-parser spells it ('32kb'); a longer body is 413 before it is read. */
  limit: string;
  shape?: JsonShapeLimits;
}

/**
 * The JSON body parser of every route that takes one, ours and the sandbox's.
 * An empty body (none announced, or zero bytes) leaves `req.body` undefined:
 * the route's schema says whether it may be (an optional body is `{}`). A
 * Content-Type, when sent, must be UTF-8 JSON even on an empty body; a
 * non-empty body without one is refused too. Compressed bodies are refused
 * (415): the limits are on what is read, never on what it inflates to.
 */
export const jsonBody = (options: JsonBodyOptions | string): RequestHandler => {
  const { limit, shape = JSON_SHAPE_LIMITS } = typeof options === 'string' ? { limit: options } : options;
  const read = express.raw({ type: () => true, limit, inflate: false });
  return (req: Request, res: Response, next: NextFunction) => {
    const contentType = req.headers['content-type'];
    const announced = carriesBody(req);
    if (contentType === undefined ? announced : !isUtf8Json(contentType)) return sendFailure(res, UNSUPPORTED_MEDIA_TYPE);
    if (!announced) return next();
    read(req, res, (error?: unknown) => {
      if (error) return next(error);
      const bytes = req.body as Buffer | undefined;
      req.body = undefined;
      if (bytes === undefined || bytes.length === 0) return next();
      const problem = jsonShapeProblem(bytes, shape);
      if (problem) return sendFailure(res, { code: 'invalid_request', message: problem });
      let text: string;
      try {
        text = utf8.decode(bytes);
      } catch {
        return sendFailure(res, NOT_UTF8);
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return sendFailure(res, INVALID_JSON);
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return sendFailure(res, NOT_AN_OBJECT);
      const path = unstorableTextPath(value);
      if (path) return sendError(res, unstorableText(path));
      rawBodies.set(req, bytes);
      req.body = value;
      next();
    });
  };
};
