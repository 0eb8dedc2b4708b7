/**
 * The reference deployment on one machine (docs/operations.md, "The
 * reference deployment"): a throwaway PostgreSQL cluster, a redis-server for
 * the rate limits (when its binary is given), the standalone sandbox, N
 * compiled instances on their own ports sharing DATABASE_URL, REDIS_URL and
 * DATA_ENCRYPTION_KEY, and nginx in front of them. `npm run fleet` runs it for
 * a person; the fleet soak (`npm run soak -- --fleet 3`) and the bench drive
 * it, kill its instances and restart them one at a time (rollingRestart).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../free-port';
import { accessLogOf, type NginxSite, type RunningNginx, startNginx, waitForNginx, writeNginxConfig } from './nginx';
import { INSTANCE_READY_LINE, type NodeLaunch, type NodeProcess, startNodeProcess } from './node-process';
import { type PostgresCluster, startPostgresCluster } from './postgres-cluster';
import { type RedisServer, startRedisServer } from './redis-server';
import { waitForOk } from '../wait-for-ok';
import { type SandboxProcess, startSandboxProcess } from './sandbox-process';

export interface FleetOptions {
  instances: number;
  /** nginx's port on 127.0.0.1; 0: a free one. */
  port: number;
  /** The compiled backend and sandbox (dist/server/main.js, dist/server/sandbox.js). */
  launch: { instance: NodeLaunch; sandbox: NodeLaunch };
  /** PostgreSQL's binaries (findPostgresBinaries) and nginx's (findNginx). */
  postgresBin: string;
  nginx: string;
  /** redis-server's binary (findRedisServer): the instances count the rate limits in it (REDIS_URL); absent: in the database. */
  redisServer?: string;
  /** Added to every instance's environment (a soak's short timeouts, say). */
  env?: Record<string, string>;
}

export interface FleetInstance extends NodeProcess {
  /** `127.0.0.1:port`, as nginx's upstream and its access log name it. */
  readonly address: string;
  readonly dataDir: string;
}

export interface Fleet {
  /** nginx: the demo store and the API, as shoppers and merchants reach them. */
  readonly url: string;
  readonly instances: readonly FleetInstance[];
  readonly sandbox: SandboxProcess;
  readonly database: PostgresCluster;
  /** Where the rate limits are counted, when FleetOptions.redisServer was given. */
  readonly redis: RedisServer | undefined;
  /** nginx's access log: `upstream=` lists every instance tried for a request. */
  readonly accessLog: string;
  /** The demo merchant's secret key (the demo store runs on the first instance). */
  readonly demoSecretKey: string;
  /** Where every part keeps its files (removed by stop). */
  readonly dir: string;
  /**
   * Restarts every instance, one at a time (docs/operations.md, "Deploying:
   * a rolling restart"): out of nginx (marked `down`, reloaded, nginx's old
   * workers gone), SIGTERM and its exit, started again from the compiled
   * build, /readyz 200, back into nginx; then the next. `onStep` hears each step.
   */
  rollingRestart(onStep?: (step: RollingStep) => void): Promise<void>;
  /** nginx first (no new requests), then the instances (SIGTERM: what is in flight finishes), the sandbox, Redis and the database; then the files. */
  stop(options?: { keepFiles?: boolean }): Promise<void>;
}

export type RollingStep =
  | { step: 'out of nginx'; address: string }
  | { step: 'stopped'; address: string; exitCode: number | null }
  | { step: 'ready'; address: string }
  | { step: 'back in nginx'; address: string };

/** How long a restarted instance may take to answer /readyz 200 (it printed its URL already: the store and the service are what it waits for). */
const READY_TIMEOUT_MS = 30_000;

