/**
 * Rate limits counted in Redis (REDIS_URL), on a real redis-server: two
 * instances (each its own connection, as two processes have) count one budget
 * per client; while Redis is dead or hung every request is still answered at
 * once and limited per instance; once it is back, the budget is shared again.
 */
import express from 'express';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { limiter } from '../checkout/routes';
import { connectRateLimitRedis, type RateLimitRedis } from './rate-limit-redis';
import { RedisOrLocalRateLimitStore } from './redis-rate-limit-store';
import { freePort } from '../../testing/free-port';
import { listen } from '../../testing/listen';
import { type RedisServer, startRedisServer } from '../../testing/fleet/redis-server';
import { redisServerForTests } from '../../testing/redis';

const redisBinary = redisServerForTests();

interface Instance {
  /** The statuses of `count` requests in a row from this test's client address. */
  get(count?: number): Promise<number[]>;
  connection: RateLimitRedis;
  /** What it logged, one JSON line each. */
  logged: string[];
  localCounts(): number;
  close(): Promise<void>;
}

const LIMIT = 4;
const started: Instance[] = [];

/** An instance's limiter, `name` keeping its budget apart from the other tests'. */
async function instance(redisUrl: string, name: string, readyWaitMs = 5_000): Promise<Instance> {
  const logged: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(line) });
  let localCounts = 0;
  const connection = connectRateLimitRedis(redisUrl, logger, () => localCounts++);
  await connection.ready(readyWaitMs);
  const app = express();
  app.get('/limited', limiter(name, LIMIT, { storeFor: (limiter) => new RedisOrLocalRateLimitStore(connection, limiter), logger }), (_req, res) => void res.json({ served: true }));
  const server = await listen(app);
  const made: Instance = {
    async get(count = 1) {
      const statuses = [];
      for (let i = 0; i < count; i++) statuses.push((await fetch(`${server.origin}/limited`)).status);
      return statuses;
    },
    connection,
    logged,
    localCounts: () => localCounts,
    async close() {
      await server.close();
      await connection.close();
    },
  };
  started.push(made);
  return made;
}

const linesSaying = (instance: Instance, text: string) => instance.logged.filter((line) => line.includes(text)).length;

async function untilUsable(...instances: Instance[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!instances.every((i) => i.connection.usable())) {
    if (Date.now() > deadline) throw new Error('the instances did not reconnect to Redis within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((i) => i.close()));
});

describe.skipIf(redisBinary === undefined)('rate limits counted in Redis', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer(redisBinary!);
  });
  afterAll(() => redis?.remove());

  it('two instances count one budget per client: 2 requests on A and 2 on B, the 5th is 429 on either', async () => {
    const a = await instance(redis.url, 'shared');
    const b = await instance(redis.url, 'shared');
    const statuses = [];
    for (const server of [a, a, b, b, a, b]) statuses.push(...(await server.get()));
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect(a.localCounts() + b.localCounts()).toBe(0);
  });

  it('Redis killed mid-run: every request is answered and limited per instance, logged once; back: shared again', async () => {
    const a = await instance(redis.url, 'outage');
    const b = await instance(redis.url, 'outage');
    expect([...(await a.get()), ...(await b.get())]).toEqual([200, 200]);

    await redis.kill();
    const startedAt = Date.now();
    // Each instance counts its own budget in memory: LIMIT each, then 429.
    expect(await a.get(LIMIT + 1)).toEqual([200, 200, 200, 200, 429]);
    expect(await b.get(LIMIT + 1)).toEqual([200, 200, 200, 200, 429]);
    expect(Date.now() - startedAt).toBeLessThan(2_000);
    for (const i of [a, b]) {
      expect(linesSaying(i, 'cannot be reached: rate limits are counted per instance')).toBe(1);
      expect(i.localCounts()).toBe(LIMIT + 1);
    }

    await redis.start();
    await untilUsable(a, b);
    const statuses = [];
    for (const server of [a, a, b, b, a, b]) statuses.push(...(await server.get()));
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    for (const i of [a, b]) expect(linesSaying(i, 'answers again: rate limits are shared')).toBe(1);
  });

  it('Redis hung: requests wait at most its command timeout, limited per instance, then shared again once it answers', async () => {
    const a = await instance(redis.url, 'hung');
    redis.freeze();
    try {
      const startedAt = Date.now();
      expect(await a.get(LIMIT + 1)).toEqual([200, 200, 200, 200, 429]);
      // The first waits for the command timeout (500 ms); the others are not sent to Redis while it is known to be failing.
      expect(Date.now() - startedAt).toBeLessThan(1_500);
    } finally {
      redis.thaw();
    }
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const b = await instance(redis.url, 'hung');
    expect([...(await a.get()), ...(await b.get(LIMIT))]).toEqual([200, 200, 200, 200, 429]);
    expect(linesSaying(a, 'answers again: rate limits are shared')).toBe(1);
  });
});

it('an instance whose Redis is absent from the start serves at once and limits per instance', async () => {
  const absent = `redis://127.0.0.1:${await freePort()}`;
  const startedAt = Date.now();
  // As server.ts does: waits a second for Redis, then serves without it.
  const a = await instance(absent, 'absent', 1_000);
  expect(await a.get(LIMIT + 1)).toEqual([200, 200, 200, 200, 429]);
  expect(Date.now() - startedAt).toBeLessThan(3_000);
  expect(linesSaying(a, 'cannot be reached')).toBe(1);
});
