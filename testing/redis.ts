/**
 * redis-server for tests (testing/fleet/redis-server.ts starts one per caller,
 * on a free port). Absent off CI: the tests that need it are skipped, and this
 * says so; absent on CI: the run fails, since .ci/run installs it
 * (scripts/ensure-redis.sh) and a skip there would hide a broken install.
 */
import { findRedisServer } from './fleet/redis-server';

export function redisServerForTests(): string | undefined {
  const binary = findRedisServer();
  if (binary) return binary;
  if (process.env.CI) throw new Error('redis-server is not installed on CI: .ci/run installs it with scripts/ensure-redis.sh');
  console.warn('\n[redis] No redis-server found: the Redis rate-limit tests are SKIPPED. Run `bash scripts/ensure-redis.sh` or set REDIS_SERVER_PATH.\n');
  return undefined;
}
