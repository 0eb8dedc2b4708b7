/**
 * A throwaway PostgreSQL cluster from the installed binaries: for the tests'
 * shared server (postgres-global-setup.ts), the fleet on one machine
 * (`npm run fleet`, fleet.ts: here and not under testing because an
 * operator's tool uses it), and for what needs a database it may break, the
 * outage test and `npm run soak -- --db-outage`: stopped hard
 * (`pg_ctl -m immediate`, as a crash or a failover does), started again on
 * the same port, its backends terminated.
 *
 * The cluster lives in a temporary directory, listens on 127.0.0.1 on a free
 * port with its socket in that directory, trusts local connections and skips
 * fsync: it exists for one run. Commits stay synchronous: fsync off survives
 * PostgreSQL's own crash (the OS still holds the writes), but
 * synchronous_commit=off loses commits already acknowledged, payments a
 * shopper was told about, when the server stops hard. PostgreSQL refuses to run as root, so as root
 * it runs as the `postgres` OS user, which Debian's package creates.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../free-port';

const run = promisify(execFile);

export interface PostgresCluster {
  /** A superuser connection to its `postgres` database. */
  readonly url: string;
  /** `pg_ctl -m immediate stop`: every backend dies at once, as in a crash; in-flight transactions are lost. */
  crash(): Promise<void>;
  /** Starts it again on the same port and data (crash recovery runs first). */
  start(): Promise<void>;
  /** `pg_terminate_backend` on every other backend: connections dropped mid-work, the server stays up. How many were ended. */
  terminateBackends(): Promise<number>;
  /** SIGSTOP to the server and its backends: a hung database, which accepts connections and answers nothing. */
  freeze(): Promise<void>;
  /** SIGCONT: it answers again, as if nothing happened. */
  thaw(): Promise<void>;
  /** Stops it (hard) and deletes its files. */
  remove(): Promise<void>;
}

/** Debian's layout (/usr/lib/postgresql/<major>/bin), newest first, then PATH; undefined: not installed. */
export function findPostgresBinaries(): string | undefined {
  const debian = '/usr/lib/postgresql';
  const versions = existsSync(debian) ? readdirSync(debian).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) if (existsSync(join(debian, version, 'bin', 'initdb'))) return join(debian, version, 'bin');
  try {
    return execFileSync('sh', ['-c', 'dirname "$(command -v initdb)"'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

function postgresUserIds(): { uid: number; gid: number } {
  const id = (flag: string) => {
    try {
      return Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    } catch {
      throw new Error('PostgreSQL is installed but there is no `postgres` OS user to run it as (it refuses root): create one, or set TEST_DATABASE_URL');
    }
  };
  return { uid: id('-u'), gid: id('-g') };
}

/** Initialises and starts a cluster with the binaries in `bin` (see findPostgresBinaries). */
export async function startPostgresCluster(bin: string): Promise<PostgresCluster> {
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-pg-'));
  if (asRoot) {
    const { uid, gid } = postgresUserIds();
    chownSync(dir, uid, gid);
  }
  const tool = async (name: string, args: string[]) => {
    await (asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, name), ...args]) : run(join(bin, name), args));
  };
  const data = join(dir, 'data');
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const start = () => tool('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start', '-o', options]);
  const crash = () => tool('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
  await tool('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  await start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  /** The postmaster (first line of postmaster.pid) and its children, by their ids. */
  const processes = async () => {
    const postmaster = readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]!.trim();
    const { stdout } = await run('pgrep', ['-P', postmaster]).catch(() => ({ stdout: '' }));
    return [postmaster, ...stdout.split('\n').filter(Boolean)].map(Number);
  };
  const signal = async (sig: NodeJS.Signals) => {
    for (const pid of await processes()) process.kill(pid, sig);
  };
  return {
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
    url,
    crash,
    start,
    async terminateBackends() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const ended = await client.query<{ ended: string }>(
          "select count(*) filter (where pg_terminate_backend(pid)) as ended from pg_stat_activity where pid <> pg_backend_pid() and backend_type = 'client backend'",
        );
        return Number(ended.rows[0]?.ended ?? 0);
      } finally {
        await client.end();
      }
    },
    async remove() {
      try {
        await signal('SIGCONT');
        await crash();
      } catch {
        // Already stopped: nothing to stop.
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
