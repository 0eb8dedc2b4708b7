/**
 * Vitest global setup: a throwaway PostgreSQL cluster (postgres-cluster.ts)
 * for the tests that run the store on PostgreSQL, provided to them as
 * `databaseUrl` (see testing/postgres.ts). TEST_DATABASE_URL, when set, names
 * a server to use instead. Without either, those tests are skipped and this says so.
 */
import type { TestProject } from 'vitest/node';
import { findPostgresBinaries, startPostgresCluster } from './fleet/postgres-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A superuser connection to a PostgreSQL server for tests, or undefined: none could be started. */
    databaseUrl: string | undefined;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (process.env.TEST_DATABASE_URL) {
    project.provide('databaseUrl', process.env.TEST_DATABASE_URL);
    return undefined;
  }
  const bin = findPostgresBinaries();
  if (!bin) {
    console.warn('\n[postgres] No PostgreSQL binaries (initdb) found: the PostgreSQL store tests are SKIPPED. Install postgresql or set TEST_DATABASE_URL.\n');
    project.provide('databaseUrl', undefined);
    return undefined;
  }
  const cluster = await startPostgresCluster(bin);
  project.provide('databaseUrl', cluster.url);
  return () => cluster.remove();
}
