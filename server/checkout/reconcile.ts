/**
 * Reconciliation: every attempt whose outcome is unknown (no reply, a 5xx, a
 * process killed mid-call) is settled by replaying its sealed request with its
 * own idempotency key. The service answers with the charge the first request
 * created, or creates it now if the first never arrived: either way exactly
 * one outcome, and never a guess. Pending refunds are settled the same way
 * (checkout/refunds.ts). Each pass then expires the sessions whose time is up
 * (expiry.ts), after settling: a session whose attempt has just come back
 * unpaid expires in the same pass; releases the holds that lapsed (holds.ts); and erases the
 * billing addresses older than PERSONAL_DATA_RETENTION_DAYS (personal-data.ts). Saved cards'
 * part (payment-methods/): the cards of paid saving sessions not kept yet are kept, detaches the
 * service has not heard of are told, and the networks' card updates are applied. The disputes the
 * service opened or changed since the last pass are mirrored (disputes/sync.ts).
 */
import { getApp } from '../apps';
import type { Logger } from '../../common/logging';
import { repeatLimiter } from '../../common/logging/repeats';
import { chargeBodyFrom, type ServiceClient } from '../service-client';
import type { Store } from '../store';
import { liveInstanceIds } from '../store/heartbeats';
import { purgeEndedWindows } from '../store/rate-limits';
import { anyAttemptInFlight, releaseReplayLease, replayableAttempts, takeReplayLease } from '../store/reconciliation';
import type { DataCipher } from '../lib/data-cipher';
import { expirePastDueSessions, nextSessionExpiry } from './expiry';
import { releaseLapsedHolds } from './holds';
import { type ErasureReport, erasePersonalData, type PersonalDataDependencies } from './personal-data';
import { type AbandonedAttempts, chargeOutcome, recordOutcome } from './pay';
import { reconcileRefunds, type RefundReconcileReport } from './refunds';
import { applyCardUpdates } from '../payment-methods/card-updates';
import { keepPendingCards } from '../payment-methods/keep';
import { confirmDetaches } from '../payment-methods/records';
import { applyDisputeChanges } from '../disputes/sync';

export interface ReconcileDependencies extends PersonalDataDependencies {
  store: Store;
  service: ServiceClient;
  cipher: DataCipher;
  logger: Logger;
  /** Settled whatever their age, then forgotten (pay.ts). */
  abandoned: AbandonedAttempts;
  /** This instance's id (its heartbeat's), which its requests write on their attempts. */
  instanceId: string;
  /**
   * PostgreSQL: other instances use the store, and an in-flight attempt made by
   * one whose heartbeat is live is its request's. SQLite has one instance: an
   * attempt another instance id made is a dead predecessor's.
   */
  sharedStore: boolean;
  /** How long a replay may take: a lease held by an instance that died lapses after it. */
  leaseMs: number;
}

export interface ReconcileReport {
  examined: number;
  settled: number;
  stillPending: number;
  /** Pending refunds, replayed the same way. */
  refunds: RefundReconcileReport;
  /** Sessions this pass moved to `expired`. */
  expired: number;
  /** Holds this pass released because they had lapsed at the service (holds.ts). */
  lapsedHoldsReleased: number;
  /** What this pass erased after the retention period (personal-data.ts). */
  personalDataErased: ErasureReport;
  /** Saved cards: cards kept, detaches told to the service, payment methods the networks' card updates changed. */
  savedCards: { kept: number; detachesTold: number; cardsUpdated: number };
  /** Disputes this pass created or changed from the service's feed. */
  disputesChanged: number;
  /** When the next unpaid session expires (ms since the epoch), if any: the next sweep's latest time. */
  nextExpiry: number | undefined;
  /** Attempts are in flight (this pass left them to their requests): a later one may have to replay them. */
  inFlightRemain: boolean;
}

/**
 * Settles `pending` attempts, and `in_flight` ones nobody is finishing: started
 * before `inFlightBefore` (a live request younger than that is left to finish),
 * abandoned by their request, or made by an instance that is not live (crashed,
 * or shut down). Each is leased first (store/reconciliation.ts), so that another
 * instance's pass at the same time does not replay it too. Then expires the
 * sessions past due.
 */
