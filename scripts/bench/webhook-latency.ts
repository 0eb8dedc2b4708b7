/**
 * Webhook delivery latency: from the state change (the event's `created`,
 * written in the payment's own transaction) to the merchant's receiver
 * reading the delivery. The real server (a child process, shipped settings:
 * the worker woken by the payment's write) pays sessions one after another; a plain
 * node:http receiver on 127.0.0.1 notes when each event arrives.
 */
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Event } from '../../contracts';
import { shopClient, startChildServer } from '../../testing/child-server';
import { percentile } from './stats';

export interface WebhookLatencyResult {
  payments: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export async function benchWebhookLatency(options: { payments: number }): Promise<WebhookLatencyResult> {
  const arrivals = new Map<string, number>();
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const arrived = Date.now();
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Event;
      if (!arrivals.has(event.id)) arrivals.set(event.id, arrived - event.created);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  // Vite's build in the bench process set NODE_ENV=production, which refuses the sandbox and http endpoints.
  const server = await startChildServer({ env: { NODE_ENV: 'development', LOG_LEVEL: 'warn' } });
  try {
    const registered = await fetch(`${server.url}/api/webhook_endpoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.demoSecretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`, events: ['session.succeeded'] }),
    });
    if (registered.status !== 201) throw new Error(`registering the receiver answered ${registered.status}`);
    const shop = shopClient(server);
    for (let i = 0; i < options.payments; i++) {
      const session = await shop.createSession();
      const paid = await shop.pay(session, await shop.walletPaymentData(session, 'visa-success-3ds'));
      if (paid.body.outcome?.status !== 'succeeded') throw new Error(`payment ${i} came to ${paid.status} ${JSON.stringify(paid.body)}`);
    }
    const deadline = Date.now() + 30_000;
    while (arrivals.size < options.payments && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    if (arrivals.size < options.payments) throw new Error(`${options.payments - arrivals.size} webhooks never arrived`);
    const latencies = [...arrivals.values()];
    return { payments: options.payments, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), maxMs: Math.max(...latencies) };
  } finally {
    await server.stop();
    rmSync(server.dataDir, { recursive: true, force: true });
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
}

// `tsx scripts/bench/webhook-latency.ts`: this figure alone.
if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchWebhookLatency({ payments: Number(process.argv[2] ?? 200) }));
