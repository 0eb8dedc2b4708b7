/**
 * Structured logs (pino). Payment data never reaches them: request bodies and
 * headers are not logged, query strings are dropped (Google's `access_token`
 * travels there), a 3-D Secure challenge's id is cut from paths (its page's
 * URL is its only credential), and credential, token and personal data fields (addresses, e-mail) are
 * redacted wherever they appear.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { RequestHandler } from 'express';
import { prettyLines } from './pretty';

export const redactedPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.token',
  '*.pan',
  '*.cryptogram',
  '*.signedMessage',
  '*.client_secret',
  '*.secretKey',
  // Personal data (docs/api.md): the wallet's addresses and e-mail as Google names them, and as the merchant's view does.
  '*.billingAddress',
  '*.shippingAddress',
  '*.email',
  '*.billing_address',
  '*.billing_address_on_file',
  '*.shipping_address',
];

export type LogFormat = 'json' | 'pretty';

/** LOG_FORMAT when set; otherwise readable lines for a developer at a terminal, JSON for everything else (collectors, files, pipes, tests). */
export const logFormatFor = (chosen: LogFormat | undefined, development: boolean, terminal: boolean): LogFormat => chosen ?? (development && terminal ? 'pretty' : 'json');

/** To `destination`, or stdout: JSON lines, or readable ones (pretty.ts, coloured on a terminal). */
export function createLogger(level: string, destination?: pino.DestinationStream, format: LogFormat = 'json'): Logger {
  const options = { level, redact: { paths: redactedPaths, censor: '[redacted]' } };
  if (format === 'pretty') return pino(options, prettyLines(destination, !destination && process.stdout.isTTY === true));
  return destination ? pino(options, destination) : pino(options);
}

/**
 * An authentication session's id is its challenge page's secret path: cut from
 * `/sandbox/service/challenge/as_...` and from the service API's
 * `/authentication_sessions/as_...` alike, as `[redacted]`.
 */
const CHALLENGE_ID = /(\/(?:challenge|authentication_sessions)\/)[^/]+/;

/** What a request's line says of its path: no query, no credential. */
export const loggedPath = (url: string): string => url.split('?')[0]!.replace(CHALLENGE_ID, '$1[redacted]');

/**
 * One line per request: what was asked and how it ended, nothing the caller sent. Each request's
 * id is random (unique across instances) and answered as `Request-Id`, so the id a merchant quotes
 * (the Node library puts it on its errors) finds the line.
 */
export function requestLogger(logger: Logger): RequestHandler {
  const withCompletionLines = pinoHttp({
    logger,
    genReqId: identify,
    quietReqLogger: true,
    autoLogging: { ignore: (req) => req.url === '/healthz' },
    serializers: {
      req: (req: IncomingMessage & { id?: unknown; raw?: IncomingMessage }) => ({ id: req.id, method: req.method, path: loggedPath(req.url ?? '') }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
  });
  // pino-http writes its completion lines at info. Above info it writes none, yet would still build two child loggers per
  // request (their bindings serialized and redacted; about 70 µs of a pay's CPU, docs/benchmarks.md): then a request gets its
  // id alone, and requestLog makes its logger only for a line that is written.
  return (req, res, next) => {
    if (logger.isLevelEnabled('info')) {
      withCompletionLines(req, res, next);
      return;
    }
    (req as IdentifiedRequest).id = identify(req, res);
    next();
  };
}

type IdentifiedRequest = IncomingMessage & { id?: unknown; log?: Logger };

function identify(_req: IncomingMessage, res: ServerResponse): string {
  const id = `req_${randomUUID()}`;
  res.setHeader('Request-Id', id);
  return id;
}

/**
 * What a log line keeps of an error: its class, its `code` if it has one, and
 * where it was thrown (the stack's frames), never its message or its other
 * fields. Those can hold what a caller sent: a TypeError of `new URL(input)`
 * carries the whole input as `input`, JSON.parse's message quotes the text,
 * BigInt's the number, a driver's error the row's values.
 */
export function loggedError(error: unknown): { type: string; code?: string; stack?: string } {
  if (!(error instanceof Error)) return { type: error === null ? 'null' : typeof error };
  const code = (error as { code?: unknown }).code;
  const frames = (error.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .join('\n');
  return { type: error.constructor?.name ?? error.name, ...(typeof code === 'string' && { code }), ...(frames && { stack: frames }) };
}

/** The logger of a request's own lines: every line carries its `reqId` (`req.id`, answered as Request-Id). */
export const requestLog = (req: { log?: Logger; id?: unknown }, fallback: Logger): Logger => req.log ?? (req.id === undefined ? fallback : fallback.child({ reqId: req.id }));

export type { Logger };
