/**
 * Rolling restarts: how nginx treats an instance during a rolling restart, on two
 * plain HTTP servers standing for instances (what matters is nginx's
 * behaviour, not the app's). Which writes it replays on another instance
 * after one was sent and cut (docs/operations.md, "Which requests nginx
 * retries"), and that a reload with an instance marked `down` sends it
 * nothing once reload() resolves. Skipped, with a notice, where nginx is not
 * installed (scripts/ensure-nginx.sh).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNginx, type NginxSite, type RunningNginx, startNginx, waitForNginx, writeNginxConfig } from './nginx';
import { freePort } from '../free-port';

const nginx = findNginx();
if (!nginx) console.warn('nginx is not installed: the nginx retry test is skipped (bash scripts/ensure-nginx.sh installs it)');

/** An instance that answers with its name, or, while `cutting`, reads a request and drops its connection without answering (as a process killed under it). */
interface StandIn {
  address: string;
  name: string;
  cutting: boolean;
  /** Requests it read, by `METHOD path`. */
  seen: string[];
  server: Server;
}

async function standIn(name: string): Promise<StandIn> {
  const instance = { name, cutting: false, seen: [] as string[], address: '' } as StandIn;
  instance.server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      instance.seen.push(`${req.method} ${req.url}`);
      if (instance.cutting) req.socket.destroy();
      else res.end(JSON.stringify({ instance: name }));
    });
  });
  await new Promise<void>((resolve) => instance.server.listen(0, '127.0.0.1', resolve));
  instance.address = `127.0.0.1:${(instance.server.address() as AddressInfo).port}`;
  return instance;
}

describe.skipIf(!nginx)('nginx in front of two instances: retries and taking one out', () => {
  let first: StandIn;
  let second: StandIn;
  let site: NginxSite;
  let proxy: RunningNginx;

  beforeAll(async () => {
    [first, second] = await Promise.all([standIn('first'), standIn('second')]);
    site = { dir: mkdtempSync(join(tmpdir(), 'wallet-checkout-nginx-')), listen: { host: '127.0.0.1', port: await freePort() }, upstreams: [first.address, second.address] };
    await writeNginxConfig(nginx!, site);
    proxy = startNginx(nginx!, site);
    await waitForNginx(proxy, site, '/healthz');
  }, 30_000);

  afterAll(async () => {
    await proxy?.stop();
    await Promise.all([first, second].map((instance) => instance && new Promise((resolve) => instance.server.close(resolve))));
    if (site) rmSync(site.dir, { recursive: true, force: true });
  });

  /**
   * A connection per request: a reload closes nginx's idle client connections, and a kept-alive one
   * reused at that moment fails with no answer (docs/operations.md, "Deploying: a rolling restart").
   */
  const send = (path: string, init: RequestInit = {}) => fetch(`${proxy.url}${path}`, { ...init, headers: { connection: 'close' } });

  /** POSTs `path` until one went to `first` first (round robin), and returns nginx's answer to it. */
  async function postLandingFirstOn(path: string): Promise<{ status: number; body: string }> {
    // A fresh config: the counts of failures that keep a cut instance out for fail_timeout start again.
    await proxy.reload(site);
    for (let attempt = 0; attempt < 10; attempt++) {
      const before = first.seen.length;
      const response = await send(path, { method: 'POST', body: '{}' });
      const body = await response.text();
      if (first.seen.length > before) return { status: response.status, body };
    }
    throw new Error(`nginx never sent ${path} to the first instance`);
  }

  it('replays a pay cut after it was sent on the other instance, but never a session creation or a refund', async () => {
    first.cutting = true;
    try {
      const pay = await postLandingFirstOn('/api/sessions/cs_1/pay');
      expect(pay).toEqual({ status: 200, body: JSON.stringify({ instance: 'second' }) });
      for (const path of ['/api/sessions', '/api/sessions/cs_1/refunds']) {
        const secondSaw = second.seen.length;
        expect((await postLandingFirstOn(path)).status, path).toBe(502);
        expect(second.seen.slice(secondSaw), `${path} was not replayed`).not.toContain(`POST ${path}`);
      }
    } finally {
      first.cutting = false;
    }
  });

  it('sends an instance marked down nothing once the reload has resolved, and takes it back after', async () => {
    await proxy.reload({ ...site, down: [first.address] });
    const seenBefore = first.seen.length;
    const answers = await Promise.all(Array.from({ length: 20 }, () => send('/api/sessions/cs_2/public').then((r) => r.json())));
    expect(answers.every((answer) => (answer as { instance: string }).instance === 'second')).toBe(true);
    expect(first.seen.length).toBe(seenBefore);

    await proxy.reload(site);
    const back = await Promise.all(Array.from({ length: 20 }, () => send('/api/sessions/cs_2/public').then((r) => r.json())));
    expect(back.some((answer) => (answer as { instance: string }).instance === 'first')).toBe(true);
  });
});
