import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect, it } from 'vitest';
import { waitForOk } from './wait-for-ok';

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve)))));

/**
 * A probe's kept-alive connection outlives the probe in fetch's pool; a proxy reloaded or an
 * instance restarted later closes it, and the next request fetch sends on it fails with "other
 * side closed" (a race nginx-retries.test.ts lost in CI).
 */
it('leaves no connection open once the server answered', async () => {
  const server = createServer((_req, res) => res.end('ok'));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await waitForOk(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, 5_000, () => '');
  await sleep(50);
  const open = await new Promise<number>((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
  expect(open).toBe(0);
});
