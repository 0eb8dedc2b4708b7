/**
 * Graceful shutdown of the HTTP server: stop taking connections, let the
 * requests in flight (a payment waiting on the service) finish within a grace
 * period, and only then cut what is left. A payment cut off after the grace
 * period is not lost either: its attempt is in the store as in_flight and the
 * next start's reconciliation settles it.
 */
import type { Server, ServerResponse } from 'node:http';

export interface Drainer {
  /** Resolves when the server is closed; `unfinished` requests were cut off when the grace period ran out. */
  drain(graceMs: number): Promise<{ unfinished: number }>;
}

/** Call before the app handles any request, so that every request is tracked. */
export function trackRequests(http: Server): Drainer {
  const active = new Set<ServerResponse>();
  let draining = false;
  let allDone: (() => void) | undefined;

  http.on('request', (_req, res: ServerResponse) => {
    // A request arriving on a kept-alive connection while draining is still served, but its connection is not kept.
    if (draining) res.setHeader('connection', 'close');
    active.add(res);
    res.once('close', () => {
      active.delete(res);
      if (!draining) return;
      http.closeIdleConnections();
      if (active.size === 0) allDone?.();
    });
  });

  return {
    async drain(graceMs) {
      draining = true;
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        if (active.size === 0) return resolve();
        allDone = resolve;
        timer = setTimeout(resolve, graceMs);
      });
      clearTimeout(timer);
      const unfinished = active.size;
      http.closeAllConnections();
      await closed;
      return { unfinished };
    },
  };
}
