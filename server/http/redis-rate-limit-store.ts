/**
 * An express-rate-limit store that counts in Redis (rate-limit-redis, through
 * the process's connection: rate-limit-redis.ts), so every instance counts one
 * budget per client, and in this instance's memory (express-rate-limit's own
 * MemoryStore) whenever Redis cannot count: a request is then limited per
 * instance, never refused or held because Redis is down, and never let
 * through unlimited (what `passOnStoreError` alone would do). Once Redis
 * answers again, counts are shared again: the windows counted in memory
 * meanwhile are left to lapse.
 */
import { type ClientRateLimitInfo, MemoryStore, type Options, type Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import type { RateLimitRedis } from './rate-limit-redis';

export class RedisOrLocalRateLimitStore implements Store {
  /** Counts are shared by every instance: express-rate-limit then allows no second limiter on the same prefix. */
  readonly localKeys = false;
  private readonly shared: RedisStore;
  private readonly local = new MemoryStore();
  private options: Options | undefined;
  /** The connection on which the scripts were last loaded (RateLimitRedis.connection); 0: none yet. */
  private loadedOn = 0;

  /** `prefix`: the limiter's name, which keeps its keys apart from the other limiters'. */
  constructor(
    private readonly redis: RateLimitRedis,
    readonly prefix: string,
  ) {
    this.shared = new RedisStore({ prefix: `rl:${prefix}:`, sendCommand: (...args: string[]) => redis.send(args) as Promise<never> });
  }

  /** Loads nothing yet: Redis may be down at start; the first count on each connection loads the scripts. */
  init(options: Options): void {
    this.options = options;
    this.local.init(options);
  }

  /** The Redis store, its scripts loaded on the current connection; undefined while Redis is not to be asked. Rejects when Redis fails. */
  private async sharedStore(): Promise<RedisStore | undefined> {
    if (!this.redis.usable() || !this.options) return undefined;
    const connection = this.redis.connection;
    if (this.loadedOn !== connection) {
      await this.shared.init(this.options);
      this.loadedOn = connection;
    }
    return this.shared;
  }

  /** In Redis when it can, else in memory (`inMemory` told). A Redis failure is the connection's to log (RateLimitRedis.send). */
  private async either<T>(count: (store: RedisStore | MemoryStore) => Promise<T>, inMemory?: () => void): Promise<T> {
    try {
      const store = await this.sharedStore();
      if (store) return await count(store);
    } catch {
      // Counted in memory below.
    }
    inMemory?.();
    return count(this.local);
  }

  get(client: string): Promise<ClientRateLimitInfo | undefined> {
    return this.either((store) => store.get(client));
  }

  increment(client: string): Promise<ClientRateLimitInfo> {
    return this.either(
      (store) => store.increment(client),
      () => this.redis.countedLocally(),
    );
  }

  decrement(client: string): Promise<void> {
    return this.either((store) => store.decrement(client));
  }

  resetKey(client: string): Promise<void> {
    return this.either((store) => store.resetKey(client));
  }

  shutdown(): void {
    this.local.shutdown();
  }
}
