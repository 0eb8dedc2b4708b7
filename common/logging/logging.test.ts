/**
 * What request log lines keep of a path. A 3-D Secure challenge page's URL is
 * its only credential: whoever reads it from a log could complete (or fail)
 * the shopper's challenge.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PayReply, RolledSecretKey } from '../../contracts';
import express from 'express';
import { errorHandler } from '../../server/app';
import { createLogger, requestLogger } from './index';
import { listen } from '../../testing/listen';
import { startTestServer, type TestServer } from '../../testing/harness';

let logDir: string;
let logFile: string;
let server: TestServer;
beforeAll(async () => {
  logDir = mkdtempSync(join(tmpdir(), 'wallet-checkout-logs-'));
  logFile = join(logDir, 'server.log');
  server = await startTestServer({}, { logFile });
});
afterAll(async () => {
  await server.close();
  rmSync(logDir, { recursive: true, force: true });
});

describe('request logs', () => {
  it("leave no trace of a challenge page's secret path: shown, answered, or asked about by the backend", async () => {
    const { secretKey } = await server.merchant();
    const session = await server.createSession(secretKey);
    const paid = (await (await server.pay(session, { payment_data: await server.walletPaymentData(session, 'visa-3ds-required-pan') })).json()) as PayReply;
    const challengeUrl = paid.outcome.challenge_url!;
    const secret = new URL(challengeUrl).pathname.split('/').at(-1)!;
    expect(secret).toMatch(/^as_/);

    expect((await fetch(challengeUrl)).status).toBe(200);
    const answered = await fetch(challengeUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'action=complete', redirect: 'manual' });
    expect(answered.status).toBe(303);
    // The backend then asks the service how the authentication went, by the same id.
    expect((await server.authenticate(session)).status).toBe(200);

    const lines = readFileSync(logFile, 'utf8').trim().split('\n');
    const challengeLines = lines.filter((line) => line.includes('/challenge/'));
    expect(challengeLines.map((line) => (JSON.parse(line) as { req: { method: string; path: string } }).req)).toEqual([
      expect.objectContaining({ method: 'GET', path: '/sandbox/service/challenge/[redacted]' }),
      expect.objectContaining({ method: 'POST', path: '/sandbox/service/challenge/[redacted]' }),
    ]);
    expect(lines.filter((line) => line.includes(secret))).toEqual([]);
  });

  it('carry neither secret key of a roll, nor the filters of a listing', async () => {
    const { secretKey } = await server.merchant();
    const rolled = (await (await server.merchantPost(secretKey, '/api/keys/roll', { expire_current_in_seconds: 60 })).json()) as RolledSecretKey;
    expect((await fetch(`${server.url}/api/sessions?reference=order-secretive-42`, { headers: { authorization: `Bearer ${rolled.secret}` } })).status).toBe(200);
    const log = readFileSync(logFile, 'utf8');
    expect(log).toContain('/api/keys/roll');
    for (const text of [secretKey, rolled.secret, 'order-secretive-42']) expect(log).not.toContain(text);
  });
});

describe('error logs', () => {
  it('hold no trace of a webhook URL that does not parse: a 400, and no error line', async () => {
    const { secretKey } = await server.merchant();
    const url = 'not a uri, secretive-hook-98765';
    const reply = await server.merchantPost(secretKey, '/api/webhook_endpoints', { url });
    expect(reply.status).toBe(400);
    const lines = readFileSync(logFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { level: number; reqId?: string; req?: { id?: string } });
    expect(lines.find((line) => line.req?.id === reply.headers.get('request-id'))).toMatchObject({ res: { statusCode: 400 } });
    expect(lines.filter((line) => line.level >= 40 && line.reqId === reply.headers.get('request-id'))).toEqual([]);
    expect(readFileSync(logFile, 'utf8')).not.toContain('secretive-hook');
  });

  // At warn no completion line is written, and the request's logger is made only for the error line (requestLogger).
  it.each(['info', 'warn'])("carry the request's id, and the error's class and frames, never what the caller sent (LOG_LEVEL=%s)", async (level) => {
    const lines: string[] = [];
    const logger = createLogger(level, { write: (line: string) => lines.push(line) });
    const app = express();
    app.use(requestLogger(logger));
    app.use(express.json());
    // A bug that meets the caller's text: URL's TypeError carries it as `input`, JSON.parse's message quotes it.
    app.post('/url', (req) => void new URL((req.body as { url: string }).url));
    app.post('/json', (req) => JSON.parse((req.body as { text: string }).text));
    app.use(errorHandler(logger));
    const listening = await listen(app);
    try {
      for (const [path, body] of [['/url', { url: 'not a uri, secretive-hook-1234' }], ['/json', { text: '{"card":"secretive-hook-1234"' }]] as const) {
        const reply = await fetch(`${listening.origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        expect(reply.status).toBe(500);
        const requestId = reply.headers.get('request-id');
        const errorLine = lines.map((line) => JSON.parse(line) as { level: number; msg: string; reqId?: string; error?: { type: string; stack?: string } }).find((line) => line.level === 50 && line.reqId === requestId);
        expect(errorLine).toMatchObject({ msg: 'unhandled error', error: { type: expect.stringMatching(/Error$/), stack: expect.stringContaining('at ') } });
      }
      expect(lines.join('\n')).not.toContain('secretive-hook');
    } finally {
      await listening.close();
    }
  });
});

describe('request ids', () => {
  it("are answered as Request-Id, unique per request, and find the request's log line", async () => {
    const replies = await Promise.all([1, 2].map(() => fetch(`${server.url}/api/sessions/cs_AAAAAAAAAAAAAAAAAAAAAA`, { headers: { authorization: 'Bearer sk_test_nobody' } })));
    const ids = replies.map((reply) => reply.headers.get('request-id'));
    expect(ids).toEqual([expect.stringMatching(/^req_[0-9a-f-]{36}$/), expect.stringMatching(/^req_[0-9a-f-]{36}$/)]);
    expect(ids[0]).not.toBe(ids[1]);
    const lines = readFileSync(logFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { req?: { id?: string; path?: string }; res?: { statusCode?: number } });
    expect(lines.find((line) => line.req?.id === ids[0])).toMatchObject({ req: { path: '/api/sessions/cs_AAAAAAAAAAAAAAAAAAAAAA' }, res: { statusCode: 401 } });
  });
});

describe('personal data in a logged object', () => {
  it("is redacted: the wallet's addresses and e-mail, as Google names them and as the merchant's view does", () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => lines.push(line) });
    const address = { address1: '1 Secretive Way', countryCode: 'US' };
    logger.info({ paymentData: { email: 'secretive@example.com', shippingAddress: address, billingAddress: address } }, 'wallet reply');
    logger.info({ session: { email: 'secretive@example.com', shipping_address: address, billing_address: address, billing_address_on_file: address } }, 'session');
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).not.toMatch(/secretive/i);
    expect(JSON.parse(lines[1]!)).toMatchObject({ session: { email: '[redacted]', shipping_address: '[redacted]' } });
  });
});
