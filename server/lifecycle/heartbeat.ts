/**
 * The running server's heartbeat in its store (store/heartbeats.ts): how
 * `npm run app:create` and other tools know a server is using the store they write to.
 */
import type { Logger } from '../../common/logging';
import { repeatLimiter } from '../../common/logging/repeats';
import { randomId } from '../../common/secrets';
import type { Store } from '../store';
import { HEARTBEAT_INTERVAL_MS, recordHeartbeat, removeHeartbeat } from '../store/heartbeats';

export interface Heartbeat {
  /** This server's id in the store, random at each start. */
  instanceId: string;
  /** Stops beating and removes this server's row, so tools stop counting it at once. */
  stop(): Promise<void>;
}

export async function startHeartbeat(store: Store, publicUrl: string, logger: Logger): Promise<Heartbeat> {
  const instanceId = randomId();
  const started = Date.now();
  const beat = () => recordHeartbeat(store, { instanceId, publicUrl, started, now: Date.now() });
  await beat();
  // A missed beat only makes tools warn needlessly; it must never stop payments. Missed beats while the store is down: once per interval, with a count.
  const repeats = repeatLimiter(logger);
  const timer = setInterval(() => beat().catch((error: unknown) => repeats.warn({ err: error }, 'could not record the server heartbeat')), HEARTBEAT_INTERVAL_MS);
  timer.unref();
  return {
    instanceId,
    async stop() {
      clearInterval(timer);
      repeats.flush();
      await removeHeartbeat(store, instanceId).catch((error: unknown) => logger.warn({ err: error }, 'could not remove the server heartbeat'));
    },
  };
}
