/**
 * The test clock's routes (secret key; docs/test-clocks.md): read the
 * application's clock, and move it forward. A server whose payment service is
 * a real one refuses both, 403 test_helpers_unavailable: time is moved only
 * where no money is real.
 */
import express, { type Request, type RequestHandler, type Response } from 'express';
import { sendFailure } from '../../common/http/errors';
import { type BodyRules, KB } from '../../common/http/body';
import { JSON_BODY, MERCHANT_CALL, NO_BODY, type RouteAnswers } from '../../contracts/error-codes';
import type { App } from '../apps';
import { authenticatedMerchant } from '../http/merchant-auth';
import { advanceClock, readTestClock, type TestClockDependencies, type TestClockSettings } from './test-clocks';

export interface TestClockRoutesOptions extends Omit<TestClockDependencies, keyof TestClockSettings> {
  /** Undefined when the payment service is a real one: every call is refused. */
  testClocks: TestClockSettings | undefined;
  /** The secret-key routes' one budget (checkout/routes.ts merchantLimiter). */
  merchantCalls: RequestHandler;
}

/** What each route answers besides its success, by operationId (as checkoutAnswers in checkout/routes.ts). */
export const testClockAnswers = {
  getTestClock: [...MERCHANT_CALL, ...NO_BODY, 'test_helpers_unavailable'],
  advanceTestClock: [...MERCHANT_CALL, ...JSON_BODY, 'test_helpers_unavailable', 'not_found', 'service_unavailable'],
} as const satisfies Record<string, RouteAnswers>;

export const testClockBodies = {
  'POST /api/test_helpers/advance_clock': { body: 'required', limit: 4 * KB },
} as const satisfies BodyRules;

export function testClockRoutes(options: TestClockRoutesOptions): express.Router {
  const router = express.Router();
  const { store, merchantCalls, testClocks } = options;

  /** The caller's app and the clock's settings, or undefined once the refusal is sent. */
  async function sandboxMerchant(req: Request, res: Response): Promise<{ app: App; settings: TestClockSettings } | undefined> {
    const app = await authenticatedMerchant(store, req, res);
    if (!app) return undefined;
    if (!testClocks) {
      sendFailure(res, { code: 'test_helpers_unavailable', message: 'Test clocks work only with a sandbox payment service (embedded or standalone); this server charges through a real one' });
      return undefined;
    }
    return { app, settings: testClocks };
  }

  router.get('/api/test_helpers/clock', merchantCalls, async (req, res) => {
    const caller = await sandboxMerchant(req, res);
    if (caller) res.json(await readTestClock(store, caller.app));
  });

  router.post('/api/test_helpers/advance_clock', merchantCalls, async (req, res) => {
    const caller = await sandboxMerchant(req, res);
    if (!caller) return;
    const moved = await advanceClock({ ...options, ...caller.settings }, caller.app, req.body);
    if (moved.ok) res.json(moved.value);
    else sendFailure(res, moved.error);
  });

  return router;
}
