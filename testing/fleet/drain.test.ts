/**
 * A graceful shutdown under load, on the real server as its own process: 8 shoppers paying
 * in a loop on kept-alive connections, then SIGTERM. During the drain delay
 * nothing fails and /readyz says draining while /healthz stays up; the only
 * failures afterwards are refused connections (the instance stopped
 * accepting, which a load balancer would have avoided: connect() refused,
 * or reset in the kernel's accept queue before the server read the request);
 * the payments in flight finish, the process exits 0, an idle kept-alive connection is closed
 * rather than reset, and the service holds one charge per paid session.
 */
import { Agent, get } from 'node:http';
import { rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, expect, it } from 'vitest';
import { auditLedger, type ChildServer, readLedger, settledSessions, shopClient, startChildServer } from '../child-server';

const SHOPPERS = 8;
const DRAIN_DELAY_MS = 3_000;
/** Every charge waits this long at the service, so that payments are in flight at the signal and at the close. */
const CHARGE_LATENCY_MS = 300;
/**
 * Once the server stops accepting: refused, or reset by the kernel, which holds connections it completed for
 * us in the accept queue and resets them when the listening socket closes. Either way the request was never read.
 */
const CONNECTION_NOT_TAKEN = new Set(['ECONNREFUSED', 'ECONNRESET']);

let server: ChildServer | undefined;
afterAll(async () => {
  await server?.kill();
  if (server) rmSync(server.dataDir, { recursive: true, force: true });
});

/** What a failed request's error says, from fetch's cause down to the socket's code. */
function failureCode(error: unknown): string {
  const cause = (error as { cause?: { code?: string; cause?: { code?: string } } }).cause;
  return cause?.code ?? cause?.cause?.code ?? (error instanceof Error ? error.message : String(error));
}

/** One HTTP/1.1 request on `agent`'s kept-alive socket: its status, its Connection header, and the socket. */
function getOn(agent: Agent, url: string): Promise<{ status: number; connection: string | undefined; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const req = get(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, socket: req.socket as Socket }));
    });
    req.on('error', reject);
  });
}

it('drains on SIGTERM: no failed request during the delay, /readyz 503, payments in flight finish, exit 0, each charged once', async () => {
  server = await startChildServer({ env: { SHUTDOWN_DRAIN_DELAY_MS: String(DRAIN_DELAY_MS), SHUTDOWN_GRACE_MS: '15000' } });
  const running = server;
  const shop = shopClient(running);
  await shop.setFaults({ rate: 1, kinds: ['latency'], latencyMs: CHARGE_LATENCY_MS });

  // A kept-alive connection left idle from before the signal.
  const idleAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const idle = await getOn(idleAgent, `${running.url}/healthz`);
  expect(idle.connection).toBe('keep-alive');
  const idleSocketEnd = new Promise<string>((resolve) => {
    idle.socket.once('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code}`));
    idle.socket.once('end', () => resolve('end'));
  });

  let signalledAt = Number.POSITIVE_INFINITY;
  const sessionIds: string[] = [];
  const failures: { at: number; code: string }[] = [];
  /** Sessions whose pay request failed to connect: the server must never have taken it. */
  const payNotSent: string[] = [];
  let paid = 0;
  const shopper = async () => {
    for (;;) {
      let paying: string | undefined;
      try {
        const session = await shop.createSession();
        sessionIds.push(session.id);
        const paymentData = await shop.walletPaymentData(session, 'visa-success-3ds');
        paying = session.id;
        const reply = await shop.pay(session, paymentData);
        if (reply.status !== 200) throw new Error(`pay answered ${reply.status} ${reply.body.error?.code}`);
        paid++;
      } catch (error) {
        const code = failureCode(error);
        failures.push({ at: Date.now(), code });
        if (paying) payNotSent.push(paying);
        // The instance no longer accepts: a load balancer would have sent this shopper elsewhere.
        if (CONNECTION_NOT_TAKEN.has(code)) return;
      }
    }
  };
  const shoppers = Array.from({ length: SHOPPERS }, shopper);
  // Every shopper has paid at least once on average: their connections are open and kept alive.
  while (paid < SHOPPERS && failures.length === 0) await sleep(50);
  expect(failures).toEqual([]);
  const paidBeforeSignal = paid;

  signalledAt = Date.now();
  const stopping = running.stop();
  // The signal reaches the child and its handler runs: on a loaded machine that takes a moment; the delay is far longer.
  await expect.poll(async () => (await fetch(`${running.url}/readyz`)).status, { timeout: DRAIN_DELAY_MS / 2, interval: 50 }).toBe(503);
  const ready = await fetch(`${running.url}/readyz`);
  expect({ status: ready.status, body: await ready.json() }).toEqual({ status: 503, body: { status: 'draining' } });
  expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
  const duringDrain = await getOn(new Agent({ keepAlive: true }), `${running.url}/healthz`);
  expect({ status: duringDrain.status, connection: duringDrain.connection }).toEqual({ status: 200, connection: 'close' });

  expect(await stopping).toBe(0);
  const exitedAt = Date.now();
  await Promise.all(shoppers);
  expect(await idleSocketEnd).toBe('end');
  idleAgent.destroy();

  const delayOver = signalledAt + DRAIN_DELAY_MS;
  const paidDuringDrain = paid - paidBeforeSignal;
  console.log(
    `drain: ${SHOPPERS} shoppers, ${paidBeforeSignal} paid before SIGTERM, ${paidDuringDrain} after it, exit ${exitedAt - signalledAt} ms after it; ` +
      `failures: ${failures.map((f) => `${f.code} at +${f.at - signalledAt} ms`).join(', ') || 'none'}`,
  );
  expect(paidDuringDrain).toBeGreaterThan(0);
  // Nothing fails before the delay is over, and after it one connection per shopper is not taken, nothing else (no 5xx, no cut reply).
  expect(failures.filter((f) => f.at < delayOver)).toEqual([]);
  expect(failures).toHaveLength(SHOPPERS);
  expect(failures.every((f) => CONNECTION_NOT_TAKEN.has(f.code))).toBe(true);

  await running.restart();
  const sessions = await settledSessions(shop, sessionIds, 30_000);
  const audit = auditLedger(sessions, await readLedger(running.dataDir));
  expect({ duplicates: audit.duplicates, lost: audit.lost, mismatched: audit.mismatched, pending: audit.pending }).toEqual({ duplicates: [], lost: [], mismatched: [], pending: [] });
  expect(audit.succeeded).toBe(paid);
  for (const id of payNotSent) expect(sessions.find((session) => session.id === id)).toMatchObject({ attempts: 0 });
}, 90_000);
