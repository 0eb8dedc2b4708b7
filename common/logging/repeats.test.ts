/**
 * Repeated errors, once per interval (repeats.ts): the first in full, then one
 * line per interval with how many more, on fake timers.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { repeatLimiter } from './repeats';

interface Line {
  level: 'error' | 'warn';
  fields: Record<string, unknown>;
  message: string;
}

function recorder() {
  const lines: Line[] = [];
  return {
    lines,
    logger: {
      error: (fields: Record<string, unknown>, message: string) => lines.push({ level: 'error', fields, message }),
      warn: (fields: Record<string, unknown>, message: string) => lines.push({ level: 'warn', fields, message }),
    },
  };
}

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a repeated error', () => {
  it('is logged in full once, then once per interval with the count, while a 250 ms poll keeps meeting it', () => {
    const { lines, logger } = recorder();
    const log = repeatLimiter(logger as never, { intervalMs: 60_000 });
    const first = refused();
    // Two and a half minutes of a database that is down, polled every 250 ms: 600 errors.
    for (let poll = 0; poll < 600; poll++) {
      log.error({ err: poll === 0 ? first : refused() }, 'looking for due webhook deliveries failed');
      vi.advanceTimersByTime(250);
    }
    expect(lines.map((line) => line.message)).toEqual([
      'looking for due webhook deliveries failed',
      'looking for due webhook deliveries failed: 239 more times in the last 60 s',
      'looking for due webhook deliveries failed: 240 more times in the last 60 s',
    ]);
    // The first keeps its error (and so its stack); a summary has the kind and the count, no stack.
    expect(lines[0]!.fields.err).toBe(first);
    expect(lines[1]!.fields).toEqual({ error: { type: 'Error', code: 'ECONNREFUSED' }, repeated: 239, repeatedWithinMs: 60_000 });
    expect(lines.every((line) => line.level === 'error')).toBe(true);

    // The outage ends: the last 120 repeats are reported at the end of their interval, then nothing.
    vi.advanceTimersByTime(60_000);
    expect(lines.at(-1)!.message).toBe('looking for due webhook deliveries failed: 120 more times in the last 60 s');
    vi.advanceTimersByTime(10 * 60_000);
    expect(lines).toHaveLength(4);

    // A quiet interval later, the next occurrence is logged in full again.
    log.error({ err: refused() }, 'looking for due webhook deliveries failed');
    expect(lines).toHaveLength(5);
    expect(lines[4]!.message).toBe('looking for due webhook deliveries failed');
  });

  it('writes no summary when it happened once', () => {
    const { lines, logger } = recorder();
    const log = repeatLimiter(logger as never, { intervalMs: 1_000 });
    log.warn({ err: refused() }, 'could not record the server heartbeat');
    vi.advanceTimersByTime(10_000);
    expect(lines).toHaveLength(1);
  });

  it('counts apart errors of other kinds or messages, and levels', () => {
    const { lines, logger } = recorder();
    const log = repeatLimiter(logger as never, { intervalMs: 1_000 });
    for (let i = 0; i < 3; i++) {
      log.error({ err: refused() }, 'reconciliation failed');
      log.error({ err: new TypeError('x is undefined') }, 'reconciliation failed');
      log.error({ err: refused() }, 'looking for due webhook deliveries failed');
      log.warn({ err: refused() }, 'reconciliation failed');
    }
    expect(lines).toHaveLength(4);
    vi.advanceTimersByTime(1_000);
    expect(lines.slice(4).map((line) => [line.level, line.message, line.fields.error])).toEqual([
      ['error', 'reconciliation failed: 2 more times in the last 1 s', { type: 'Error', code: 'ECONNREFUSED' }],
      ['error', 'reconciliation failed: 2 more times in the last 1 s', { type: 'TypeError' }],
      ['error', 'looking for due webhook deliveries failed: 2 more times in the last 1 s', { type: 'Error', code: 'ECONNREFUSED' }],
      ['warn', 'reconciliation failed: 2 more times in the last 1 s', { type: 'Error', code: 'ECONNREFUSED' }],
    ]);
  });

  it('takes an error already reduced for the log (loggedError) as its kind', () => {
    const { lines, logger } = recorder();
    const log = repeatLimiter(logger as never, { intervalMs: 1_000 });
    for (let i = 0; i < 5; i++) log.error({ error: { type: 'Error', code: 'ECONNREFUSED', stack: `at frame ${i}` }, limiter: 'merchant' }, 'rate limiter error');
    vi.advanceTimersByTime(1_000);
    expect(lines.map((line) => line.message)).toEqual(['rate limiter error', 'rate limiter error: 4 more times in the last 1 s']);
  });

  it('keeps at most 100 kinds apart, whatever comes: the rest are counted together', () => {
    const { lines, logger } = recorder();
    const log = repeatLimiter(logger as never, { intervalMs: 1_000 });
    for (let i = 0; i < 150; i++) log.error({ err: Object.assign(new Error('e'), { code: `E${i}` }) }, 'failed');
    expect(lines).toHaveLength(101);
    vi.advanceTimersByTime(1_000);
    expect(lines.slice(101).map((line) => line.message)).toEqual(['errors of other kinds: 49 more times in the last 1 s']);
  });

  it('reports what it counted when flushed (at shutdown), and holds no timer after', () => {
    const { lines, logger } = recorder();
    const log = repeatLimiter(logger as never, { intervalMs: 60_000 });
    for (let i = 0; i < 4; i++) log.error({ err: refused() }, 'reconciliation failed');
    vi.advanceTimersByTime(5_000);
    log.flush();
    expect(lines.map((line) => line.message)).toEqual(['reconciliation failed', 'reconciliation failed: 3 more times in the last 5 s']);
    expect(vi.getTimerCount()).toBe(0);
  });
});
