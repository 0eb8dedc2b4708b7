/**
 * A rate limiter whose shared store is down lets requests through (fail open,
 * docs/operations.md): the request's own work meets the same outage and
 * answers for it, instead of every client being refused at once.
 */
import express from 'express';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { afterAll, expect, it } from 'vitest';
import { limiter } from '../checkout/routes';
import { DatabaseRateLimitStore } from './rate-limit-store';
import type { BackendDatabase } from '../store';
import { freePort } from '../../testing/free-port';
import { listen } from '../../testing/listen';

const unreachable = new Kysely<BackendDatabase>({
  dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: `postgres://nobody@127.0.0.1:${await freePort()}/none`, connectionTimeoutMillis: 500 }) }),
});
afterAll(() => unreachable.destroy());

it('a limiter whose shared store cannot be reached lets every request through, and logs why', async () => {
  const logged: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void logged.push(line) });
  const app = express();
  app.get('/limited', limiter('test', 1, { storeFor: (name) => new DatabaseRateLimitStore(unreachable, name), logger }), (_req, res) => void res.json({ served: true }));
  const server = await listen(app);
  try {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${server.origin}/limited`)).status);
    // A limit of 1 counted in memory would refuse the second and third.
    expect(statuses).toEqual([200, 200, 200]);
    expect(logged.some((line) => line.includes('"limiter":"test"') && line.includes('allowing request without rate-limiting'))).toBe(true);
  } finally {
    await server.close();
  }
});
