/**
 * The view key (`GET /api/sessions/{id}/public?view_key=`): the client secret's SHA-256, which the
 * widget sends in place of the secret so that its first request is a CORS-simple GET. It reads the
 * session's view, for an allowed origin, never cached, and opens nothing else.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedSession, PublicSession } from '../../contracts';
import { startTestServer, type TestServer } from '../../testing/harness';

let server: TestServer;
let secretKey: string;
beforeAll(async () => {
  server = await startTestServer();
  ({ secretKey } = await server.merchant({ allowed_origins: ['https://shop.example'] }));
});
afterAll(() => server.close());

const viewKeyOf = (session: CreatedSession) => createHash('sha256').update(session.client_secret).digest('base64url');
/** As the widget asks: the key in the query, no Authorization header, the page's Origin. */
const read = (session: CreatedSession, key: string, origin = 'https://shop.example') =>
  fetch(`${server.url}/api/sessions/${session.id}/public?view_key=${encodeURIComponent(key)}`, { headers: { origin } });

describe('the view key', () => {
  it('reads the same view the client secret does, for an allowed origin, never cached', async () => {
    const session = await server.createSession(secretKey);
    const reply = await read(session, viewKeyOf(session));
    expect(reply.status).toBe(200);
    expect(reply.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(await reply.json()).toEqual(await server.publicSession(session));
  });

  it("is refused for another session, when guessed or malformed, and as the secret itself", async () => {
    const a = await server.createSession(secretKey);
    const b = await server.createSession(secretKey);
    const key = viewKeyOf(a);
    const flipped = `${key.slice(0, 10)}${key[10] === 'A' ? 'B' : 'A'}${key.slice(11)}`;
    for (const wrong of [viewKeyOf(b), flipped, `${key}=`, key.slice(0, 42), `${key}A`, createHash('sha256').update(a.client_secret).digest('hex'), a.client_secret, '']) {
      const reply = await read(a, wrong);
      expect(reply.status, wrong).toBe(401);
      expect(((await reply.json()) as { error: { code: string } }).error.code).toBe('unauthenticated');
    }
  });

  it("is refused for a page on an origin the app does not allow, with CORS headers so the widget can read why", async () => {
    const session = await server.createSession(secretKey);
    const reply = await read(session, viewKeyOf(session), 'https://evil.example');
    expect(reply.status).toBe(403);
    expect(((await reply.json()) as { error: { code: string } }).error.code).toBe('origin_not_allowed');
  });

  it('opens nothing but the view: paying and pricing still need the client secret', async () => {
    const session = await server.createSession(secretKey);
    const key = viewKeyOf(session);
    for (const action of ['pay', 'quote', 'authenticate']) {
      const reply = await fetch(`${server.url}/api/sessions/${session.id}/${action}?view_key=${key}`, {
        method: 'POST',
        headers: { origin: 'https://shop.example', 'content-type': 'application/json' },
        body: '{}',
      });
      expect(reply.status, action).toBe(401);
    }
    const view = (await (await read(session, key)).json()) as PublicSession;
    expect(view.status).toBe('open');
  });
});
