/** The pace of the session's checks (session-watch.ts): polling while confirming, and a hold's checks backing off. */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { Checked } from './flow-events';
import { session } from './flow-fixtures';
import { HOLD_CHECKS, POLLING, watchSession } from './session-watch';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

it('polls every two seconds while the answer says to go on, and stops when it does not', async () => {
  const answers: Checked[] = [];
  let goOn = true;
  const fetchSession = vi.fn(async () => session('processing'));
  watchSession(fetchSession, POLLING, (checked) => (answers.push(checked), goOn));
  await vi.advanceTimersByTimeAsync(1999);
  expect(fetchSession).not.toHaveBeenCalled();
  await vi.advanceTimersByTimeAsync(1);
  expect(answers).toEqual([{ session: session('processing') }]);
  goOn = false;
  await vi.advanceTimersByTimeAsync(2000);
  await vi.advanceTimersByTimeAsync(10_000);
  expect(fetchSession).toHaveBeenCalledTimes(2);
});

it('hands a failed check to the answer, and checks nothing once stopped', async () => {
  const answers: Checked[] = [];
  const stop = watchSession(() => Promise.reject(new Error('offline')), POLLING, (checked) => (answers.push(checked), true));
  await vi.advanceTimersByTimeAsync(2000);
  expect(answers).toEqual([{ error: new Error('offline') }]);
  stop();
  await vi.advanceTimersByTimeAsync(10_000);
  expect(answers).toHaveLength(1);
});

it("checks a hold soon after paying, then less and less often, at most once a minute", () => {
  const waits = [HOLD_CHECKS.first];
  while (waits.length < 6) waits.push(HOLD_CHECKS.next(waits.at(-1)!));
  expect(waits).toEqual([5_000, 10_000, 20_000, 40_000, 60_000, 60_000]);
  expect(HOLD_CHECKS.whileVisible).toBe(true);
});
