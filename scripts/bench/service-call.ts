/**
 * The client's CPU for one call to the payment service, by how it is made: Node's global `fetch`
 * with an AbortController deadline (the service client until 2026-11-27), `fetch` without one, and
 * undici's `request` with the service client's own deadline (tryDeadline). A charge-sized JSON body
 * each way; the service is a plain node:http server in a child process, so that only the client's
 * CPU is counted (process.cpuUsage of this process). Rounds alternate the three ways; each figure is
 * the median of its rounds.
 *   npm run bench:service-call
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Agent, request } from 'undici';
import { tryDeadline } from '../../server/service-client';
import { median } from './stats';

const CALLS = Number(process.env.BENCH_CALLS ?? 4000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const IN_FLIGHT = 16;

const SERVICE = `
const reply = JSON.stringify({ id: 'ch_1', object: 'charge', status: 'succeeded', amount: 2400, currency: 'usd', card: { network: 'VISA', last4: '1111' }, metadata: { session_id: 'cs_1' }, detail: 'x'.repeat(700) });
const server = require('node:http').createServer((req, res) => { req.resume(); req.on('end', () => { res.setHeader('content-type', 'application/json'); res.end(reply); }); });
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

const child = spawn(process.execPath, ['-e', SERVICE], { stdio: ['ignore', 'pipe', 'inherit'] });
const [portLine] = (await once(child.stdout, 'data')) as [Buffer];
const url = `http://127.0.0.1:${portLine.toString().trim()}/api/v1/charges`;
const body = JSON.stringify({ source_data: { type: 'walletpay', walletpay: { signature: 's'.repeat(100), signedMessage: 'm'.repeat(800) } }, amount: 2400, currency: 'usd', metadata: { session_id: 'cs_1' } });
const headers = { authorization: 'Bearer sk_service', 'merchant-account': 'shop', 'content-type': 'application/json', 'idempotency-key': 'cs_1:attempt:1' };
const dispatcher = new Agent();
const DEADLINE_MS = 10_000;

const ways: Record<string, () => Promise<unknown>> = {
  'fetch, AbortController deadline': async () => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), DEADLINE_MS);
    try {
      return await (await fetch(url, { method: 'POST', headers, body, signal: controller.signal })).json();
    } finally {
      clearTimeout(timer);
    }
  },
  'fetch, no deadline': async () => (await fetch(url, { method: 'POST', headers, body })).json(),
  "undici's request, emitter deadline": async () => {
    const deadline = tryDeadline(DEADLINE_MS);
    try {
      const response = await request(url, { method: 'POST', headers, body, signal: deadline.signal, dispatcher });
      return JSON.parse(await response.body.text()) as unknown;
    } finally {
      deadline.clear();
    }
  },
};

/** The client's CPU per call, in µs. */
async function cpuPerCall(call: () => Promise<unknown>, calls: number): Promise<number> {
  let started = 0;
  const before = process.cpuUsage();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (started++ < calls) await call();
    }),
  );
  const used = process.cpuUsage(before);
  return (used.user + used.system) / calls;
}

try {
  for (const call of Object.values(ways)) await cpuPerCall(call, 1000);
  const samples = new Map(Object.keys(ways).map((name) => [name, [] as number[]]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, call] of Object.entries(ways)) samples.get(name)!.push(await cpuPerCall(call, CALLS));
  }
  const fetchWithDeadline = median(samples.get('fetch, AbortController deadline')!);
  console.log(`client CPU per call, median of ${ROUNDS} rounds of ${CALLS} calls, ${IN_FLIGHT} in flight:`);
  for (const [name, values] of samples) {
    const us = median(values);
    console.log(`  ${name.padEnd(36)} ${us.toFixed(0).padStart(5)} µs  ${(us / fetchWithDeadline).toFixed(2)}x the first`);
  }
} finally {
  child.kill();
  await dispatcher.close();
}
