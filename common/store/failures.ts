/**
 * What a store error means, decided in one place. A database that is
 * restarting, failing over, unreachable, out of disk or too busy is
 * `store_unavailable`: nothing is wrong with the request, the same request
 * will work once the store is back, and the HTTP layer says so (503 with
 * Retry-After). Anything else (a constraint broken, a bad query) is our bug.
 */
import type { DatabaseConnection, Dialect, Driver, LogEvent } from 'kysely';
import type { Failure } from '../result';

export type StoreFailure = Failure<'store_unavailable'>;

export const storeUnavailable: StoreFailure = { code: 'store_unavailable', message: 'The store is unavailable; try again shortly' };

/** Node's socket errors: the database cannot be reached, or the connection broke. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);

/**
 * PostgreSQL's SQLSTATEs for "not now": class 08 (connection exception),
 * 53 (insufficient resources: too many connections, disk full), 57P01-57P05
 * (shut down by an administrator, a crash or idleness, or cannot connect
 * now), 57014 (cancelled: our statement timeout), 25006 (read-only: a standby
 * answers while a failover promotes another), 40001 and 40P01 (a
 * serialization failure or deadlock: the same transaction again would pass).
 */
const POSTGRES_UNAVAILABLE = /^(08|53|57P0[1-5]$|57014$|25006$|40001$|40P01$)/;

/** pg's own errors carry no code: a connection lost or never made, or our client-side query timeout. */
const PG_CONNECTION_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable|Query read timeout|Client was closed and is not queryable)/;

/** SQLite: the disk is full, the file or directory is read-only or unreadable, another writer held the lock past busy_timeout. */
const SQLITE_UNAVAILABLE = /^SQLITE_(FULL|READONLY|BUSY|LOCKED|IOERR|CANTOPEN|NOMEM)/;

function isUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 3) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || POSTGRES_UNAVAILABLE.test(code) || SQLITE_UNAVAILABLE.test(code))) return true;
  if (PG_CONNECTION_MESSAGES.test(error.message)) return true;
  // Several addresses tried (localhost as ::1 and 127.0.0.1) fail as one AggregateError; a wrapped error keeps its cause.
  if (error instanceof AggregateError && error.errors.some((inner) => isUnavailable(inner, depth + 1))) return true;
  return isUnavailable(error.cause, depth + 1);
}

/** The failure a store error stands for, or undefined when it is not the store's unavailability (then it is a bug). */
export const storeFailureOf = (error: unknown): StoreFailure | undefined => (isUnavailable(error) ? storeUnavailable : undefined);

/** Told of every error the store raises, classified: for the metrics. */
export type StoreErrorListener = (failure: StoreFailure | undefined) => void;

/**
 * The engine's dialect with every error seen by `onError`: queries (and the
 * transactions' begin, commit, rollback) through Kysely's log, connections
 * not made through the driver. `transactionOpen`: for SQLite, which rolls a
 * transaction back by itself on SQLITE_FULL or SQLITE_BUSY: Kysely's own
 * ROLLBACK would then fail and replace the error that explains it.
 */
export function observedDialect(dialect: Dialect, onError: StoreErrorListener, transactionOpen?: () => boolean): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver(): Driver {
      const driver = dialect.createDriver();
      return {
        init: () => driver.init(),
        async acquireConnection(): Promise<DatabaseConnection> {
          try {
            return await driver.acquireConnection();
          } catch (error) {
            onError(storeFailureOf(error));
            throw error;
          }
        },
        beginTransaction: (connection, settings) => driver.beginTransaction(connection, settings),
        commitTransaction: (connection) => driver.commitTransaction(connection),
        rollbackTransaction: async (connection) => {
          if (transactionOpen?.() === false) return;
          await driver.rollbackTransaction(connection);
        },
        releaseConnection: (connection) => driver.releaseConnection(connection),
        destroy: () => driver.destroy(),
      };
    },
  };
}

/** Kysely's `log` option: every failed query, to `onError`. */
export const logStoreErrors =
  (onError: StoreErrorListener) =>
  (event: LogEvent): void => {
    if (event.level === 'error') onError(storeFailureOf(event.error));
  };
