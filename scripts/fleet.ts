/**
 * The reference deployment on this machine (docs/operations.md, "The
 * reference deployment"): a throwaway PostgreSQL cluster, a redis-server for
 * the rate limits, the standalone sandbox, N compiled instances and nginx in
 * front, until Ctrl-C.
 *
 *   npm run fleet -- [--instances 3] [--port 8080] [--build] [--rolling-restart]
 *
 * Builds first when dist/ lacks the server or the widget (--build: always).
 * A rolling restart (every instance, one at a time, from what dist/ holds
 * then: `npm run build` first to deploy new code) runs once after the start
 * with --rolling-restart, and whenever the fleet gets SIGHUP (`kill -HUP PID`,
 * the PID it prints), as nginx reloads on it.
 * `npm run fleet` installs PostgreSQL, nginx and Redis first where it may (root
 * and apt-get), as the tests' scripts do. Everything it starts keeps its files in
 * one temporary directory, removed when it stops.
 */
import { parseArgs } from 'node:util';
import { startFleet } from '../testing/fleet/fleet';
import { findNginx } from '../testing/fleet/nginx';
import { findPostgresBinaries } from '../testing/fleet/postgres-cluster';
import { findRedisServer } from '../testing/fleet/redis-server';
import { compiledLaunch } from '../testing/fleet/node-process';

const { values: flags } = parseArgs({
  options: {
    instances: { type: 'string', default: process.env.FLEET_INSTANCES ?? '3' },
    port: { type: 'string', default: process.env.FLEET_PORT ?? '8080' },
    build: { type: 'boolean', default: false },
    'rolling-restart': { type: 'boolean', default: false },
  },
});
const instances = Number(flags.instances);
const port = Number(flags.port);
if (!Number.isInteger(instances) || instances < 1 || !Number.isInteger(port) || port < 0 || port > 65535) {
  console.error('usage: npm run fleet -- [--instances N>=1] [--port 0..65535 (0: any free port)] [--build] [--rolling-restart]');
  process.exit(2);
}
const postgresBin = findPostgresBinaries();
const nginx = findNginx();
const redisServer = findRedisServer();
if (!postgresBin || !nginx || !redisServer) {
  const missing = [!postgresBin && 'PostgreSQL (scripts/ensure-postgres.sh)', !nginx && 'nginx (scripts/ensure-nginx.sh, or NGINX_PATH)', !redisServer && 'Redis (scripts/ensure-redis.sh, or REDIS_SERVER_PATH)'];
  console.error(`The fleet needs ${missing.filter(Boolean).join(' and ')}: install it and run again.`);
  process.exit(2);
}

const launch = compiledLaunch({ rebuild: flags.build });

console.log(`Starting PostgreSQL, Redis, the sandbox, ${instances} instance(s) and nginx...`);
const fleet = await startFleet({
  instances,
  port,
  launch,
  postgresBin,
  nginx,
  redisServer,
});
console.log(`
The fleet is running.
  Demo store:  ${fleet.url}/
  API:         ${fleet.url}/api (OpenAPI: ${fleet.url}/openapi.json)
  Instances:   ${fleet.instances.map((instance) => instance.address).join(', ')} (the demo store runs on the first)
  Sandbox:     ${fleet.sandbox.url}
  PostgreSQL:  ${fleet.database.url}
  Redis:       ${fleet.redis?.url} (the rate limits)
  nginx log:   ${fleet.accessLog}

kill -HUP ${process.pid} restarts the instances one at a time (after \`npm run build\`: on the new code).
Ctrl-C stops everything and removes its files.
`);

function rollingRestart(): void {
  console.log('Rolling restart: one instance at a time, out of nginx, SIGTERM, started again, ready, back in.');
  fleet
    .rollingRestart((step) => console.log(`  ${step.address} ${step.step}${step.step === 'stopped' ? ` (exit ${step.exitCode})` : ''}`))
    .then(
      () => console.log('Rolling restart done: every instance runs what dist/ held when it started.'),
      (error: unknown) => console.error('The rolling restart stopped:', error),
    );
}
process.on('SIGHUP', rollingRestart);
if (flags['rolling-restart']) rollingRestart();

let stopping = false;
const stop = () => {
  // A second Ctrl-C while stopping: the parts are ended by their own pids as this process exits.
  if (stopping) process.exit(130);
  stopping = true;
  console.log('\nStopping nginx, the instances, the sandbox, Redis and PostgreSQL...');
  fleet.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error('The fleet did not stop cleanly:', error);
      process.exit(1);
    },
  );
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
