/**
 * PostgreSQL for tests: each caller gets a database of its own on the server
 * the global setup started (testing/postgres-global-setup.ts), dropped when done.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/** The server, or undefined when none could be started (the tests that need it are skipped). */
export const testDatabaseServer: string | undefined = inject('databaseUrl');

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

async function admin<T>(server: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(server: string): Promise<TestDatabase> {
  const name = `wallet_checkout_test_${randomBytes(6).toString('hex')}`;
  await admin(server, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // FORCE: a pool a failed test left open must not keep the database alive.
    drop: () => admin(server, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
