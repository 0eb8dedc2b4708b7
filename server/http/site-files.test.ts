/** The files every site is asked for (server/http/site-files.ts): robots.txt and favicon.ico. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';

let server: TestServer;
beforeAll(async () => void (server = await startTestServer()));
afterAll(() => server.close());

it('serves a robots.txt that keeps crawlers out of the dashboard', async () => {
  const reply = await fetch(`${server.url}/robots.txt`);
  expect(reply.status).toBe(200);
  expect(reply.headers.get('content-type')).toMatch(/^text\/plain/);
  const rules = (await reply.text()).split('\n');
  expect(rules).toContain('User-agent: *');
  expect(rules).toContain('Disallow: /dashboard');
});

it('serves a favicon, so no page logs a 404 for it', async () => {
  const reply = await fetch(`${server.url}/favicon.ico`);
  expect(reply.status).toBe(200);
  expect(reply.headers.get('content-type')).toBe('image/x-icon');
  const icon = Buffer.from(await reply.arrayBuffer());
  // An ICO header: reserved 0, type 1 (icon), one image.
  expect([...icon.subarray(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]);
});