/** Demo store on the first instance only: see NginxSite.demoStore. */
const DEMO_INSTANCE = 0;

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-fleet-'));
  const started: { database?: PostgresCluster; redis?: RedisServer; sandbox?: SandboxProcess; instances: FleetInstance[]; nginx?: RunningNginx } = { instances: [] };
  async function stop({ keepFiles = false } = {}): Promise<void> {
    await started.nginx?.stop();
    await Promise.all(started.instances.map((instance) => instance.stop()));
    await started.sandbox?.stop();
    await started.redis?.remove();
    await started.database?.remove();
    if (!keepFiles) rmSync(dir, { recursive: true, force: true });
  }
  try {
    const port = options.port || (await freePort());
    const url = `http://127.0.0.1:${port}`;
    started.database = await startPostgresCluster(options.postgresBin);
    if (options.redisServer) started.redis = await startRedisServer(options.redisServer);
    const sandboxDataDir = join(dir, 'sandbox');
    started.sandbox = await startSandboxProcess({ HOST: '127.0.0.1', SANDBOX_DATA_DIR: sandboxDataDir }, options.launch.sandbox);
    const shared = {
      // The fleet runs the sandbox and the development token issuer, which production refuses: say so,
      // rather than inherit a NODE_ENV=production from the caller (Vite's build sets it in its process).
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATABASE_URL: started.database.url,
      ...(started.redis && { REDIS_URL: started.redis.url }),
      // One key for every instance: a secret sealed by one (a webhook endpoint's) is opened by another.
      DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      // nginx runs on this machine: its X-Forwarded-For is believed, anyone else's is not.
      TRUST_PROXY: 'loopback',
      SANDBOX_URL: started.sandbox.url,
      SANDBOX_SERVICE_KEY: started.sandbox.serviceKey,
      LOG_LEVEL: 'warn',
      ...options.env,
    };
    const startInstance = async (index: number): Promise<FleetInstance> => {
      const dataDir = join(dir, `instance-${index + 1}`);
      mkdirSync(dataDir);
      const instancePort = await freePort();
      const proc = await startNodeProcess({
        launch: options.launch.instance,
        env: { ...shared, PORT: String(instancePort), DATA_DIR: dataDir, DEMO: index === DEMO_INSTANCE ? 'on' : 'off' },
        ready: INSTANCE_READY_LINE,
        portVariable: 'PORT',
      });
      const instance: FleetInstance = {
        address: `127.0.0.1:${instancePort}`,
        dataDir,
        get pid() {
          return proc.pid;
        },
        get url() {
          return proc.url;
        },
        kill: proc.kill,
        stop: proc.stop,
        restart: proc.restart,
        output: proc.output,
      };
      started.instances.push(instance);
      return instance;
    };
    // The first one alone: it migrates the database and creates the demo merchant, which the others would race for.
    const first = await startInstance(DEMO_INSTANCE);
    const rest = await Promise.all(Array.from({ length: options.instances - 1 }, (_, i) => startInstance(i + 1)));
    const instances = [first, ...rest];
    const site: NginxSite = { dir: join(dir, 'nginx'), listen: { host: '127.0.0.1', port }, upstreams: instances.map((i) => i.address), demoStore: first.address };
    mkdirSync(site.dir);
    await writeNginxConfig(options.nginx, site);
    started.nginx = startNginx(options.nginx, site);
    await waitForNginx(started.nginx, site, '/readyz');
    const demoSecretKey = (JSON.parse(readFileSync(join(first.dataDir, 'demo-merchant.json'), 'utf8')) as { secret_key: string }).secret_key;
    const { database, redis, sandbox } = started;
    const nginx = started.nginx;
    let rolling: Promise<void> | undefined;
    async function restartEach(onStep: (step: RollingStep) => void): Promise<void> {
      for (const instance of instances) {
        const { address } = instance;
        await nginx.reload({ ...site, down: [address] });
        onStep({ step: 'out of nginx', address });
        const exitCode = await instance.stop();
        onStep({ step: 'stopped', address, exitCode });
        if (exitCode !== 0) throw new Error(`${address} exited ${exitCode} on SIGTERM, not 0:\n${instance.output()}`);
        await instance.restart();
        await waitForOk(`http://${address}/readyz`, READY_TIMEOUT_MS, () => `its output since the restart:\n${instance.output()}`);
        onStep({ step: 'ready', address });
        await nginx.reload(site);
        onStep({ step: 'back in nginx', address });
      }
    }
    return {
      url,
      instances,
      sandbox,
      database,
      redis,
      accessLog: accessLogOf(site),
      demoSecretKey,
      dir,
      stop,
      // One at a time: a second request while one runs waits for it, never takes a second instance out.
      rollingRestart(onStep = () => undefined) {
        rolling = (rolling ?? Promise.resolve()).catch(() => undefined).then(() => restartEach(onStep));
        return rolling;
      },
    };
  } catch (error) {
    await stop({ keepFiles: false }).catch(() => undefined);
    throw error;
  }
}

/** What nginx's access log says it did: requests it sent to more than one instance (a connection refused or timed out: the next one took it), and those no instance answered. */
export interface ProxyCounts {
  requests: number;
  /** `upstream=a, b`: the first instance failed before answering, another answered. */
  failedOver: number;
  /** 502/504 from nginx itself on the API and the widget: the instance died mid-request (a POST already sent is not resent), or every instance it tried failed. */
  unanswered: number;
  /**
   * 502/504 on the demo store's paths (`= /`, `/demo/`), counted apart: it
   * stands for the merchant's own server, on instance 1 alone, so it is away
   * while that instance restarts (its webhook deliveries are retried).
   */
  demoStoreUnanswered: number;
}

export function countProxyRetries(accessLog: string): ProxyCounts {
  const lines = readFileSync(accessLog, 'utf8').split('\n').filter((line) => line.includes(' upstream='));
  const counts: ProxyCounts = { requests: lines.length, failedOver: 0, unanswered: 0, demoStoreUnanswered: 0 };
  for (const line of lines) {
    const upstream = / upstream=(.*?) upstream_status=/.exec(line)?.[1] ?? '';
    if (upstream.includes(',')) counts.failedOver++;
    if (!/" 50[24] upstream=/.test(line)) continue;
    if (/"[A-Z]+ (\/|\/demo\/\S*) HTTP/.test(line)) counts.demoStoreUnanswered++;
    else counts.unanswered++;
  }
  return counts;
}
