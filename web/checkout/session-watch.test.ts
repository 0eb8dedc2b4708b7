/** The pace of the session's checks (session-watch.ts): polling while confirming, and a hold's checks backing off. */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { Checked } from './flow-events';
import { session } from './flow-fixtures';
import { HOLD_CHECKS, POLLING, watchSession } from './session-watch';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

it('polls after a second, then less and less often, and stops when the answer says to', async () => {
  const answers: Checked[] = [];
  let goOn = true;
  const fetchSession = vi.fn(async () => session('processing'));
  watchSession(fetchSession, POLLING, (checked) => (answers.push(checked), goOn));
  await vi.advanceTimersByTimeAsync(1000 * (1 - (POLLING.jitter ?? 0)) - 1);
  expect(fetchSession).not.toHaveBeenCalled();
  await vi.advanceTimersByTimeAsync(1000 * 2 * (POLLING.jitter ?? 0) + 1);
  expect(answers).toEqual([{ session: session('processing') }]);
  goOn = false;
  await vi.advanceTimersByTimeAsync(3000);
  await vi.advanceTimersByTimeAsync(60_000);
  expect(fetchSession).toHaveBeenCalledTimes(2);
});

it.each([0, 0.5, 0.999])('confirming checks a few times in 45 s, and stops after its limit, about five minutes (random %s)', async (random) => {
  vi.spyOn(Math, 'random').mockReturnValue(random);
  const fetchSession = vi.fn(async () => session('processing'));
  watchSession(fetchSession, POLLING, () => true);
  await vi.advanceTimersByTimeAsync(45_000);
  // Every 2 s made 22 requests here; 1, 2, 4, 8, 8... makes 7, give or take the jitter.
  expect(fetchSession.mock.calls.length).toBeGreaterThanOrEqual(5);
  expect(fetchSession.mock.calls.length).toBeLessThanOrEqual(9);
  await vi.advanceTimersByTimeAsync(7 * 60_000);
  const limit = fetchSession.mock.calls.length;
  expect(limit).toBe(POLLING.checks);
  expect(POLLING.checks).toBeLessThanOrEqual(45);
  await vi.advanceTimersByTimeAsync(60 * 60_000);
  expect(fetchSession).toHaveBeenCalledTimes(limit);
  vi.restoreAllMocks();
});

it('moves each wait by the jitter at most', () => {
  const waits: number[] = [];
  vi.spyOn(globalThis, 'setTimeout').mockImplementation(((_: () => void, ms: number) => (waits.push(ms), 0)) as typeof setTimeout);
  for (const random of [0, 0.999]) {
    vi.spyOn(Math, 'random').mockReturnValue(random);
    watchSession(async () => session('processing'), POLLING, () => true)();
  }
  vi.restoreAllMocks();
  expect(waits[0]).toBeCloseTo(800);
  expect(waits[1]).toBeCloseTo(1200, -1);
});

it('hands a failed check to the answer, and checks nothing once stopped', async () => {
  const answers: Checked[] = [];
  const stop = watchSession(() => Promise.reject(new Error('offline')), POLLING, (checked) => (answers.push(checked), true));
  await vi.advanceTimersByTimeAsync(1200);
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
