/**
 * The background loops while the store is down: the
 * webhook worker (a poll every 250 ms), reconciliation with its expiry sweep,
 * and the heartbeat each log the error once, then a count per interval
 * (logging/repeats.ts), not a line with its stack at every pass. The store here
 * is closed under them; the clock is vitest's fake one.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startReconciler } from '../checkout/reconcile';
import { createDataCipher } from '../lib/data-cipher';
import { startHeartbeat } from './heartbeat';
import type { ServiceClient } from '../service-client';
import { openStore, type Store } from '../store';
import { HEARTBEAT_INTERVAL_MS } from '../store/heartbeats';
import { startDeliveryWorker } from '../webhooks/delivery';
import { createLogger, type Logger } from '../../common/logging';
import { REPEAT_INTERVAL_MS } from '../../common/logging/repeats';

let dataDir: string;
let store: Store;
let lines: { level: number; msg: string; err?: { stack?: string } }[];
let logger: Logger;

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'wallet-checkout-repeats-'));
  store = await openStore(dataDir);
  lines = [];
  logger = createLogger('info', { write: (line: string) => lines.push(JSON.parse(line)) });
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(dataDir, { recursive: true, force: true });
});

const cipher = createDataCipher(randomBytes(32));
const withStacks = () => lines.filter((line) => line.err?.stack).length;
const messages = () => lines.map((line) => line.msg);

describe('while the store is down', () => {
  it('the webhook worker tries again every second and logs its error once, then once per interval with a count', async () => {
    await store.destroy();
    const worker = startDeliveryWorker({ store, cipher, logger }, { delivery: 'automatic', timeoutMs: 1_000, retry: { baseMs: 1, maxMs: 1, windowMs: 1 }, addressPolicy: 'any' });
    await vi.advanceTimersByTimeAsync(2.5 * REPEAT_INTERVAL_MS);
    await worker.stop();
    // About 150 failed passes: one line with the stack, one count per minute, and what was left at the stop.
    expect(messages()).toEqual([
      'looking for due webhook deliveries failed',
      expect.stringMatching(/^looking for due webhook deliveries failed: [56]\d more times in the last 60 s$/),
      expect.stringMatching(/^looking for due webhook deliveries failed: [56]\d more times in the last 60 s$/),
      expect.stringMatching(/^looking for due webhook deliveries failed: [23]\d more times in the last 30 s$/),
    ]);
    expect(withStacks()).toBe(1);
  });

  it('reconciliation (and its expiry sweep) logs its error once, then once per interval with a count', async () => {
    await store.destroy();
    const deps = { store, service: {} as ServiceClient, cipher, logger, abandoned: new Set<string>(), instanceId: 'i_test', sharedStore: false, leaseMs: 1_000, personalDataRetentionMs: 1_000 };
    const reconciler = startReconciler(deps, { intervalMs: 1_000, idleIntervalMs: 60_000, inFlightGraceMs: 1_000 });
    // A single instance runs the sweeps on its clock.
    reconciler.lead(true);
    await vi.advanceTimersByTimeAsync(2 * REPEAT_INTERVAL_MS);
    await reconciler.stop();
    // A pass every second: the first failure with its stack, then a count per minute, and what was left at the stop.
    const [first, ...counts] = messages();
    expect(first).toBe('reconciliation failed');
    expect(counts.slice(0, 2)).toEqual([expect.stringMatching(/^reconciliation failed: \d\d more times in the last 60 s$/), expect.stringMatching(/^reconciliation failed: \d\d more times in the last 60 s$/)]);
    for (const line of counts) expect(line).toMatch(/^reconciliation failed: \d+ more times in the last \d+ s$/);
    expect(withStacks()).toBe(1);
  });

  it('the heartbeat logs a missed beat once, then once per interval with a count', async () => {
    const heartbeat = await startHeartbeat(store, 'http://127.0.0.1:1', logger);
    await store.destroy();
    await vi.advanceTimersByTimeAsync(30 * HEARTBEAT_INTERVAL_MS);
    await heartbeat.stop();
    const beats = messages().filter((message) => message.startsWith('could not record the server heartbeat'));
    expect(beats[0]).toBe('could not record the server heartbeat');
    // 30 missed beats over 5 minutes: the first, and a count per minute.
    expect(beats.length).toBeLessThanOrEqual(1 + (30 * HEARTBEAT_INTERVAL_MS) / REPEAT_INTERVAL_MS + 1);
    expect(beats.slice(1).every((message) => / more times in the last \d+ s$/.test(message))).toBe(true);
    expect(withStacks()).toBe(1 + messages().filter((message) => message === 'could not remove the server heartbeat').length);
  });
});
