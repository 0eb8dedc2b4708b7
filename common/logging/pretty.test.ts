/** Readable logs (LOG_FORMAT=pretty, development's default at a terminal): one line per request, redacted as the JSON ones. */
import express from 'express';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { listen } from '../../testing/listen';
import { createLogger, logFormatFor, requestLogger } from '.';

/** A stream (pino-pretty writes to one) that keeps each line. */
const collecting = (lines: string[]) =>
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });

describe('pretty logs', () => {
  it('write a request as one line, method, path, status, time and id, and no JSON', async () => {
    const lines: string[] = [];
    const logger = createLogger('info', collecting(lines), 'pretty');
    const app = express();
    app.use(requestLogger(logger));
    app.get('/api/things', (_req, res) => void res.status(201).json({ ok: true }));
    const listening = await listen(app);
    try {
      const reply = await fetch(`${listening.origin}/api/things?client_secret=cs_x_secret_hidden`);
      expect(reply.status).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await listening.close();
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/api\/things 201 \d+ ms req_[0-9a-f-]{36}$/);
    expect(lines[0]).not.toContain('hidden');
  });

  it('redact what the JSON lines redact', () => {
    const lines: string[] = [];
    createLogger('info', collecting(lines), 'pretty').info({ session: { client_secret: 'cs_x_secret_hidden', email: 'someone@example.com' } }, 'a session');
    expect(lines.join('')).toContain('a session');
    expect(lines.join('')).not.toMatch(/hidden|someone@/);
  });

  it('are the default in development at a terminal only; JSON in production, to a pipe, or when LOG_FORMAT says', () => {
    expect(logFormatFor(undefined, true, true)).toBe('pretty');
    expect(logFormatFor(undefined, true, false)).toBe('json');
    expect(logFormatFor(undefined, false, true)).toBe('json');
    expect(logFormatFor('json', true, true)).toBe('json');
    expect(logFormatFor('pretty', false, false)).toBe('pretty');
  });
});
