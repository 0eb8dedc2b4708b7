/** The test clock's part of the OpenAPI document (docs/test-clocks.md): sandbox mode only. */
import type { ZodOpenApiObject } from 'zod-openapi';
import { AdvanceClockBody, TestClock } from '../../contracts';
import { testClockAnswers, testClockBodies } from '../checkout/test-clock-routes';
import { errorResponses, reply, requestBody } from './parts';

const secretKey = [{ merchantSecretKey: [] }];
const TAG = 'Test clocks';

export const testClocksTag = {
  name: TAG,
  description: "Sandbox mode only: move the application's clock (or one session's) forward, to test expiry, a hold's lapse, webhook retries and personal data's erasure in seconds (secret key; docs/test-clocks.md)",
};

export const testClockPaths: ZodOpenApiObject['paths'] = {
  '/api/test_helpers/clock': {
    get: {
      operationId: 'getTestClock',
      tags: [TAG],
      summary: "Read the application's test clock",
      description: "Where the application's clock stands (`now`, the server's time plus `offset_seconds`). A server with a real payment service answers 403 `test_helpers_unavailable`.",
      security: secretKey,
      responses: {
        '200': reply("The application's clock", TestClock),
        ...errorResponses(testClockAnswers.getTestClock),
      },
    },
  },
  '/api/test_helpers/advance_clock': {
    post: {
      operationId: 'advanceTestClock',
      tags: [TAG],
      summary: "Move the application's clock forward",
      description:
        "By `seconds`, or `to` a time on the application's clock: every time the application's rows keep (or, with `session`, that session's) is moved back as much, and the sandbox service's charges too; then the passes that act on time run at once (expiry, lapsed holds, personal data's retention, due webhook deliveries), so their effects are there when the call returns. Not idempotent: each call moves the clock again. A server with a real payment service answers 403 `test_helpers_unavailable`.",
      security: secretKey,
      requestBody: requestBody(testClockBodies['POST /api/test_helpers/advance_clock'], AdvanceClockBody),
      responses: {
        '200': reply("The application's clock after the move", TestClock),
        ...errorResponses(testClockAnswers.advanceTestClock),
      },
    },
  },
};
