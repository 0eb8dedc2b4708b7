/**
 * How long the store may make a request wait, and how many connections an
 * instance holds: a database that is down, hung or overloaded turns into
 * 503s in bounded time instead of a pile of waiting requests.
 * docs/operations.md sizes them against PostgreSQL's max_connections.
 */
export interface StoreLimits {
  /** PostgreSQL: connections per instance (the pool's max). */
  poolSize: number;
  /** PostgreSQL: to open a connection, and to wait for a free one from the pool. */
  connectTimeoutMs: number;
  /** One statement (PostgreSQL's statement_timeout, and a client-side backstop when no answer comes); SQLite: its busy_timeout, the wait for a writer's lock. */
  statementTimeoutMs: number;
  /** PostgreSQL: an idle pooled connection is closed after this. */
  idleTimeoutMs: number;
}

export const defaultStoreLimits: StoreLimits = { poolSize: 10, connectTimeoutMs: 5_000, statementTimeoutMs: 5_000, idleTimeoutMs: 30_000 };
