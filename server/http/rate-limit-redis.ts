/**
 * The process's one connection to Redis for the rate limiters (REDIS_URL,
 * docs/operations.md "Rate limits"), and what it knows of Redis's health,
 * shared by every limiter: an outage is logged once when it starts and once
 * when it ends, whichever limiter meets it.
 *
 * A limiter must never fail or hold a request because Redis cannot count it
 * (redis-rate-limit-store.ts then counts in memory), so nothing here waits:
 * commands are refused at once while the client is disconnected (no offline
 * queue), a command Redis does not answer within COMMAND_TIMEOUT_MS counts as
 * a failure (Redis frozen, or a network that drops packets), and after a
 * failure Redis is not asked again for RETRY_AFTER_MS. node-redis reconnects
 * by itself; the first command that succeeds again ends the outage.
 */
import { createClient, type RedisArgument } from 'redis';
import type { Logger } from '../../common/logging';

/** A rate-limit command is one script call; Redis answers it in well under a millisecond. */
const COMMAND_TIMEOUT_MS = 500;
/** After a failure, requests are counted in memory this long before Redis is tried again: no request waits on a Redis known to be down. */
const RETRY_AFTER_MS = 1_000;
/** Reconnection attempts back off to this interval while Redis stays down. */
const MAX_RECONNECT_DELAY_MS = 2_000;

export interface RateLimitRedis {
  /** One command, answered or failed within COMMAND_TIMEOUT_MS; rejects at once when Redis is known to be unreachable. */
  send(args: readonly string[]): Promise<unknown>;
  /** Whether to ask Redis now: connected, and no failure within RETRY_AFTER_MS. */
  usable(): boolean;
  /** Counts every (re)connection: the limiters load their scripts again after one (a restarted Redis has none). */
  readonly connection: number;
  /** A limiter counted a request in memory: Redis could not (a metric: wallet_checkout_rate_limit_local_counts_total). */
  countedLocally(): void;
  /** Resolves once connected, or after `timeoutMs` (false): an instance starts whether Redis is up or not. */
  ready(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

class CommandTimeout extends Error {
  readonly code = 'ETIMEDOUT';
  constructor() {
    super(`Redis did not answer within ${COMMAND_TIMEOUT_MS} ms`);
  }
}

export function connectRateLimitRedis(url: string, logger: Logger, countLocal: () => void): RateLimitRedis {
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: COMMAND_TIMEOUT_MS * 2, reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, MAX_RECONNECT_DELAY_MS) },
  });
  let connection = 0;
  let down = false;
  let retryAt = 0;

  const failed = (error: unknown) => {
    retryAt = Date.now() + RETRY_AFTER_MS;
    if (down) return;
    down = true;
    // The error's message names host and port at most; REDIS_URL's password is never logged.
    logger.warn({ err: error }, 'Redis (REDIS_URL) cannot be reached: rate limits are counted per instance until it answers again');
  };
  const answered = () => {
    if (!down) return;
    down = false;
    logger.info('Redis (REDIS_URL) answers again: rate limits are shared by the instances again');
  };

  // Without a listener node-redis would throw its connection errors; each one is the outage going on.
  client.on('error', failed);
  client.on('ready', () => {
    connection += 1;
  });
  const connecting = client.connect().catch(failed);

  return {
    get connection() {
      return connection;
    },
    usable: () => client.isReady && Date.now() >= retryAt,
    async send(args) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new CommandTimeout()), COMMAND_TIMEOUT_MS);
      });
      try {
        const reply = await Promise.race([client.sendCommand(args as RedisArgument[]), timeout]);
        answered();
        return reply;
      } catch (error) {
        failed(error);
        throw error;
      } finally {
        clearTimeout(timer);
      }
    },
    countedLocally: countLocal,
    async ready(timeoutMs) {
      if (client.isReady) return true;
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
        client.once('ready', () => resolve(true));
      });
      const isReady = await waited;
      clearTimeout(timer);
      return isReady;
    },
    async close() {
      if (client.isOpen) client.destroy();
      await connecting;
    },
  };
}
