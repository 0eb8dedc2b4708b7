/**
 * Vitest global setup: a throwaway PostgreSQL cluster for the tests that run
 * the store on PostgreSQL, provided to them as `databaseUrl` (see
 * testing/postgres.ts). TEST_DATABASE_URL, when set, names a server to use
 * instead. Without either, those tests are skipped and this says so.
 *
 * The cluster lives in a temporary directory, listens on 127.0.0.1 on a free
 * port with its socket in that directory, trusts local connections and skips
 * fsync: it exists for one test run. PostgreSQL refuses to run as root, so as
 * root it runs as the `postgres` OS user, which Debian's package creates.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A superuser connection to a PostgreSQL server for tests, or undefined: none could be started. */
    databaseUrl: string | undefined;
  }
}

/** Debian's layout (/usr/lib/postgresql/<major>/bin), newest first, then PATH. */
function findBinaries(): string | undefined {
  const debian = '/usr/lib/postgresql';
  const versions = existsSync(debian) ? readdirSync(debian).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) if (existsSync(join(debian, version, 'bin', 'initdb'))) return join(debian, version, 'bin');
  try {
    return execFileSync('sh', ['-c', 'dirname "$(command -v initdb)"'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  if (process.env.TEST_DATABASE_URL) {
    project.provide('databaseUrl', process.env.TEST_DATABASE_URL);
    return undefined;
  }
  const bin = findBinaries();
  if (!bin) {
    console.warn('\n[postgres] No PostgreSQL binaries (initdb) found: the PostgreSQL store tests are SKIPPED. Install postgresql or set TEST_DATABASE_URL.\n');
    project.provide('databaseUrl', undefined);
    return undefined;
  }

  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-pg-'));
  if (asRoot) {
    const id = (flag: string) => {
      try {
        return Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
      } catch {
        throw new Error('PostgreSQL is installed but there is no `postgres` OS user to run it as (it refuses root): create one, or set TEST_DATABASE_URL');
      }
    };
    chownSync(dir, id('-u'), id('-g'));
  }
  const run = (tool: string, args: string[]) => {
    const command = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] as const : [join(bin, tool), args] as const;
    execFileSync(command[0], command[1], { stdio: ['ignore', 'ignore', 'pipe'] });
  };
  const data = join(dir, 'data');
  const port = await freePort();
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`]);
  project.provide('databaseUrl', `postgres://postgres@127.0.0.1:${port}/postgres`);

  return () => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
