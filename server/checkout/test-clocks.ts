/**
 * Test clocks (docs/test-clocks.md): with a sandbox payment service only, a
 * merchant's QA moves its application's clock (or one session's) forward, to
 * see in seconds what days would do. The code keeps reading the real clock;
 * moving forward by Δ backdates by Δ every time the application's rows keep
 * (store/test-clocks.ts) and, at the sandbox service, its charges' (so that a
 * hold lapses there too), then runs at once the passes that act on time:
 * expiry, lapsed holds, personal data's retention and webhook deliveries. What
 * they do is done when the call returns.
 */
import { AdvanceClockBody, MAX_BACKDATED_CHARGES, MAX_CLOCK_ADVANCE_SECONDS, type TestClock } from '../../contracts';
import type { App } from '../apps';
import { invalidRequest } from '../../common/http/errors';
import type { Logger } from '../../common/logging';
import { type Failure, type Result, err, ok } from '../../common/result';
import type { DataCipher } from '../lib/data-cipher';
import type { ServiceClient } from '../service-client';
import type { Store } from '../store';
import { findSession } from '../store/sessions';
import { advanceTestClock, type ClockTarget, testClockOffset } from '../store/test-clocks';
import { expirePastDueSessions } from './expiry';
import { releaseLapsedHolds } from './holds';
import { erasePersonalData } from './personal-data';

/** What moving a clock needs beyond the store: present only when the payment service is a sandbox. */
export interface TestClockSettings {
  /** PERSONAL_DATA_RETENTION_DAYS, in ms: the retention pass run after a move. */
  personalDataRetentionMs: number;
  /** One pass of the webhook delivery worker: sends the deliveries the move made due, and waits for them. */
  deliverWebhooks(): Promise<void>;
}

export interface TestClockDependencies extends TestClockSettings {
  store: Store;
  service: ServiceClient;
  cipher: DataCipher;
  logger: Logger;
  longestRequestMs: number;
}

export async function readTestClock(store: Store, app: App, session: string | null = null): Promise<TestClock> {
  const offset = await testClockOffset(store, app.id);
  return { object: 'test_clock', now: Date.now() + offset, offset_seconds: Math.round(offset / 1000), session };
}

/** How far a body asks to move: its `seconds`, or from the application's clock to its `to`. */
function secondsToMove(body: AdvanceClockBody, clockNow: number): Result<number, Failure> {
  if (body.seconds !== undefined) return ok(body.seconds);
  // Rounded up: once the call returns, the clock has reached `to`.
  const seconds = Math.ceil(((body.to ?? clockNow) - clockNow) / 1000);
  if (seconds < 1 || seconds > MAX_CLOCK_ADVANCE_SECONDS) {
    return err({ code: 'invalid_request', message: `to: must be from 1 to ${MAX_CLOCK_ADVANCE_SECONDS} seconds after the clock's now (${clockNow}, ms since the epoch); the clock only moves forward` });
  }
  return ok(seconds);
}

/** The service's charges of the moved rows, placed as much earlier, in batches; a failure rolls the move back. */
async function backdateAtService(deps: TestClockDependencies, app: App, seconds: number, chargeIds: string[]): Promise<Result<void, Failure>> {
  for (let start = 0; start < chargeIds.length; start += MAX_BACKDATED_CHARGES) {
    const charges = chargeIds.slice(start, start + MAX_BACKDATED_CHARGES);
    const moved = await deps.service.backdateCharges(app.merchantId, { seconds, charges });
    if (!moved.ok) return err({ code: 'service_unavailable', message: `The sandbox service could not move its charges (${moved.error.serviceCode ?? moved.error.code}); the clock did not move: call again` });
  }
  return ok(undefined);
}

/**
 * The passes that act on time, now rather than at their next interval. They
 * run over every application, as they do on their own: another application's
 * rows were not moved, so only what was due anyway happens to them.
 */
async function runTimedPasses(deps: TestClockDependencies): Promise<void> {
  await expirePastDueSessions(deps);
  await releaseLapsedHolds(deps);
  await erasePersonalData(deps);
  await deps.deliverWebhooks();
}

export async function advanceClock(deps: TestClockDependencies, app: App, body: unknown): Promise<Result<TestClock, Failure>> {
  const parsed = AdvanceClockBody.safeParse(body);
  if (!parsed.success) return err(invalidRequest(parsed.error));
  const { session } = parsed.data;
  if (session !== undefined && (await findSession(deps.store, session))?.app_id !== app.id) return err({ code: 'not_found', message: 'No such checkout session' });
  const clockNow = Date.now() + (await testClockOffset(deps.store, app.id));
  const seconds = secondsToMove(parsed.data, clockNow);
  if (!seconds.ok) return seconds;
  const target: ClockTarget = { appId: app.id, sessionId: session };
  const moved = await advanceTestClock(deps.store, target, seconds.value * 1000, Date.now(), (chargeIds) => backdateAtService(deps, app, seconds.value, chargeIds));
  if (!moved.ok) return moved;
  deps.logger.info({ app: app.id, session, seconds: seconds.value }, 'test clock moved forward');
  await runTimedPasses(deps);
  return ok(await readTestClock(deps.store, app, session ?? null));
}
