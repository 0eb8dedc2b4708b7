/**
 * The reference deployment (several instances, rolling restarts), short, so that the topology
 * cannot rot between full runs of `npm run soak -- --fleet 3 --crash` and
 * `--rolling-restart`: nginx in front of three compiled instances on a
 * throwaway PostgreSQL cluster, the standalone sandbox faulting a share of
 * charges; first every instance restarted gracefully, one at a time, under
 * load (not one failed request), then one instance killed (kill -9) and
 * restarted mid-run; each time the ledger audited against the store. The
 * rate limits are counted in a redis-server when one is installed. Skipped, with
 * a notice, where nginx or PostgreSQL is not installed (.ci/run installs both).
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledSandboxArgs } from './node-process';
import { type StagedServer, stageCompiledServer } from '../compiled-server';
import { runFleetSoak, SOAK_INSTANCE_ENV, soakProblems } from '../soak';
import { type Fleet, startFleet } from './fleet';
import { findNginx } from './nginx';
import { findPostgresBinaries } from './postgres-cluster';
import { findRedisServer } from './redis-server';

const nginx = findNginx();
const postgresBin = findPostgresBinaries();
// Optional here: without it the instances count the rate limits in the database (its own tests need it on CI).
const redisServer = findRedisServer();
if (!nginx || !postgresBin) console.warn(`${!nginx ? 'nginx' : 'PostgreSQL'} is not installed: the fleet soak is skipped (scripts/ensure-nginx.sh, scripts/ensure-postgres.sh install them)`);

describe.skipIf(!nginx || !postgresBin)('the fleet: nginx, three compiled instances, PostgreSQL, the standalone sandbox', () => {
  let staged: StagedServer;
  let fleet: Fleet;

  beforeAll(async () => {
    // Compiled into a directory of its own: `npm run build` running beside this test empties dist/.
    staged = await stageCompiledServer();
    fleet = await startFleet({
      instances: 3,
      port: 0,
      launch: { instance: staged.launch, sandbox: { args: [...compiledSandboxArgs], cwd: staged.dir } },
      postgresBin: postgresBin!,
      nginx: nginx!,
      redisServer,
      // The fleet waits for nginx to let go of an instance before signalling it: the drain delay is only a margin, kept short here.
      env: { ...staged.env, ...SOAK_INSTANCE_ENV, SHUTDOWN_DRAIN_DELAY_MS: '1000' },
    });
  }, 120_000);

  afterAll(async () => {
    await fleet?.stop();
    staged?.remove();
  });

  it('serves the demo store from nginx\'s origin, on the instance that runs it', async () => {
    const page = await fetch(`${fleet.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`src="${fleet.url}/checkout.js"`);
    const demoLines = readFileSync(fleet.accessLog, 'utf8').split('\n').filter((line) => line.includes('"GET / HTTP'));
    expect(demoLines.every((line) => line.includes(`upstream=${fleet.instances[0]!.address} `))).toBe(true);
  });

  // Before the crash: nginx's 502s for requests a kill -9 cut would be counted here too.
  it('restarts every instance one at a time under load without a failed request', async () => {
    const report = await runFleetSoak(fleet, { shoppers: 4, seconds: 10, faultRate: 0.2, crashes: 0, rollingRestarts: 1, drainTimeoutMs: 45_000 });
    expect(soakProblems(report), fleet.instances.map((instance) => instance.output()).join('\n')).toEqual([]);
    const instanceSteps = (step: string) => report.rollingSteps.filter((line) => line.endsWith(step)).length;
    expect(instanceSteps('stopped (exit 0)'), report.rollingSteps.join('\n')).toBe(3);
    expect(instanceSteps('back in nginx')).toBe(3);
    expect({ nginx502or504: report.proxy.unanswered, noAnswer: report.unanswered }).toEqual({ nginx502or504: 0, noAnswer: {} });
    // Out of nginx before it stopped: no request met a closed instance and had to be sent on to another.
    expect(report.proxy.failedOver).toBe(0);
    expect(report.replies.other_error, JSON.stringify(report.otherErrors)).toBe(0);
    expect(report.audit.succeeded, 'payments went through').toBeGreaterThan(0);
    for (const instance of fleet.instances) expect((await fetch(`http://${instance.address}/readyz`)).status).toBe(200);
  }, 120_000);

  it('loses and doubles nothing through an instance killed and restarted, with 20% of charges faulted', async () => {
    const report = await runFleetSoak(fleet, { shoppers: 4, seconds: 20, faultRate: 0.2, crashes: 1, drainTimeoutMs: 45_000 });
    expect(soakProblems(report), fleet.instances.map((instance) => instance.output()).join('\n')).toEqual([]);
    expect(report.killed).toHaveLength(1);
    expect(report.audit.succeeded, 'payments went through').toBeGreaterThan(0);
    // Every instance took requests: nginx spread them, the restarted one included.
    const log = readFileSync(fleet.accessLog, 'utf8');
    for (const instance of fleet.instances) expect(log).toContain(`upstream=${instance.address}`);
    expect(report.proxy.requests).toBeGreaterThan(0);
    for (const instance of fleet.instances) expect((await fetch(`http://${instance.address}/readyz`)).status).toBe(200);
  }, 120_000);

  it.skipIf(!redisServer)('counts the rate limits in Redis, none in the database', async () => {
    // A read counted now: the soaks' windows last a minute, and on a slow machine the tests above can outlast them.
    await (await fetch(`${fleet.url}/api/sessions/cs_${'0'.repeat(22)}/public`)).arrayBuffer();
    const redis = createClient({ url: fleet.redis!.url });
    await redis.connect();
    const database = new pg.Client({ connectionString: fleet.database.url });
    await database.connect();
    try {
      expect((await redis.keys('rl:*')).length).toBeGreaterThan(0);
      expect((await database.query<{ count: string }>('select count(*) from rate_limit_windows')).rows[0]!.count).toBe('0');
    } finally {
      await database.end();
      redis.destroy();
    }
  });
});
