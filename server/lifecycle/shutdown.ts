/**
 * Graceful shutdown, in the order a load balancer needs (docs/operations.md,
 * "Stopping: drain, then close"): on the first signal the instance reports
 * itself draining (/readyz 503, `Connection: close` on every response) while
 * it goes on serving for SHUTDOWN_DRAIN_DELAY_MS, so that the balancer stops
 * sending to it; then it stops accepting, lets the requests in flight (a
 * payment waiting on the service) finish within SHUTDOWN_GRACE_MS, cuts what is
 * left, stops its workers and exits 0. A payment cut off is not lost either:
 * its attempt is in the store as in_flight and reconciliation settles it.
 */
import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { Logger } from '../../common/logging';

/**
 * How long a connection accepted just before we stopped accepting may take to
 * send its first request. Its client already wrote it, or is about to: closing
 * the socket under it would reset a request the client believes was taken.
 */
const FIRST_REQUEST_WAIT_MS = 1_000;

export interface Drainer {
  /** True from startDraining() on: /readyz answers 503. */
  readonly draining: boolean;
  /** Still accepting and serving, but every response from now on closes its connection. */
  startDraining(): void;
  /** Stops accepting and resolves once every connection is closed; `unfinished` requests were cut off when the grace period ran out. */
  close(graceMs: number): Promise<{ unfinished: number }>;
}

/** Call before the app handles any request, so that every request and connection is tracked. */
export function trackRequests(http: Server): Drainer {
  const active = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  /** Sockets that carried at least one request: an idle one of these is a kept-alive connection, not one whose request is on its way. */
  const served = new WeakSet<Socket>();
  let draining = false;
  let closing = false;
  let settled: (() => void) | undefined;

  const busy = (socket: Socket) => [...active].some((res) => res.socket === socket);
  const checkSettled = () => {
    if (closing && sockets.size === 0) settled?.();
  };

  http.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      checkSettled();
    });
  });
  http.on('request', (req, res: ServerResponse) => {
    served.add(req.socket);
    // Node then closes the connection after this response: the client knows not to reuse it, so nothing is reset.
    if (draining) res.setHeader('connection', 'close');
    active.add(res);
    res.once('close', () => active.delete(res));
  });

  return {
    get draining() {
      return draining;
    },
    startDraining() {
      draining = true;
    },
    async close(graceMs) {
      draining = true;
      closing = true;
      // net's close, not http's: since Node 19 http's also destroys every idle connection at once, including
      // one just accepted whose first request is on its way, which would reset that request.
      const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(http, () => resolve()));
      // Kept alive and unused since draining began (its client had the whole delay to use it): closed now,
      // the way a keep-alive timeout closes it. Busy ones close after their response (Connection: close).
      for (const socket of sockets) if (served.has(socket) && !busy(socket)) socket.destroy();
      const late = setTimeout(() => {
        for (const socket of sockets) if (!busy(socket)) socket.destroy();
      }, FIRST_REQUEST_WAIT_MS);
      let grace: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        settled = resolve;
        grace = setTimeout(resolve, graceMs);
        checkSettled();
      });
      clearTimeout(late);
      clearTimeout(grace);
      const unfinished = active.size;
      http.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      await closed;
      return { unfinished };
    },
  };
}

export interface ShutdownTiming {
  /** From the first signal: serving on, /readyz 503, for the load balancer's health check to notice. */
  drainDelayMs: number;
  /** The drain delay when the first signal is SIGINT (Ctrl-C): 0 in development (server/config.ts), where there is no load balancer to tell. */
  interruptDrainDelayMs?: number;
  /** From the first signal: past it the process exits 1, whatever is still running. */
  timeoutMs: number;
}

export interface Stoppable {
  /** /readyz 503 and `Connection: close` from now on; still accepting. */
  startDraining(): void;
  /** Stops accepting, finishes the requests in flight, stops the workers, closes the store. */
  close(): Promise<void>;
}

/**
 * The process's signal handler: the first signal drains, waits the delay,
 * closes and exits 0; a second signal, or the deadline, exits 1 at once
 * (whatever was cut is settled by reconciliation).
 */
export function shutdownOnSignal(server: Stoppable, timing: ShutdownTiming, logger: Logger, exit: (code: number) => void): (signal: NodeJS.Signals) => void {
  let started = false;
  return (signal) => {
    if (started) {
      logger.warn({ signal }, 'second signal during shutdown: exiting at once');
      exit(1);
      return;
    }
    started = true;
    setTimeout(() => {
      logger.error({ timeoutMs: timing.timeoutMs }, 'shutdown did not finish within SHUTDOWN_TIMEOUT_MS: exiting');
      exit(1);
    }, timing.timeoutMs);
    server.startDraining();
    const drainDelayMs = signal === 'SIGINT' ? (timing.interruptDrainDelayMs ?? timing.drainDelayMs) : timing.drainDelayMs;
    if (drainDelayMs > 0) logger.info({ signal, drainDelayMs }, 'draining: /readyz answers 503, still serving until the load balancer has noticed');
    setTimeout(() => {
      logger.info('shutting down: no new connections, waiting for the requests in flight');
      server.close().then(
        () => exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          exit(1);
        },
      );
    }, drainDelayMs);
  };
}