export async function reconcile(deps: ReconcileDependencies, inFlightBefore: number): Promise<ReconcileReport> {
  const abandoned = [...deps.abandoned];
  const now = Date.now();
  const liveInstances = [deps.instanceId, ...(deps.sharedStore ? await liveInstanceIds(deps.store, now) : [])];
  const attempts = await replayableAttempts(deps.store, { now, inFlightBefore, abandoned, liveInstances });

  // An abandoned attempt no longer in flight was settled by another instance: nothing left to do here.
  for (const id of abandoned) if (!attempts.some((attempt) => attempt.id === id)) deps.abandoned.delete(id);
  let examined = 0;
  let settled = 0;
  for (const attempt of attempts) {
    const lease = await takeReplayLease(deps.store, 'charge_attempts', attempt, Date.now() + deps.leaseMs, Date.now());
    // Another instance's pass is replaying it.
    if (lease === undefined) continue;
    examined++;
    const opened = attempt.request_sealed ? deps.cipher.open(attempt.request_sealed) : undefined;
    const body = opened?.ok ? chargeBodyFrom(opened.value) : undefined;
    const app = await getApp(deps.store, attempt.app_id);
    if (!body || !app) {
      // Without the exact request we cannot ask the service: leave it pending for a person to look at.
      deps.logger.error({ attempt: attempt.id }, 'pending attempt cannot be replayed');
      await releaseReplayLease(deps.store, 'charge_attempts', attempt.id, lease);
      continue;
    }
    const { outcome, addressVerification } = await chargeOutcome(deps.service, body, { merchantId: app.merchantId, idempotencyKey: attempt.idempotency_key });
    await recordOutcome(deps, attempt.session_id, attempt.id, outcome, { addressVerification });
    await releaseReplayLease(deps.store, 'charge_attempts', attempt.id, lease);
    // Recorded (pending or settled): from now on an ordinary attempt of the store's.
    deps.abandoned.delete(attempt.id);
    if (outcome.status !== 'pending') settled++;
    deps.logger.info({ attempt: attempt.id, session: attempt.session_id, status: outcome.status }, 'attempt reconciled');
  }
  const refunds = await reconcileRefunds(deps);
  // After the attempts: a saving session settled paid by this pass has its card kept in it.
  const savedCards = { kept: await keepPendingCards(deps), detachesTold: await confirmDetaches(deps), cardsUpdated: await applyCardUpdates(deps) };
  // After the attempts: a charge settled by this pass is its session's when its dispute is read.
  const disputesChanged = await applyDisputeChanges(deps);
  const expired = await expirePastDueSessions(deps);
  const lapsedHoldsReleased = await releaseLapsedHolds({ ...deps, longestRequestMs: deps.leaseMs });
  const personalDataErased = await erasePersonalData(deps);
  const endedRateLimitWindows = await purgeEndedWindows(deps.store, Date.now());
  const nextExpiry = await nextSessionExpiry(deps);
  const inFlightRemain = await anyAttemptInFlight(deps.store);
  if (expired > 0 || lapsedHoldsReleased > 0) deps.logger.info({ expired, lapsedHoldsReleased }, 'sessions expired and lapsed holds released');
  if (endedRateLimitWindows > 0) deps.logger.debug({ endedRateLimitWindows }, 'ended rate limit windows purged');
  return { examined, settled, stillPending: examined - settled, refunds, expired, lapsedHoldsReleased, personalDataErased, savedCards, disputesChanged, nextExpiry, inFlightRemain };
}

/** Whether a pass found anything to do, or left attempts in flight that may become its work (their instance killed). */
const foundWork = (report: ReconcileReport): boolean =>
  report.inFlightRemain ||
  report.examined +
    report.refunds.examined +
    report.expired +
    report.lapsedHoldsReleased +
    report.personalDataErased.sessions +
    report.personalDataErased.events +
    report.savedCards.kept +
    report.savedCards.detachesTold +
    report.savedCards.cardsUpdated +
    report.disputesChanged >
  0;

