/**
 * The one place store errors are classified: what means "the store is down,
 * try again shortly" (503) and what is our bug (500).
 */
import { describe, expect, it } from 'vitest';
import { storeFailureOf } from './failures';

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('storeFailureOf', () => {
  it.each([
    ['a refused connection', coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a reset connection', coded('ECONNRESET')],
    ['localhost refused on ::1 and 127.0.0.1', new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')])],
    ['pg: connection terminated', new Error('Connection terminated unexpectedly')],
    ['pg: no free connection within the connect timeout', new Error('timeout exceeded when trying to connect')],
    ['pg: no answer within the client-side timeout', new Error('Query read timeout')],
    ['PostgreSQL: admin shutdown (pg_terminate_backend, a fast stop)', coded('57P01')],
    ['PostgreSQL: starting up or in recovery', coded('57P03')],
    ['PostgreSQL: our statement_timeout', coded('57014')],
    ['PostgreSQL: too many connections', coded('53300')],
    ['PostgreSQL: connection failure', coded('08006')],
    ['PostgreSQL: a read-only standby (mid-failover)', coded('25006')],
    ['SQLite: disk full', coded('SQLITE_FULL')],
    ['SQLite: read-only', coded('SQLITE_READONLY')],
    ['SQLite: read-only directory for the WAL', coded('SQLITE_READONLY_DIRECTORY')],
    ['SQLite: busy past busy_timeout', coded('SQLITE_BUSY')],
    ['SQLite: an I/O error', coded('SQLITE_IOERR_WRITE')],
    ['a wrapped cause', new Error('migration failed', { cause: coded('ECONNREFUSED') })],
  ])('%s is store_unavailable', (_what, error) => {
    expect(storeFailureOf(error)).toEqual({ code: 'store_unavailable', message: 'The store is unavailable; try again shortly' });
  });

  it.each([
    ['a unique violation', coded('23505')],
    ['a syntax error', coded('42601')],
    ['SQLite: a constraint', coded('SQLITE_CONSTRAINT_UNIQUE')],
    ['SQLite: cannot rollback (a rollback after SQLite rolled back itself)', coded('SQLITE_ERROR', 'cannot rollback - no transaction is active')],
    ['a plain bug', new TypeError('undefined is not a function')],
    ['not an error', 'ECONNREFUSED'],
  ])('%s is not: it is our bug', (_what, error) => {
    expect(storeFailureOf(error)).toBeUndefined();
  });
});
