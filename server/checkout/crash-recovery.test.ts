/**
 * Crash recovery: a backend killed at any point (kill -9) and started again loses no
 * payment and charges none twice. The real server runs as its own process;
 * each round cuts twenty payments at another point of their life, and once
 * reconciliation has settled them the service's ledger must agree with the
 * store, session by session, for every round so far (a later crash must not
 * disturb an earlier round's outcome).
 */
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedSession } from '../../contracts';
import type { FaultPlanInput } from '../../sandbox';
import { auditLedger, type ChildServer, readLedger, settledSessions, type ShopClient, shopClient, startChildServer } from '../../testing/child-server';

const SESSIONS_PER_ROUND = 20;
/** A round settles in about a second; one that does not within this fails. */
const SETTLE_TIMEOUT_MS = 5_000;

let server: ChildServer;
let shop: ShopClient;
/** Every session of every round: each audit covers them all. */
const sessionIds: string[] = [];

beforeAll(async () => {
  // Reconciliation every 300 ms instead of 5 s, so a round settles quickly.
  server = await startChildServer({ env: { RECONCILE_INTERVAL_MS: '300' } });
  shop = shopClient(server);
}, 30_000);

afterAll(async () => {
  await server?.stop();
  if (server) rmSync(server.dataDir, { recursive: true, force: true });
});

interface Round {
  /** What the service does with every charge request of the round. */
  faults: FaultPlanInput;
  /** The point to kill at, as observed from outside: checked every few ms once the payments are sent. */
  killWhen(round: readonly CreatedSession[]): Promise<boolean>;
}

/** Half the round: enough attempts caught at that point, without waiting for the slowest. */
const HALF = SESSIONS_PER_ROUND / 2;
const claimedAtLeast = (count: number) => async (round: readonly CreatedSession[]) =>
  (await Promise.all(round.map((session) => shop.session(session.id)))).filter((session) => session.attempts > 0).length >= count;

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`the kill point was not reached within ${timeoutMs} ms`);
    await sleep(10);
  }
}

/**
 * One round: twenty sessions paid at once, the process killed at the round's
 * point, started again on the same DATA_DIR (the fault plan, kept in memory,
 * is gone: the service answers at once), then the audit of every round so far.
 */
async function killDuringPayments({ faults, killWhen }: Round): Promise<void> {
  const round = await Promise.all(
    Array.from({ length: SESSIONS_PER_ROUND }, async (_, i) => {
      const session = await shop.createSession({ amount: 1000 + i });
      return { session, paymentData: await shop.walletPaymentData(session, 'visa-success-3ds') };
    }),
  );
  const sessionsOfRound = round.map(({ session }) => session);
  sessionIds.push(...sessionsOfRound.map((session) => session.id));
  await shop.setFaults(faults);

  // The kill cuts these requests: their replies die with the process, as a shopper's would.
  const payments = round.map(({ session, paymentData }) => shop.pay(session, paymentData).catch(() => undefined));
  await waitFor(() => killWhen(sessionsOfRound));
  await server.kill();
  await Promise.all(payments);
  await server.restart();

  const sessions = await settledSessions(shop, sessionIds, SETTLE_TIMEOUT_MS);
  const audit = auditLedger(sessions, await readLedger(server.dataDir));
  expect(audit, server.output()).toMatchObject({ duplicates: [], lost: [], mismatched: [], pending: [] });
  const thisRound = sessions.slice(-SESSIONS_PER_ROUND);
  expect(thisRound.some((session) => session.attempts > 0), 'some payment was under way when the process died').toBe(true);
  // A session the kill reached before its claim was never charged and is still open; every claimed one succeeded, once.
  for (const session of thisRound) {
    expect(session).toMatchObject(session.attempts === 0 ? { status: 'open' } : { status: 'succeeded', attempts: 1 });
  }
}

describe('a server killed (kill -9) during payments, then restarted', () => {
  // Every try fails before processing: the store holds claimed attempts (in flight or pending), the service nothing.
  it('after the store claimed the attempts, before the service charged: each is charged once', () =>
    killDuringPayments({ faults: { rate: 1, kinds: ['error'] }, killWhen: claimedAtLeast(HALF) }), 30_000);

  // The service charges and every reply is lost: charges exist that the store has not recorded.
  it('after the service charged, before the store heard: each charge is found, none repeated', () => {
    let chargesBefore: number | undefined;
    return killDuringPayments({
      faults: { rate: 1, kinds: ['lost_reply'] },
      async killWhen() {
        const charges = (await shop.charges()).length;
        chargesBefore ??= charges;
        return charges - chargesBefore >= HALF;
      },
    });
  }, 30_000);

  // The sandbox dies holding requests whose idempotency keys it had claimed: it frees them when it starts again.
  it('while the service holds the charges: every attempt settles', () =>
    killDuringPayments({ faults: { rate: 1, kinds: ['latency'], latencyMs: 1000 }, killWhen: claimedAtLeast(HALF) }), 30_000);
});
