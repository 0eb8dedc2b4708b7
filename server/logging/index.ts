/**
 * Structured logs (pino). Payment data never reaches them: request bodies and
 * headers are not logged, query strings are dropped (Google's `access_token`
 * travels there), and credential and token fields are redacted wherever they appear.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type Logger } from 'pino';
import { pinoHttp } from 'pino-http';

export const redactedPaths = ['req.headers.authorization', 'req.headers.cookie', '*.token', '*.pan', '*.cryptogram', '*.signedMessage', '*.client_secret', '*.secretKey'];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options = { level, redact: { paths: redactedPaths, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}

/** One line per request: what was asked and how it ended, nothing the caller sent. */
export const requestLogger = (logger: Logger) =>
  pinoHttp({
    logger,
    quietReqLogger: true,
    autoLogging: { ignore: (req) => req.url === '/healthz' },
    serializers: {
      req: (req: IncomingMessage & { id?: unknown; raw?: IncomingMessage }) => ({ id: req.id, method: req.method, path: (req.url ?? '').split('?')[0] }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
    },
  });

export type { Logger };
