import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedSession } from '../../contracts';
import { startTestServer, type TestServer } from '../../testing/harness';

/**
 * Express's router hands a request on with setImmediate when its last layer calls next(), or when a layer leaves
 * it with next('router'): a turn of the event loop, in which the request waits behind every other request's work. The
 * widget's calls pass by every layer mounted before the checkout routes (server/app.ts): none of them may do that.
 */
describe('a widget call on its way to its route', () => {
  let server: TestServer;
  let session: CreatedSession;

  beforeAll(async () => {
    server = await startTestServer();
    const { secretKey } = await server.merchant();
    session = await server.createSession(secretKey);
  });
  afterAll(() => server.close());

  /** The routers' setImmediate calls made while `send` runs, and its answer's status. */
  async function routerTurns(send: () => Promise<Response>): Promise<{ turns: number; status: number }> {
    const original = globalThis.setImmediate;
    let turns = 0;
    globalThis.setImmediate = ((...args: Parameters<typeof setImmediate>) => {
      if (new Error().stack?.includes('node_modules/router/')) turns += 1;
      return original(...args);
    }) as typeof setImmediate;
    try {
      const response = await send();
      await response.arrayBuffer();
      return { turns, status: response.status };
    } finally {
      globalThis.setImmediate = original;
    }
  }

  it('a payment reaches the pay route in the turn it arrived in', async () => {
    // A wrong client secret: refused by the pay route itself, once every layer before it has let the request by.
    const refused = await routerTurns(() => server.pay(session, { payment_data: {} }, { authorization: 'Bearer cs_wrong_secret' }));
    expect(refused).toEqual({ turns: 0, status: 401 });
  });

  it('the session view reaches its route in the turn it arrived in', async () => {
    const read = await routerTurns(() => fetch(`${server.url}/api/sessions/${session.id}/public`, { headers: { authorization: `Bearer ${session.client_secret}` } }));
    expect(read).toEqual({ turns: 0, status: 200 });
  });
});
