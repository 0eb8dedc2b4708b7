/**
 * Prometheus metrics, served at /metrics. Each app has its own Registry (not
 * prom-client's global one) so that several servers in one process, as in the
 * tests, keep their own counts and never register a metric twice.
 */
import type { RequestHandler } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ServiceClient } from '../service-client';
import { type Store, storeFailureOf } from '../store';
import { countAttemptsByStatus } from '../store/attempts';
import type { StoreErrorListener } from '../../common/store/failures';
import { syncConnectionOf } from '../../common/store/sync-transactions';

export interface Metrics {
  registry: Registry;
  /** Counts and times every request by method, route template and status. */
  requests: RequestHandler;
  /** The exposition, for GET /metrics. */
  scrape: RequestHandler;
  /** The same client, timed and counted: service-call latency and errors, and charges by outcome. */
  instrumentService(service: ServiceClient): ServiceClient;
  /** Counts the store's errors: given to the store when it opens (openStore's onError). */
  countStoreError: StoreErrorListener;
  /** Reports the store's unsettled attempts at each scrape; called once the store is open. */
  watchStore(store: Store): void;
  /** A limiter counted a request in this instance's memory because Redis (REDIS_URL) could not count it. */
  countLocalRateLimit(): void;
}

/** Attempt states whose outcome is not known yet: what an operator watches to see reconciliation keep up. */
const UNSETTLED = ['in_flight', 'pending'] as const;

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requestsTotal = new Counter({
    name: 'wallet_checkout_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const requestSeconds = new Histogram({
    name: 'wallet_checkout_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const charges = new Counter({
    name: 'wallet_checkout_charges_total',
    help: "Charge calls to the payment service, by outcome: the charge's status (failed reported as declined), failed (refused, nothing charged) or pending (outcome unknown)",
    labelNames: ['outcome'],
    registers: [registry],
  });
  const serviceSeconds = new Histogram({
    name: 'wallet_checkout_service_call_duration_seconds',
    help: 'Time of a call to the payment service, retries included, by operation and result (ok or the failure code)',
    labelNames: ['operation', 'result'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const serviceErrors = new Counter({
    name: 'wallet_checkout_service_call_errors_total',
    help: 'Calls to the payment service that failed, by operation and failure code',
    labelNames: ['operation', 'code'],
    registers: [registry],
  });
  const storeErrors = new Counter({
    name: 'wallet_checkout_store_errors_total',
    help: 'Errors the store raised (failed queries and connections, connections dropped), by kind: unavailable (down, unreachable, full, busy: answered 503) or other (a bug)',
    labelNames: ['kind'],
    registers: [registry],
  });
  // Both series exist from the start, so that a rate over them is defined before the first outage.
  for (const kind of ['unavailable', 'other']) storeErrors.inc({ kind }, 0);
  const localRateLimitCounts = new Counter({
    name: 'wallet_checkout_rate_limit_local_counts_total',
    help: "Requests a rate limiter counted in this instance's memory because Redis (REDIS_URL) could not count them: limits held per instance, not shared",
    registers: [registry],
  });

  return {
    registry,
    countLocalRateLimit: () => localRateLimitCounts.inc(),
    countStoreError(failure) {
      storeErrors.inc({ kind: failure ? 'unavailable' : 'other' });
    },
    watchStore(store) {
      new Gauge({
        name: 'wallet_checkout_unsettled_attempts',
        help: 'Payment attempts whose outcome is not known yet, by state (in_flight: with the service now; pending: waiting for reconciliation); read from the store at scrape time, unchanged while the store is unavailable',
        labelNames: ['status'],
        registers: [registry],
        async collect() {
          try {
            // Read from the store so that every instance sharing it reports the same, true count.
            const counts = await countAttemptsByStatus(store, UNSETTLED);
            for (const status of UNSETTLED) this.set({ status }, counts.get(status) ?? 0);
          } catch (error) {
            // The rest of the metrics, store errors first, matter most while the store is down.
            if (!storeFailureOf(error)) throw error;
          }
        },
      });
      // SQLite only: its checkpoints run in a worker thread, and the request connection's own (the worker fell behind) block the loop.
      const connection = syncConnectionOf(store);
      if (!connection?.checkpoints()) return;
      const counted = { worker: 0, connection: 0, failed: 0 };
      new Counter({
        name: 'wallet_checkout_sqlite_checkpoints_total',
        help: "SQLite WAL checkpoints, by who ran them: worker (its thread, off the request path), connection (the request connection, on the event loop, because the WAL passed its bound: the worker fell behind) or failed (the worker's, a full disk or an I/O error; the frames stay in the WAL)",
        labelNames: ['by'],
        registers: [registry],
        collect() {
          const counts = connection.checkpoints();
          if (!counts) return;
          const now = { worker: counts.byWorker, connection: counts.byConnection, failed: counts.failed };
          for (const by of ['worker', 'connection', 'failed'] as const) {
            this.inc({ by }, now[by] - counted[by]);
            counted[by] = now[by];
          }
        },
      });
    },
    requests(req, res, next) {
      const end = requestSeconds.startTimer();
      res.on('finish', () => {
        // The route template, never the raw path: ids in paths would make a series per session.
        const route = req.route ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
        const labels = { method: req.method, route, status: String(res.statusCode) };
        requestsTotal.inc(labels);
        end(labels);
      });
      next();
    },
    async scrape(_req, res) {
      res.set('content-type', registry.contentType).send(await registry.metrics());
    },
    instrumentService(service) {
      // Other operations pass through as they are.
      return {
        ...service,
        async createCharge(body, call) {
          const end = serviceSeconds.startTimer({ operation: 'create_charge' });
          const reply = await service.createCharge(body, call);
          end({ result: reply.ok ? 'ok' : reply.error.code });
          // A charge the service made: its status, a failed one being a decline for the shopper.
          if (reply.ok) charges.inc({ outcome: reply.value.status === 'failed' ? 'declined' : reply.value.status });
          else {
            serviceErrors.inc({ operation: 'create_charge', code: reply.error.code });
            charges.inc({ outcome: reply.error.outcomeUnknown ? 'pending' : 'failed' });
          }
          return reply;
        },
      };
    },
  };
}
