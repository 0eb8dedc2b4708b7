import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendPaced } from './paced';

describe('the paced sender', () => {
  let server: Server;
  let url: string;
  let connections = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end('{}'));
    });
    // Announced to clients as `Keep-Alive: timeout=2`.
    server.keepAliveTimeout = 2_000;
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('does not write on a socket idle for as long as the server may be closing it', async () => {
    const take = () => ({ path: '/', headers: { 'content-type': 'application/json' }, body: '{}' });
    // Two requests 1.5 s apart: past the hint less Node's second of margin, short of the server's timeout.
    const samples = await sendPaced(url, take, 2, 1 / 1.5);
    expect(samples).toHaveLength(2);
    expect(connections).toBe(2);
  }, 10_000);
});
