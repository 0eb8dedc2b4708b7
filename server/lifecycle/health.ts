/**
 * What a load balancer and an orchestrator ask: /healthz (the process
 * answers: restart it if not) and /readyz (it can take payments: the store
 * answers a query and the payment service answers at all, and it is not shutting down;
 * send it traffic only if so).
 */
import express from 'express';
import { type Result, err, ok } from '../../common/result';
import { pingStore, type Store } from '../store';

export interface ReadinessOptions {
  store: Store;
  /** The payment service's base URL: any HTTP answer below 500 means it is reachable. */
  serviceUrl: string;
  /** Per check: a dependency slower than this counts as down. */
  timeoutMs: number;
  /** True once shutdown began: the load balancer must stop sending here, whatever the dependencies say. */
  draining: () => boolean;
}

type Check = Result<void, string>;

/** Rejects after `ms`, so a hung dependency cannot hang the probe. */
async function within(ms: number, work: Promise<Check>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Check>((resolve) => {
    timer = setTimeout(() => resolve(err(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The reason is generic: the body is public, and a driver's message names the database's address. */
async function storeCheck(store: Store): Promise<Check> {
  try {
    await pingStore(store);
    return ok(undefined);
  } catch {
    return err('unavailable');
  }
}

async function serviceCheck(url: string, timeoutMs: number): Promise<Check> {
  try {
    // No credentials: the probe asks whether the service is there, not whether it accepts us.
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.status < 500 ? ok(undefined) : err(`answered ${response.status}`);
  } catch {
    return err('could not be reached');
  }
}

export function healthRoutes(options: ReadinessOptions): express.Router {
  const router = express.Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    if (options.draining()) {
      res.status(503).json({ status: 'draining' });
      return;
    }
    const [store, service] = await Promise.all([
      within(options.timeoutMs, storeCheck(options.store)),
      within(options.timeoutMs, serviceCheck(options.serviceUrl, options.timeoutMs)),
    ]);
    const describe = (check: Check) => (check.ok ? 'ok' : check.error);
    res.status(store.ok && service.ok ? 200 : 503).json({
      status: store.ok && service.ok ? 'ready' : 'not_ready',
      checks: { store: describe(store), payment_service: describe(service) },
    });
  });
  return router;
}
