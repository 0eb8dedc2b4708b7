/**
 * testHelpers against a real backend in sandbox mode (testing/harness.ts): the clock read and moved, a
 * session expired by the move; and against a stub, that a move is sent once, never retried, since
 * a second try would move the clock again.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../testing/harness';
import { listen, type Listening } from '../../../testing/listen';
import { WalletCheckout, WalletCheckoutApiError } from '../src';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ RECONCILE_INTERVAL_MS: '3600000' });
});
afterAll(() => server.close());

describe('testHelpers', () => {
  it("reads the application's clock and moves it forward: an unpaid session expires when the call resolves", async () => {
    const { secretKey } = await server.merchant();
    const walletCheckout = new WalletCheckout(secretKey, { baseUrl: server.url });
    expect(await walletCheckout.testHelpers.clock()).toMatchObject({ object: 'test_clock', offset_seconds: 0, session: null });
    const session = await walletCheckout.sessions.create({ amount: 2400, currency: 'USD', country_code: 'US' });
    const clock = await walletCheckout.testHelpers.advanceClock({ seconds: 25 * 3600 });
    expect(clock).toMatchObject({ offset_seconds: 25 * 3600 });
    expect((await walletCheckout.sessions.retrieve(session.id)).status).toBe('expired');
    const refused = await walletCheckout.testHelpers.advanceClock({ seconds: 0 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(WalletCheckoutApiError);
    expect(refused).toMatchObject({ status: 400, code: 'invalid_request' });
  });

  it('sends a move once, even when the API answers 503: a retry would move the clock twice', async () => {
    let received = 0;
    const api: Listening = await listen((req: IncomingMessage, res: ServerResponse) => {
      received++;
      req.resume();
      res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'store_unavailable', message: 'briefly unavailable' } }));
    });
    try {
      const walletCheckout = new WalletCheckout('sk_test_stub', { baseUrl: api.origin, retryBaseDelayMs: 1, maxRetries: 3 });
      const failed = await walletCheckout.testHelpers.advanceClock({ seconds: 60 }).catch((error: unknown) => error);
      expect(failed).toMatchObject({ status: 503, code: 'store_unavailable' });
      expect(received).toBe(1);
    } finally {
      await api.close();
    }
  });
});
