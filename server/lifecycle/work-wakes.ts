/**
 * What wakes an instance's workers, so that none polls the store when there
 * is no work (docs/operations.md, "What an idle instance does"). On
 * PostgreSQL: the notifications of migration 0031's triggers, heard on a
 * LISTEN connection of the instance's own, and the sweep lock held on it, which
 * makes one instance at a time run the sweeps on a clock
 * (store/work-notifications.ts). Each (re)connect runs a catch-up pass of
 * the webhook worker, for what was notified while nobody listened; taking the
 * lock runs a reconciliation pass. On SQLite, one process: the store's
 * writes wake the workers in memory (store/local-work-signals.ts), and the
 * instance runs the sweeps.
 */
import type { Logger } from '../../common/logging';
import { repeatLimiter } from '../../common/logging/repeats';
import type { Store } from '../store';
import { localWorkSignals } from '../store/local-work-signals';
import { listenForWork, type WorkKind, type WorkListenerTiming } from '../store/work-notifications';

export interface WorkWakeTargets {
  webhooks: { wake(): void };
  reconciler: { wake(): void; lead(leading: boolean): void };
}

export interface WorkWakes {
  close(): Promise<void>;
}

export function startWorkWakes(
  store: Store,
  databaseUrl: string | undefined,
  targets: WorkWakeTargets,
  logger: Logger,
  timing?: WorkListenerTiming,
): WorkWakes {
  const wake = (kind: WorkKind) => (kind === 'webhooks' ? targets.webhooks.wake() : targets.reconciler.wake());
  if (databaseUrl === undefined) {
    const stopListening = localWorkSignals(store)?.listen(wake);
    targets.reconciler.lead(true);
    return {
      async close() {
        stopListening?.();
      },
    };
  }
  // A database that is down fails every reconnect: once with its stack, then a count per interval.
  const repeats = repeatLimiter(logger);
  const listener = listenForWork(
    databaseUrl,
    {
      onWork: wake,
      onConnected: () => targets.webhooks.wake(),
      onLeadership(leading) {
        logger.info({ leading }, leading ? 'this instance runs the sweeps (it holds the sweep lock)' : 'this instance no longer runs the sweeps');
        targets.reconciler.lead(leading);
      },
      onError: (error) => repeats.warn({ err: error }, 'the connection listening for work failed; reconnecting'),
    },
    timing,
  );
  return {
    async close() {
      await listener.close();
      repeats.flush();
    },
  };
}
