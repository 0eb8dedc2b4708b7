/**
 * An express-rate-limit store that counts in the backend's database
 * (store/rate-limits.ts), so every instance on one PostgreSQL database counts
 * against one budget per client. The maintained PostgreSQL store on npm
 * (@acpr/rate-limit-postgresql) opens a pool of its own per limiter, with its
 * own copy of pg and its own migration tool: this one runs on the pool, the
 * timeouts and the migrations the rest of the store uses (docs/operations.md).
 */
import type { ClientRateLimitInfo, Options, Store as RateLimitStore } from 'express-rate-limit';
import type { Store } from '../store';
import { countHit, findWindow, forgetWindow, type RateLimitWindow, uncountHit } from '../store/rate-limits';

const info = (window: RateLimitWindow): ClientRateLimitInfo => ({ totalHits: window.hits, resetTime: new Date(window.resetAt) });

export class DatabaseRateLimitStore implements RateLimitStore {
  /** Counts are shared by every instance: express-rate-limit then allows no second limiter on the same prefix. */
  readonly localKeys = false;
  private windowMs = 60_000;

  /** `prefix`: the limiter's name, which keeps its windows apart from the other limiters'. */
  constructor(
    private readonly store: Store,
    readonly prefix: string,
  ) {}

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  private key(client: string): string {
    return `${this.prefix}:${client}`;
  }

  async get(client: string): Promise<ClientRateLimitInfo | undefined> {
    const window = await findWindow(this.store, this.key(client), Date.now());
    return window && info(window);
  }

  async increment(client: string): Promise<ClientRateLimitInfo> {
    return info(await countHit(this.store, this.key(client), this.windowMs, Date.now()));
  }

  async decrement(client: string): Promise<void> {
    await uncountHit(this.store, this.key(client), Date.now());
  }

  async resetKey(client: string): Promise<void> {
    await forgetWindow(this.store, this.key(client));
  }
}
