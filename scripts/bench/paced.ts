/**
 * An open-loop sender for the pay benchmark's fixed rate: request i is due at
 * start + i / rate, and is sent then whatever the earlier ones are doing, on
 * as many kept-alive connections as are in flight. autocannon's `overallRate`
 * is not that: it gives each connection rate / connections requests a second
 * and lets it send them back to back from the top of each second (its
 * httpClient.js), so "200/s on 20 connections" is 20 closed loops at once for
 * the first part of every second, then silence.
 *
 * Each request carries its sequence number (SEQUENCE_HEADER) so that the
 * servers' probe (tail-probe.ts) can join its side to ours, and is timed from
 * when it was due (lateness: this process's own delay), when it was written,
 * and when its reply's last byte arrived, on CLOCK_MONOTONIC in ms.
 */
import { Agent, request } from 'node:http';
import { SEQUENCE_HEADER } from './tail-window';

export interface PacedRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface PacedSample {
  seq: number;
  dueMs: number;
  sentMs: number;
  doneMs: number;
}

export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/**
 * A kept-alive socket left idle is closed by the server after its keep-alive timeout (Node's 5 s, which
 * it announces as `Keep-Alive: timeout=5`); a request written on it as the server closes it fails with
 * ECONNRESET. Node's agent closes its idle sockets a second before the announced timeout, but only when
 * it has a timeout of its own (Agent#keepSocketAlive compares the hint with it): without one, a socket
 * left idle after a burst could be taken up again just as the server closed it, which is how one
 * request of a 200/s phase most likely failed with ECONNRESET (2026-11-27). Past the hint, this is the
 * longest a socket may be idle; no request of the bench waits that long.
 */
const IDLE_SOCKET_TIMEOUT_MS = 60_000;

export async function sendPaced(url: string, take: () => PacedRequest, amount: number, ratePerSecond: number): Promise<PacedSample[]> {
  const { hostname, port } = new URL(url);
  const agent = new Agent({ keepAlive: true, timeout: IDLE_SOCKET_TIMEOUT_MS });
  const intervalMs = 1000 / ratePerSecond;
  const samples: PacedSample[] = [];
  const failures: string[] = [];
  const startMs = monotonicMs();

  const send = (seq: number, dueMs: number) =>
    new Promise<void>((resolve) => {
      const { path, headers, body } = take();
      const sentMs = monotonicMs();
      const outgoing = request({ agent, hostname, port, method: 'POST', path, headers: { ...headers, [SEQUENCE_HEADER]: String(seq), 'content-length': String(Buffer.byteLength(body)) } }, (reply) => {
        reply.resume();
        reply.on('end', () => {
          if (reply.statusCode !== undefined && reply.statusCode >= 200 && reply.statusCode < 300) samples.push({ seq, dueMs, sentMs, doneMs: monotonicMs() });
          else failures.push(`${reply.statusCode}`);
          resolve();
        });
      });
      outgoing.on('error', (error) => {
        failures.push(error.message);
        resolve();
      });
      outgoing.end(body);
    });

  const inFlight: Promise<void>[] = [];
  await new Promise<void>((resolve) => {
    let next = 0;
    const tick = () => {
      // Everything already due goes now: a late tick catches up rather than shifting the schedule.
      for (let dueMs = startMs + next * intervalMs; next < amount && dueMs <= monotonicMs(); dueMs = startMs + next * intervalMs) inFlight.push(send(next++, dueMs));
      if (next < amount) setTimeout(tick, Math.max(0, startMs + next * intervalMs - monotonicMs()));
      else resolve();
    };
    tick();
  });
  await Promise.all(inFlight);
  agent.destroy();
  if (failures.length > 0) throw new Error(`${url}: ${failures.length} of ${amount} paced requests failed (${[...new Set(failures)].slice(0, 3).join('; ')})`);
  return samples;
}