/** A session past due that the sweep could not move (an attempt in flight on it) must not make it run back to back. */
const SHORTEST_EXPIRY_WAIT_MS = 1_000;

export interface ReconcilerTiming {
  /** RECONCILE_INTERVAL_MS: between passes while they find work, and the longest a wake waits. */
  intervalMs: number;
  /**
   * RECONCILE_IDLE_INTERVAL_MS: between passes once none has found work for this long (new work wakes them
   * sooner, or its due time). Until then they keep intervalMs: what a pass could not finish (a card the
   * service would not keep yet) is tried again at that pace.
   */
  idleIntervalMs: number;
  inFlightGraceMs: number;
  /** After each pass of the sweeps' clock (the webhooks' look for leases lapsed with the instance that held them). */
  onClockPass?: () => void;
}

export interface Reconciler {
  /** One pass; concurrent calls share the pass under way. */
  run(inFlightBefore?: number): Promise<ReconcileReport>;
  /** An attempt was left pending: on the instance running the sweeps, the next pass within RECONCILE_INTERVAL_MS. */
  wake(): void;
  /**
   * Whether this instance runs the sweeps on a clock (it holds the sweep lock; a single SQLite instance
   * always does). Taking them on runs a pass at once: the catch-up of whatever was left meanwhile.
   */
  lead(leading: boolean): void;
  stop(): Promise<void>;
}

/**
 * Runs a pass at start (settling what a crashed predecessor left, while the
 * live instances' requests keep theirs); then, on the instance that leads,
 * passes on a clock: every `intervalMs` while they find work and for
 * `idleIntervalMs` after the last that did, then every `idleIntervalMs`, and
 * never past the next session's expiry. Another instance runs a pass only for
 * the attempts its own requests gave up on (deps.abandoned): idle, it makes no
 * query.
 */
export function startReconciler(deps: ReconcileDependencies, options: ReconcilerTiming): Reconciler {
  let current: Promise<ReconcileReport> | undefined;
  const run = (inFlightBefore = Date.now() - options.inFlightGraceMs) => {
    current ??= reconcile(deps, inFlightBefore).finally(() => {
      current = undefined;
    });
    return current;
  };
  // A store that is down fails every pass: the same error once per interval, with a count (logging/repeats.ts).
  const repeats = repeatLimiter(deps.logger);
  const onError = (error: unknown) => repeats.error({ err: error }, 'reconciliation failed');
  let leading = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let timerDue = Infinity;
  let lastWorkAt = -Infinity;

  /** The next clock pass in `delayMs`, unless one is due sooner. */
  function passIn(delayMs: number): void {
    const due = Date.now() + delayMs;
    if (stopped || (timer !== undefined && timerDue <= due)) return;
    clearTimeout(timer);
    timerDue = due;
    timer = setTimeout(() => void clockPass(false), delayMs);
    timer.unref();
  }

  async function clockPass(always: boolean): Promise<void> {
    timer = undefined;
    timerDue = Infinity;
    // Not leading and nothing of its own to settle: only a timer, no query.
    if (!always && !leading && deps.abandoned.size === 0) return passIn(options.idleIntervalMs);
    let report: ReconcileReport;
    try {
      report = await run();
    } catch (error) {
      onError(error);
      return passIn(options.intervalMs);
    }
    if (foundWork(report)) lastWorkAt = Date.now();
    const wait = Date.now() - lastWorkAt < options.idleIntervalMs ? options.intervalMs : options.idleIntervalMs;
    if (leading) options.onClockPass?.();
    const untilExpiry = report.nextExpiry === undefined ? Infinity : Math.max(report.nextExpiry - Date.now(), SHORTEST_EXPIRY_WAIT_MS);
    passIn(leading ? Math.min(wait, untilExpiry) : deps.abandoned.size > 0 ? options.intervalMs : options.idleIntervalMs);
  }

  void clockPass(true);
  return {
    run,
    wake() {
      if (leading) passIn(options.intervalMs);
    },
    lead(now) {
      if (now === leading) return;
      leading = now;
      if (!leading) return;
      clearTimeout(timer);
      timer = undefined;
      void clockPass(true);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current?.catch(() => undefined);
      repeats.flush();
    },
  };
}
