/**
 * Request bodies, read at the edge: one middleware (bodyEdge) in front of
 * every route, before authentication, rate limits, CORS checks or anything
 * that reads the store. A route takes a body only if its router declares one
 * (BodyRules, next to the routes); every other request that carries a body is
 * refused, so a route added without a rule cannot run on a body it never read.
 *
 * A body must be UTF-8 `application/json` (a payment product must not move
 * money on a body it could not read), within its route's size, within the
 * shape limits (json-shape.ts: depth, keys, string length, checked on the raw
 * bytes before JSON.parse), a JSON object, and storable text. docs/api.md,
 * "Bodies".
 */
import type { Request, RequestHandler, Response } from 'express';
import { match } from 'path-to-regexp';
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { unstorableTextPath } from '../../contracts';
import type { Failure } from '../result';
import { sendError, sendFailure, unstorableText } from './errors';
import { JSON_SHAPE_LIMITS, type JsonShapeLimits, jsonShapeProblem } from './json-shape';

export const KB = 1024;

/**
 * What a route takes: `required`, a JSON object; `optional`, a JSON object or
 * nothing at all (an empty body is `{}`); `form`, an HTML form's
 * urlencoded fields (the sandbox's 3-D Secure page only). `limit`: its most bytes.
 */
export interface BodyRule {
  body: 'required' | 'optional' | 'form';
  limit: number;
  shape?: JsonShapeLimits;
}

/** A router's rules, by `METHOD /path` exactly as the router declares the route (`POST /api/sessions/:id/capture`). */
export type BodyRules = Record<`${'POST' | 'PUT' | 'PATCH' | 'DELETE'} /${string}`, BodyRule>;

/** The exact bytes each body arrived as: idempotency fingerprints hash them, not a re-serialisation. */
const rawBodies = new WeakMap<IncomingMessage, Buffer>();

export const rawBodyOf = (req: IncomingMessage): Buffer | undefined => rawBodies.get(req);

/** A body is announced by a non-zero Content-Length or by any Transfer-Encoding (chunked, even if it then carries nothing). */
export const carriesBody = (req: IncomingMessage): boolean => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) !== 0;

export const UNSUPPORTED_MEDIA_TYPE: Failure = { code: 'unsupported_media_type', message: 'The body must be UTF-8 JSON: Content-Type: application/json' };
const UNSUPPORTED_FORM: Failure = { code: 'unsupported_media_type', message: 'The body must be a UTF-8 form: Content-Type: application/x-www-form-urlencoded' };
/** Said of a route that takes none, and of a path no route serves (the edge answers before routing). */
export const BODY_NOT_ALLOWED: Failure = { code: 'body_not_allowed', message: 'No request body is taken here: this method and path take none' };
const BODY_REQUIRED: Failure = { code: 'invalid_request', message: '(body): a JSON object is required' };
const TOO_LARGE: Failure = { code: 'payload_too_large', message: 'The body is too large' };
const INVALID_JSON: Failure = { code: 'invalid_json', message: 'The body is not valid JSON' };
const NOT_UTF8: Failure = { code: 'invalid_json', message: 'The body is not valid UTF-8' };
const NOT_AN_OBJECT: Failure = { code: 'invalid_request', message: '(body): the body must be a JSON object' };

/**
 * `mediaType`, with no parameter but `charset=utf-8` (any case, quoted or not): JSON's media type
 * has no parameters (RFC 8259), and UTF-8 is the only encoding read. A `+json` type, another charset
 * (utf-16 among them) or any other parameter is not it.
 */
export function isUtf8Type(contentType: string, mediaType: string): boolean {
  const [type, ...parameters] = contentType.split(';');
  if (type!.trim().toLowerCase() !== mediaType) return false;
  return parameters.every((parameter) => /^\s*charset\s*=\s*(?:"utf-8"|utf-8)\s*$/i.test(parameter));
}

export const isUtf8Json = (contentType: string): boolean => isUtf8Type(contentType, 'application/json');

/** UTF-8 or not, checked natively before decoding (a BOM is kept, and is then not JSON). */
const utf8Text = (bytes: Buffer): string | undefined => (isUtf8(bytes) ? bytes.toString('utf8') : undefined);

/**
 * A refusal sent before the body was read: the connection closes after it, so
 * the server never reads (or waits for) a body it has no use for.
 */
function refuseUnread(res: Response, failure: Failure): void {
  res.set('Connection', 'close');
  sendFailure(res, failure);
}

/**
 * The body's bytes, at most `limit` of them: a longer one is refused (413) as
 * soon as it is known to be, by its Content-Length before a byte is read, else
 * when its bytes pass the limit. `done` is not called when the client went away.
 */
