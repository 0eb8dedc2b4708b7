/**
 * The durable floor (bare-pay.ts with BENCH_DURABLE_DATA_DIR) started for a test, in front of a
 * payment service that succeeds every charge: what bare-pay.test.ts and tail-probe.test.ts share.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Child, startChild } from './children';

const token = JSON.stringify({ protocolVersion: 'ECv2', signedMessage: '{}' });
/** A pay body as the floor reads it: a wallet token it does not open. */
export const PAY_BODY = JSON.stringify({ payment_data: { paymentMethodData: { info: {}, tokenizationData: { token } } } });

export interface FloorFixture {
  /** The floor's SQLite files. */
  dir: string;
  floor: Child;
  url: string;
  stop(): Promise<void>;
}

/** Sessions the floor makes as it starts: `cs_durable0` to `cs_durable${FLOOR_SESSIONS - 1}`. */
export const FLOOR_SESSIONS = 50;

/** The service answers each charge after `serviceDelayMs`; `nodeArgs` and `env` go to the floor's process (a probe's preload, say). */
export async function startFloor(options: { serviceDelayMs?: number; nodeArgs?: readonly string[]; env?: Record<string, string> } = {}): Promise<FloorFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-floor-test-'));
  const service: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"ch_1","status":"succeeded"}'), options.serviceDelayMs ?? 0));
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  const stopService = () => new Promise((resolve) => service.close(resolve));
  try {
    const floor = await startChild(['node', ...(options.nodeArgs ?? []), '--import', 'tsx', 'scripts/bench/bare-pay.ts'], {
      ...options.env,
      PAYMENT_SERVICE_URL: `http://127.0.0.1:${(service.address() as AddressInfo).port}`,
      PAYMENT_SERVICE_KEY: 'sk_test',
      BENCH_MERCHANT_ID: 'bench',
      BENCH_DURABLE_DATA_DIR: dir,
      BENCH_DURABLE_SESSIONS: String(FLOOR_SESSIONS),
    }, /^READY /);
    return {
      dir,
      floor,
      url: floor.readyLine.slice('READY '.length).trim(),
      async stop() {
        await floor.stop();
        await stopService();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stopService();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
