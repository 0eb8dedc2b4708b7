/**
 * The order of a shutdown, on a fake clock: readiness fails first while the
 * instance serves on for the drain delay, then it closes, then it exits 0; a
 * second signal or the deadline exits 1 at once.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createLogger } from '../../common/logging';
import { shutdownOnSignal, type Stoppable } from './shutdown';

const timing = { drainDelayMs: 5_000, timeoutMs: 45_000 };

/** A server whose close() ends when the test says, and the steps it was asked for, in order. */
function fakeServer() {
  const steps: string[] = [];
  let finishClose: (() => void) | undefined;
  const server: Stoppable = {
    startDraining: () => steps.push('draining'),
    close: () => {
      steps.push('close');
      return new Promise<void>((resolve) => {
        finishClose = resolve;
      });
    },
  };
  const exit = vi.fn((code: number) => steps.push(`exit ${code}`));
  return { server, steps, exit, finishClose: () => finishClose?.() };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

it('drains first, closes once the delay is over, and exits 0 once closed', async () => {
  const { server, steps, exit, finishClose } = fakeServer();
  const onSignal = shutdownOnSignal(server, timing, createLogger('silent'), exit);

  onSignal('SIGTERM');
  expect(steps).toEqual(['draining']);
  await vi.advanceTimersByTimeAsync(timing.drainDelayMs - 1);
  expect(steps).toEqual(['draining']);
  await vi.advanceTimersByTimeAsync(1);
  expect(steps).toEqual(['draining', 'close']);

  finishClose();
  await vi.advanceTimersByTimeAsync(0);
  expect(steps).toEqual(['draining', 'close', 'exit 0']);
});

it('closes at once with no delay', async () => {
  const { server, steps, exit } = fakeServer();
  shutdownOnSignal(server, { ...timing, drainDelayMs: 0 }, createLogger('silent'), exit)('SIGTERM');
  await vi.advanceTimersByTimeAsync(0);
  expect(steps).toEqual(['draining', 'close']);
});

it('closes at once on Ctrl-C (SIGINT) when its delay is 0, as in development, and still drains on SIGTERM', async () => {
  const development = { ...timing, interruptDrainDelayMs: 0 };
  const interrupted = fakeServer();
  shutdownOnSignal(interrupted.server, development, createLogger('silent'), interrupted.exit)('SIGINT');
  await vi.advanceTimersByTimeAsync(0);
  expect(interrupted.steps).toEqual(['draining', 'close']);
  const terminated = fakeServer();
  shutdownOnSignal(terminated.server, development, createLogger('silent'), terminated.exit)('SIGTERM');
  await vi.advanceTimersByTimeAsync(timing.drainDelayMs - 1);
  expect(terminated.steps).toEqual(['draining']);
});

it('exits 1 at once on a second signal, during the delay or while closing', async () => {
  for (const after of [timing.drainDelayMs / 2, timing.drainDelayMs]) {
    const { server, steps, exit } = fakeServer();
    const onSignal = shutdownOnSignal(server, timing, createLogger('silent'), exit);
    onSignal('SIGTERM');
    await vi.advanceTimersByTimeAsync(after);
    onSignal('SIGINT');
    expect(steps.at(-1)).toBe('exit 1');
    expect(exit).toHaveBeenCalledOnce();
  }
});

it('exits 1 when closing outlasts SHUTDOWN_TIMEOUT_MS, counted from the signal', async () => {
  const { server, steps, exit } = fakeServer();
  shutdownOnSignal(server, timing, createLogger('silent'), exit)('SIGTERM');
  await vi.advanceTimersByTimeAsync(timing.timeoutMs - 1);
  expect(steps).toEqual(['draining', 'close']);
  await vi.advanceTimersByTimeAsync(1);
  expect(steps).toEqual(['draining', 'close', 'exit 1']);
});
