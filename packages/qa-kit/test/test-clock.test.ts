/**
 * The kit's test clock helpers against a real checkout host in sandbox mode (testing/harness.ts): the
 * clock read and moved as a merchant's suite would, a session expired by the move, a refusal thrown with
 * the API's code.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Session } from '../../../contracts';
import { startTestServer, type TestServer } from '../../../testing/harness';
import { advanceClock, readClock } from '../src/test-clock';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ RECONCILE_INTERVAL_MS: '3600000' });
});
afterAll(() => server.close());

it("reads and moves the application's clock: a session expires by the time the move resolves; a refusal throws its code", async () => {
  const { secretKey } = await server.merchant();
  const host = { checkoutOrigin: `${server.url}/`, secretKey };
  expect(await readClock(host)).toMatchObject({ object: 'test_clock', offset_seconds: 0 });
  const created = await server.createSession(secretKey);
  const moved = await advanceClock({ ...host, seconds: 25 * 3600, session: created.id });
  expect(moved).toMatchObject({ offset_seconds: 0, session: created.id });
  const read = (await (await fetch(`${server.url}/api/sessions/${created.id}`, { headers: { authorization: `Bearer ${secretKey}` } })).json()) as Session;
  expect(read.status).toBe('expired');
  const clock = await advanceClock({ ...host, to: (await readClock(host)).now + 3_600_000 });
  expect(clock.offset_seconds).toBeGreaterThan(3590);
  await expect(advanceClock({ ...host, seconds: 0 })).rejects.toThrow(/^test clock: 400 invalid_request: /);
});
