/**
 * Logs a developer reads (LOG_FORMAT=pretty, development's default on a terminal): one line per
 * event by pino-pretty, a request as `GET /api/sessions 201 12 ms req_...`. The same redacted
 * objects as the JSON lines: only the layout differs.
 */
import type pino from 'pino';
import pretty from 'pino-pretty';

interface RequestLine {
  req?: { id?: string; method?: string; path?: string };
  res?: { statusCode?: number };
  responseTime?: number;
}

/** A request's line says what was asked and how it ended; any other line is its message. */
function message(log: Record<string, unknown>, messageKey: string): string {
  const { req, res, responseTime } = log as RequestLine;
  if (!req || !res) return String(log[messageKey] ?? '');
  return `${req.method} ${req.path} ${res.statusCode} ${Math.round(responseTime ?? 0)} ms ${req.id ?? ''}`.trimEnd();
}

export function prettyLines(destination: pino.DestinationStream | undefined, colorize: boolean): pino.DestinationStream {
  return pretty({
    destination: destination ?? 1,
    sync: true,
    colorize,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,req,res,responseTime,reqId',
    messageFormat: message,
  });
}