function readBody(req: Request, res: Response, limit: number, done: (bytes: Buffer) => void): void {
  if (Number(req.headers['content-length'] ?? 0) > limit) return refuseUnread(res, TOO_LARGE);
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  const stop = () => {
    finished = true;
    req.off('data', onData).off('end', onEnd).off('close', onClose);
    // Whatever still comes is dropped; the connection closes after the reply.
    req.resume();
  };
  const onData = (chunk: Buffer) => {
    if (finished) return;
    size += chunk.length;
    if (size > limit) {
      stop();
      return refuseUnread(res, TOO_LARGE);
    }
    chunks.push(chunk);
  };
  const onEnd = () => {
    if (finished) return;
    stop();
    done(Buffer.concat(chunks, size));
  };
  // The client went away before the end: nobody to answer.
  const onClose = () => {
    if (!finished && !req.complete) stop();
  };
  req.on('data', onData).on('end', onEnd).on('close', onClose);
}

/** The checks that need no byte of the body: its encoding and its media type. */
function unreadable(req: Request, mediaType: 'json' | 'form'): Failure | undefined {
  const encoding = req.headers['content-encoding'];
  // Compressed bodies are refused: the limits are on what is read, never on what it would inflate to.
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') return mediaType === 'json' ? UNSUPPORTED_MEDIA_TYPE : UNSUPPORTED_FORM;
  const contentType = req.headers['content-type'];
  if (mediaType === 'form') return contentType !== undefined && isUtf8Type(contentType, 'application/x-www-form-urlencoded') ? undefined : UNSUPPORTED_FORM;
  // A Content-Type, when sent, must be JSON even on an empty body; a body without one is not JSON either.
  if (contentType === undefined ? carriesBody(req) : !isUtf8Json(contentType)) return UNSUPPORTED_MEDIA_TYPE;
  return undefined;
}

/** The parsed JSON object of `bytes`, or why it is refused. */
function parseJson(bytes: Buffer, shape: JsonShapeLimits): { value: object } | { failure: Failure } {
  const problem = jsonShapeProblem(bytes, shape);
  if (problem) return { failure: { code: 'invalid_request', message: problem } };
  const text = utf8Text(bytes);
  if (text === undefined) return { failure: NOT_UTF8 };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { failure: INVALID_JSON };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { failure: NOT_AN_OBJECT };
  return { value };
}

/**
 * Reads and checks one route's body (`rule`), then leaves `req.body` the
 * parsed object, or undefined for an empty optional body. A form is read into
 * an object of its fields (the last of a repeated name).
 */
export function bodyReader(rule: BodyRule): RequestHandler {
  const { shape = JSON_SHAPE_LIMITS } = rule;
  const form = rule.body === 'form';
  return (req, res, next) => {
    req.body = undefined;
    const refused = unreadable(req, form ? 'form' : 'json');
    if (refused) return refuseUnread(res, refused);
    const finish = (bytes: Buffer) => {
      if (bytes.length === 0) return rule.body === 'required' ? sendFailure(res, BODY_REQUIRED) : next();
      let value: object;
      if (form) {
        // A form is flat text: its length is its only shape, and the limit bounds it.
        const text = utf8Text(bytes);
        if (text === undefined) return sendFailure(res, NOT_UTF8);
        value = Object.assign(Object.create(null) as object, Object.fromEntries(new URLSearchParams(text)));
      } else {
        const parsed = parseJson(bytes, shape);
        if ('failure' in parsed) return sendFailure(res, parsed.failure);
        value = parsed.value;
      }
      const path = unstorableTextPath(value);
      if (path) return sendError(res, unstorableText(path));
      rawBodies.set(req, bytes);
      req.body = value;
      next();
    };
    if (!carriesBody(req)) return finish(Buffer.alloc(0));
    readBody(req, res, rule.limit, finish);
  };
}

/** Every request whose route takes no body: one that carries a body is refused, unread. */
export const noBody: RequestHandler = (req, res, next) => (carriesBody(req) ? refuseUnread(res, BODY_NOT_ALLOWED) : next());

/**
 * The edge: each route of `rules` reads its body (bodyReader), and every other
 * request is refused if it carries one (noBody). Routes are matched as the
 * routers match them (path-to-regexp, as Express's router calls it: case-insensitive,
 * a trailing slash allowed), but by a middleware, not a router: a router whose last
 * layer calls next(), or that a layer leaves with next('router'), hands the request
 * on with setImmediate, a turn of the event loop later, and every request of the
 * server passes by here (server/http/same-turn.test.ts).
 * A preflight is not read here: a router answers OPTIONS itself for the paths it has routes for.
 */
export function bodyEdge(rules: BodyRules): RequestHandler {
  const routes = routesOf(rules).map(({ method, path, rule }) => ({ method, matches: match(path, { decode: false }), read: bodyReader(rule) }));
  return (req, res, next) => {
    const route = req.method === 'OPTIONS' ? undefined : routes.find(({ method, matches }) => method === req.method && matches(req.path) !== false);
    return (route?.read ?? noBody)(req, res, next);
  };
}

/** The rules' routes: the edge's, the OpenAPI document's agreement test's and the per-route tests'. */
export const routesOf = (rules: BodyRules): { method: string; path: string; rule: BodyRule }[] =>
  (Object.entries(rules) as [string, BodyRule][]).map(([route, rule]) => {
    const [method, path] = route.split(' ') as [string, string];
    return { method, path, rule };
  });
