/**
 * The same error, once per interval: a background loop that meets a database
 * that is down (the webhook worker polls every 250 ms, on every instance)
 * would otherwise write the same line, stack and all, at each poll.
 *
 * The first occurrence of an error is logged as it is; the ones like it that
 * follow within the interval are counted, and when the interval ends one line
 * says how many more there were ("... 239 more times in the last 60 s").
 * While they keep coming, one such line per interval; once an interval passes
 * without any, the next is logged in full again. Errors are alike when the
 * same message is logged for the same kind of error (its class and `code`):
 * two different failures of one loop are each logged.
 *
 * The clock is the global one (Date.now, setTimeout), so tests drive it with
 * fake timers. Timers are unref'd: they never hold a process open.
 */
import type { Logger } from 'pino';

/** How long repeated errors are counted before one line reports them (docs/operations.md, "Logs"). */
export const REPEAT_INTERVAL_MS = 60_000;

/** Distinct errors counted at once; beyond it, further kinds are counted together (a bound on memory, whatever errors come). */
const MAX_KINDS = 100;

type Level = 'error' | 'warn';

interface Counting {
  level: Level;
  message: string;
  kind: { type: string; code?: string };
  repeats: number;
  since: number;
  timer: NodeJS.Timeout;
}

export interface RepeatLimiter {
  /** Logs `message` at `level` with `fields` (an `err` or `error` in them is what makes two alike), or counts it. */
  error(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  /** Writes the counts still pending and forgets them (at shutdown). */
  flush(): void;
}

/**
 * The class and code of what was logged, thrown (`err`) or already reduced for the log (`error`,
 * loggedError's `{type, code}`): what makes two errors alike, never their messages (which vary, and can hold data).
 */
function kindOf(logged: unknown): { type: string; code?: string } {
  if (logged === null || typeof logged !== 'object') return { type: logged === undefined ? 'none' : typeof logged };
  const { type, code } = logged as { type?: unknown; code?: unknown };
  const name = logged instanceof Error ? (logged.constructor?.name ?? logged.name) : typeof type === 'string' ? type : 'object';
  return { type: name, ...(typeof code === 'string' && { code }) };
}

export function repeatLimiter(logger: Pick<Logger, Level>, options: { intervalMs?: number } = {}): RepeatLimiter {
  const intervalMs = options.intervalMs ?? REPEAT_INTERVAL_MS;
  const counting = new Map<string, Counting>();

  /** End of an interval: one line for the repeats, and another interval while they go on; none, and the error is forgotten. */
  function report(key: string): void {
    const entry = counting.get(key);
    if (!entry) return;
    if (entry.repeats === 0) {
      counting.delete(key);
      return;
    }
    summarise(entry);
    entry.repeats = 0;
    entry.since = Date.now();
    entry.timer = setTimeout(() => report(key), intervalMs).unref();
  }

  function summarise(entry: Counting): void {
    const seconds = Math.max(1, Math.round((Date.now() - entry.since) / 1000));
    // The kind and the count only: the first line has the stack, and its other fields (a delivery's id, a request's) were that occurrence's.
    logger[entry.level]({ error: entry.kind, repeated: entry.repeats, repeatedWithinMs: Date.now() - entry.since }, `${entry.message}: ${entry.repeats} more times in the last ${seconds} s`);
  }

  function log(level: Level, fields: Record<string, unknown>, message: string): void {
    const kind = kindOf(fields.err ?? fields.error);
    const exact = `${level}\u0000${message}\u0000${kind.type}\u0000${kind.code ?? ''}`;
    const overflow = !counting.has(exact) && counting.size >= MAX_KINDS;
    const key = overflow ? `${level}\u0000(other kinds)` : exact;
    const entry = counting.get(key);
    if (entry) {
      entry.repeats++;
      return;
    }
    logger[level](fields, message);
    counting.set(key, { level, message: overflow ? 'errors of other kinds' : message, kind: overflow ? { type: 'various' } : kind, repeats: 0, since: Date.now(), timer: setTimeout(() => report(key), intervalMs).unref() });
  }

  return {
    error: (fields, message) => log('error', fields, message),
    warn: (fields, message) => log('warn', fields, message),
    flush() {
      for (const entry of counting.values()) {
        clearTimeout(entry.timer);
        if (entry.repeats > 0) summarise(entry);
      }
      counting.clear();
    },
  };
}
