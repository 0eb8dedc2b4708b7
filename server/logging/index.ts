/**
 * Structured logs (pino). Payment data never reaches them: request bodies are
 * not logged, and credentials and token fields are redacted wherever they appear.
 */
import pino, { type Logger } from 'pino';

export const redactedPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.token',
  '*.pan',
  '*.cryptogram',
  '*.signedMessage',
  '*.client_secret',
  '*.secretKey',
];

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: redactedPaths, censor: '[redacted]' } });
}

export type { Logger };
