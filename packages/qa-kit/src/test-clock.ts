/**
 * Test clocks from a suite (docs/test-clocks.md): the application's clock on a
 * checkout host in sandbox mode, read and moved forward over its API, so a test
 * sees a session expire, a hold lapse, a webhook retried or personal data
 * erased in seconds. Plain fetch from the test runner, with the application's
 * secret key: never from a page. A host with a real payment service refuses
 * (403 `test_helpers_unavailable`).
 *
 *   const clock = await advanceClock({ checkoutOrigin, secretKey, seconds: 25 * 3600 });
 */

/** The application's clock, as the API answers it (contracts/test-clocks.ts's TestClock). */
export interface TestClock {
  object: 'test_clock';
  /** The application's clock, ms since the epoch: the host's time plus `offset_seconds`. */
  now: number;
  /** How far the application's clock was moved forward, in all. */
  offset_seconds: number;
  /** The session a call moved alone; null when the whole application moved. */
  session: string | null;
}

export interface TestClockOptions {
  /** The checkout host, e.g. `https://checkout.staging.example`. */
  checkoutOrigin: string;
  /** The application's secret key (sk_test_...). */
  secretKey: string;
}

/** By `seconds` (1 to 400 days' worth) or `to` (ms since the epoch, on the application's clock); `session`: that session alone. */
export type AdvanceClockOptions = TestClockOptions & ({ seconds: number; to?: never } | { to: number; seconds?: never }) & { session?: string };

async function clockCall(options: TestClockOptions, path: string, body?: unknown): Promise<TestClock> {
  const reply = await fetch(`${options.checkoutOrigin.replace(/\/+$/, '')}/api/test_helpers/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${options.secretKey}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await reply.json().catch(() => undefined)) as TestClock | { error?: { code?: string; message?: string } } | undefined;
  if (reply.ok) return answer as TestClock;
  const error = answer && 'error' in answer ? answer.error : undefined;
  throw new Error(`test clock: ${reply.status} ${error?.code ?? 'no error code'}: ${error?.message ?? 'the host did not say why'}`);
}

/** Where the application's clock stands. */
export function readClock(options: TestClockOptions): Promise<TestClock> {
  return clockCall(options, 'clock');
}

/**
 * Moves the clock forward; what the move makes due (expiry, a hold's lapse, erasure, webhook retries) is done
 * when the promise resolves. Sent once: a move is not idempotent, and a failure throws with the API's code.
 */
export function advanceClock({ checkoutOrigin, secretKey, ...move }: AdvanceClockOptions): Promise<TestClock> {
  return clockCall({ checkoutOrigin, secretKey }, 'advance_clock', move);
}
