/**
 * The soak (crash recovery and store outages under load): concurrent shoppers pay against the real
 * server, run as its own process, while the sandbox service fails a stated
 * share of charge requests; optionally the process is killed (kill -9) and
 * restarted, and the PostgreSQL store is taken away (backends terminated, the
 * cluster stopped hard, started again a few seconds later). Then
 * reconciliation is given time to settle every payment and the service's
 * ledger is audited against the store. With `express`, every session is an
 * express checkout priced by the merchant's quote endpoint (soak-express.ts),
 * and every charge is held to its quote too. With `mit`, some shoppers keep
 * their card and the merchant's billing runs charge the kept cards without them
 * (soak-mit.ts), each charge held to one key, its card and its stored
 * credential. Run by `npm run soak`
 * (scripts/soak.ts) and, short, by the unit suite (store-outage.test.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventOnEntering } from '../server/checkout/states';
import type { CreatedSession, Event, PaymentMethod, Refund, Session } from '../contracts';
import { type Fleet, type ProxyCounts, countProxyRetries } from './fleet/fleet';
import { type FaultPlanInput, faultKinds, type LedgerEntry } from '../sandbox';
import { auditLedger, type ChildServer, type LedgerAudit, readKeptCards, readLedger, type ServiceKeptCards, settledSessions, type ShopClient, shopClient, ShopRequestError, startChildServer } from './child-server';
import { auditMerchantInitiated, billingJob, type MitAudit, type MitCounts, savingCheckout, sessionsOfKeys } from './soak-mit';
import { fetchLedger } from './sandbox';
import type { PostgresCluster } from './fleet/postgres-cluster';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver';
import { createMerchantApp } from './merchant-app';
import { auditQuotedCharges, type Checkout, type ExpressCounts, newExpressCounts, openExpressCheckout, type PayAnswer, type SheetPayment, type SoakQuoteEndpoint, startSoakQuoteEndpoint } from './soak-express';
import { zoneSessionBody } from './zone-quotes';

export interface SoakOptions {
  shoppers: number;
  seconds: number;
  /** Share (0..1) of charge requests the sandbox service faults. */
  faultRate: number;
  /** kill -9 and restart of the server, evenly spaced. */
  crashes: number;
  /** A fleet only: rolling restarts of every instance (Fleet.rollingRestart), evenly spaced. */
  rollingRestarts?: number;
  /** The server's store, to take away `outages` times (evenly spaced, after the crashes' moments). */
  database?: { cluster: PostgresCluster; url: string; outages: number; outageMs: number };
  /** Runs while the store is down, once per outage: what a test checks then. */
  duringOutage?: (server: ChildServer) => Promise<void>;
  /** Time reconciliation is given, after the shoppers stop, to settle every payment (with faults still on). */
  drainTimeoutMs: number;
  /** Added to the server's environment. */
  env?: Record<string, string>;
  /** Every session an express checkout priced by the merchant's quote endpoint (soak-express.ts), for a merchant of the soak's own. */
  express?: boolean;
  /** Some shoppers keep their card, and the merchant's billing job charges the kept cards without them (soak-mit.ts). */
  mit?: boolean;
}

export interface SoakReport extends SoakOutcome {
  server: ChildServer;
}

/** What a soak found, against one server or a fleet. */
export interface SoakOutcome {
  audit: LedgerAudit;
  /** Requests the shoppers and the merchant sent that got no HTTP answer (refused, reset, cut), by what fetch said. */
  unanswered: Record<string, number>;
  /** Sessions the shoppers never paid (the store or the server was down when they tried). */
  open: number;
  replies: Record<ReplyKind, number>;
  /** The shoppers' requests before /pay (a new session, its view) answered with an error, by code: where an outage meets most of them. */
  refusedBeforePay: Record<string, number>;
  /** The codes (or HTTP statuses) behind `replies.other_error`. */
  otherErrors: Record<string, number>;
  payLatenciesMs: number[];
  drainedMs: number;
  /** Backends terminated, over all outages. */
  backendsTerminated: number;
  /** The merchant's refund requests that were answered 201, by the refund's status then. */
  refundReplies: Record<Refund['status'], number>;
  /** Refund requests answered otherwise (sent again under the same key when that can help), by code. */
  refundErrors: Record<string, number>;
  /** Sessions with more refunds than the merchant asked for under distinct keys: a retry made a second refund (must be none). */
  refundsMadeTwice: string[];
  webhooks: WebhookAudit;
  /** With `express`: the sheets, the quote endpoint, and every charge held to its quote. */
  express?: ExpressReport;
  /** With `mit`: the billing job's runs and answers, and its keys held to the sessions and the service's charges. */
  mit?: MitReport;
}

export interface MitReport extends MitCounts {
  audit: MitAudit;
}

export interface ExpressReport extends ExpressCounts {
  endpoint: SoakQuoteEndpoint['requests'];
  /** Charges of the soak's sessions audited against their quotes, and those off their quote (must be none). */
  quoteAudit: { charges: number; offQuote: string[] };
}

export interface WebhookAudit {
  /** Events the store recorded for the merchant. */
  recorded: number;
  /** Distinct events the merchant's receiver got, verified. */
  received: number;
  /** Deliveries beyond the first of an event (at least once: receivers dedupe on event.id). */
  redelivered: number;
  /** An outcome without its event, or an event recorded and never received (must be none). */
  missing: string[];
  /** Events the receiver got that the store does not hold (must be none): each as `id (type of object)`. */
  unrecorded: string[];
  /** Deliveries whose signature did not verify (must be none). */
  forged: number;
}

type ReplyKind =
  | 'succeeded'
  | 'authorized'
  | 'requires_authentication'
  | 'declined'
  | 'failed'
  | 'pending'
  | 'in_progress_or_paid_409'
  | 'quote_mismatch_409'
  | 'store_unavailable_503'
  | 'other_error'
  | 'cut_by_crash';

/** Every kind, with delays scaled to the 1 s service timeout below: a `timeout` outlasts it, a `latency` does not. */
const faultsAt = (rate: number): FaultPlanInput => ({ rate, kinds: [...faultKinds], latencyMs: 200, timeoutMs: 1500 });
/** Webhook retries within seconds, so a delivery cut by a crash arrives within the drain. */
const SERVER_ENV = { SERVICE_TIMEOUT_MS: '1000', RECONCILE_INTERVAL_MS: '1000', WEBHOOK_RETRY_BASE_MS: '200', WEBHOOK_RETRY_MAX_MS: '2000' };
/** Shares of shoppers' behaviour: a card that declines (then one retry with a good card), and a double click on pay. */
const DECLINE_SHARE = 0.15;
const DOUBLE_CLICK_SHARE = 0.1;
/** Of the sessions paid, the share the merchant refunds: half, then (for half of those) the rest. */
const REFUND_SHARE = 0.3;
/** A refund request without an answer (a crash, a 5xx) is sent again under its key after this, for as long as the drain allows. */
const REFUND_RETRY_MS = 500;
/** A shopper told "the store is unavailable, try again shortly" tries again after this, as often as it takes within the run. */
const STORE_RETRY_MS = 500;
/** Between terminating the backends and stopping the cluster: the server reconnects and is mid-work again when it stops. */
const BACKENDS_TO_CRASH_MS = 300;

/** What the shoppers drive: one server, or nginx in front of a fleet. */
interface SoakTarget {
  shop: ShopClient;
  /** kill -9 of a server process (in a fleet, one instance at random) and its restart. */
  crash(): Promise<void>;
  /** Every instance restarted gracefully, one at a time. */
  rollingRestart?(): Promise<void>;
  /** Every operation on money at the service. */
  ledger(): Promise<LedgerEntry[]>;
  /** The service's merchant-initiated charges and kept payment methods, from its own database (one server only). */
  keptCards?(): Promise<ServiceKeptCards>;
  duringOutage?: () => Promise<void>;
}

/** The merchant an express soak sells as: an application of its own, since the demo store sets the demo's quote endpoint at every start. */
const expressMerchant = (where: { dataDir: string; databaseUrl?: string }) => createMerchantApp(where, { name: 'Soak shop', merchant_id: 'soak', allowed_origins: ['https://shop.example'] });

/** Runs the soak against one server process; the caller stops the server (report.server) and removes its data. */
export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const faults = faultsAt(options.faultRate);
  const dataDir = mkdtempSync(join(tmpdir(), 'wallet-checkout-soak-'));
  // Created before the server opens the store: one writer at a time.
  const merchantSecretKey = options.express ? await expressMerchant({ dataDir, ...(options.database && { databaseUrl: options.database.url }) }) : undefined;
  const server = await startChildServer({ dataDir, env: { ...SERVER_ENV, ...(options.database && { DATABASE_URL: options.database.url }), ...options.env } });
  const shop = shopClient({ ...server, ...(merchantSecretKey && { merchantSecretKey }) });
  await shop.setFaults(faults);
  const outcome = await soakAgainst(options, {
    shop,
    async crash() {
      await server.kill();
      await server.restart();
      // The fault plan is the embedded sandbox's memory: it starts again without one.
      await shop.setFaults(faults);
    },
    ledger: () => readLedger(server.dataDir),
    keptCards: () => readKeptCards(server.dataDir),
    ...(options.duringOutage && { duringOutage: () => options.duringOutage!(server) }),
  });
  return { server, ...outcome };
}

/** What the fleet's instances run with for a soak: short timeouts, and no rate limit (every shopper is one address). */
export const SOAK_INSTANCE_ENV: Readonly<Record<string, string>> = {
  ...SERVER_ENV,
  RATE_LIMIT_PAY_PER_MINUTE: '1000000',
  RATE_LIMIT_READS_PER_MINUTE: '1000000',
  RATE_LIMIT_MERCHANT_PER_MINUTE: '1000000',
};

export interface FleetSoakReport extends SoakOutcome {
  /** The instances killed, in order, by their addresses. */
  killed: string[];
  /** What each rolling restart did, step by step, with the time from the soak's start. */
  rollingSteps: string[];
  /** Requests whose kept-alive connection to nginx closed under them, sent once more (resendingLikeABrowser), by cause. */
  resent: Record<string, number>;
  proxy: ProxyCounts;
}

/**
 * Runs the soak through nginx against a fleet started with SOAK_INSTANCE_ENV:
 * the crashes kill -9 a random instance (never the sandbox or the database)
 * and restart it. The caller stops the fleet.
 */
export async function runFleetSoak(fleet: Fleet, options: Omit<SoakOptions, 'env' | 'duringOutage'>): Promise<FleetSoakReport> {
  const resent: Record<string, number> = {};
  const merchantSecretKey = options.express ? await expressMerchant({ dataDir: fleet.dir, databaseUrl: fleet.database.url }) : undefined;
  const shop = shopClient({
    url: fleet.url,
    demoSecretKey: fleet.demoSecretKey,
    ...(merchantSecretKey && { merchantSecretKey }),
    serviceKey: fleet.sandbox.serviceKey,
    sandboxUrl: fleet.sandbox.url,
    fetch: resendingLikeABrowser(resent),
  });
  await shop.setFaults(faultsAt(options.faultRate));
  const killed: string[] = [];
  const rollingSteps: string[] = [];
  const started = Date.now();
  const outcome = await soakAgainst(options, {
    shop,
    async crash() {
      const instance = fleet.instances[Math.floor(Math.random() * fleet.instances.length)]!;
      killed.push(instance.address);
      await instance.kill();
      await instance.restart();
    },
    rollingRestart: () =>
      fleet.rollingRestart((step) => {
        const exit = step.step === 'stopped' ? ` (exit ${step.exitCode})` : '';
        rollingSteps.push(`${((Date.now() - started) / 1000).toFixed(1)} s  ${step.address} ${step.step}${exit}`);
      }),
    ledger: () => fetchLedger(fleet.sandbox.url, fleet.sandbox.serviceKey),
  });
  return { ...outcome, killed, rollingSteps, resent, proxy: countProxyRetries(fleet.accessLog) };
}

/** The cause fetch gives for a request that got no HTTP answer: ECONNRESET, ECONNREFUSED, UND_ERR_SOCKET (the other side closed)... */
const causeOf = (error: unknown): string => {
  const cause = error instanceof Error ? error.cause : undefined;
  return cause instanceof Error ? ((cause as NodeJS.ErrnoException).code ?? cause.message) : String(error);
};

/** A reload closes every idle connection of the retired worker: the pool's next one may be closing too (Chromium also resends more than once). */
const MAX_RESENDS = 3;

/**
 * fetch as a browser sends through a proxy that stays up: a request whose
 * kept-alive connection was closed under it, with no answer, is sent once
 * more (RFC 9112 9.3.1; Chromium and Firefox do it for every method, on a
 * reused connection that closed before any byte of an answer). nginx closes its idle client connections when a reload
 * retires a worker, and a request racing that close was never read by nginx,
 * so never reached an instance: resending it is safe, even a POST. Behind
 * nginx a request cut at an instance is answered 502, never reset; so this
 * is for a fleet only, not for a lone server whose crash resets requests it
 * may have taken. Each resend is counted in `resent`, by cause.
 */
function resendingLikeABrowser(resent: Record<string, number>): typeof fetch {
  return async (input, init) => {
    for (let resends = 0; ; resends++) {
      try {
        return await fetch(input, init);
      } catch (error) {
        if (!(error instanceof TypeError) || resends === MAX_RESENDS) throw error;
        const why = causeOf(error);
        resent[why] = (resent[why] ?? 0) + 1;
      }
    }
  };
}

async function soakAgainst(options: Omit<SoakOptions, 'env' | 'duringOutage'>, target: SoakTarget): Promise<SoakOutcome> {
  const { shop } = target;
  if (options.mit && !target.keptCards) throw new Error("merchant-initiated charges are audited from the service's own database: one server only");
  const billing = options.mit ? billingJob(shop) : undefined;
  // The merchant's server listening for webhooks, as docs/webhooks.md shows it: it must get every event.
  const receiver = await startWebhookReceiver();
  receiver.secrets = [(await shop.createWebhookEndpoint(receiver.url)).secret];
  // The merchant's quote endpoint, for an express soak.
  const quoteEndpoint = options.express ? await startSoakQuoteEndpoint() : undefined;
  await quoteEndpoint?.register(shop);
  const expressCounts = newExpressCounts();
  /** Per session, every quote a payment named as the latest. */
  const paidWith = new Map<string, Set<string>>();

  const sessionIds: string[] = [];
  const payLatenciesMs: number[] = [];
  const replies: Record<ReplyKind, number> = {
    succeeded: 0,
    authorized: 0,
    requires_authentication: 0,
    declined: 0,
    failed: 0,
    pending: 0,
    in_progress_or_paid_409: 0,
    quote_mismatch_409: 0,
    store_unavailable_503: 0,
    other_error: 0,
    cut_by_crash: 0,
  };
  const otherErrors: Record<string, number> = {};
  const unanswered: Record<string, number> = {};
  /** fetch rejected: no HTTP answer at all. Counted by its cause (ECONNRESET, ECONNREFUSED, other side closed...). */
  const refusedBeforePay: Record<string, number> = {};
  const noAnswer = (error: unknown): undefined => {
    const why = causeOf(error);
    unanswered[why] = (unanswered[why] ?? 0) + 1;
    return undefined;
  };
  const refundReplies: Record<Refund['status'], number> = { pending: 0, succeeded: 0, failed: 0 };
  const refundErrors: Record<string, number> = {};
  /** Per session, the distinct Idempotency-Keys the merchant refunded under. */
  const refundKeys = new Map<string, number>();
  const started = Date.now();
  const until = started + options.seconds * 1000;

  /**
   * POST /pay, timed, as the widget's "Try again" after a 503; a request a crash cut counts as such and answers
   * undefined. With `sheet`, the wallet returns the sheet's choices and the payment names its quote; with `agreement`, the
   * payment carries the shopper's agreement to keep the card, as the widget sends it.
   */
  async function timedPay(session: CreatedSession, cardId: string, raced = false, sheet?: SheetPayment, agreement?: string): Promise<PayAnswer> {
    const paymentData = await shop.walletPaymentData(session, cardId, sheet?.choices);
    for (;;) {
      const requested = performance.now();
      const reply = await shop.pay(session, paymentData, { ...(sheet && { quoteId: sheet.quoteId }), ...(agreement && { agreement }) }).catch(noAnswer);
      if (!reply) {
        replies.cut_by_crash++;
        return undefined;
      }
      payLatenciesMs.push(performance.now() - requested);
      const status = reply.body.outcome?.status;
      if (status) replies[status]++;
      // In progress, or already paid (a retry after a 503 whose charge went through): the widget confirms either way.
      else if (reply.body.error?.code === 'payment_in_progress' || reply.body.error?.code === 'session_completed') replies.in_progress_or_paid_409++;
      // A double click's other request may have ended declined between this one's read and its claim: the session moved, nothing was charged twice.
      else if (raced && reply.body.error?.code === 'invalid_state') replies.in_progress_or_paid_409++;
      // Not the session's latest quote (stale on purpose, or an earlier change stored after the newest): nothing charged.
      else if (reply.body.error?.code === 'quote_mismatch') replies.quote_mismatch_409++;
      else if (reply.body.error?.code === 'store_unavailable') replies.store_unavailable_503++;
      else {
        replies.other_error++;
        const code = reply.body.error?.code ?? `http_${reply.status}`;
        otherErrors[code] = (otherErrors[code] ?? 0) + 1;
      }
      if (reply.body.error?.code !== 'store_unavailable' || Date.now() >= until) return { ...(status && { status }), ...(reply.body.error && { code: reply.body.error.code }) };
      await sleep(STORE_RETRY_MS);
    }
  }

  /** The merchant's server refunding, as a careful one would: an answer it cannot read is asked again under the same Idempotency-Key. */
  async function merchantRefund(session: CreatedSession, body: { amount?: number }, which: string): Promise<void> {
    const key = `soak:${session.id}:${which}`;
    refundKeys.set(session.id, (refundKeys.get(session.id) ?? 0) + 1);
    const giveUpAt = until + options.drainTimeoutMs / 2;
    for (;;) {
      const reply = await shop.refund(session.id, body, key).catch(noAnswer);
      if (reply?.status === 201 && reply.body.status) {
        refundReplies[reply.body.status]++;
        return;
      }
      const code = reply ? (reply.body.error?.code ?? `http_${reply.status}`) : 'cut_by_crash';
      refundErrors[code] = (refundErrors[code] ?? 0) + 1;
      const answered = reply !== undefined && reply.status < 500 && code !== 'idempotency_key_in_use';
      if (answered || Date.now() >= giveUpAt) return;
      await sleep(REFUND_RETRY_MS);
    }
  }

  async function refundSome(session: CreatedSession): Promise<void> {
    if (Math.random() >= REFUND_SHARE) return;
    await merchantRefund(session, { amount: Math.floor(session.amount / 2) }, 'part');
    if (Math.random() < 0.5) await merchantRefund(session, {}, 'rest');
  }

  /** The session's checkout: its price alone, or (express) a sheet whose quote the payment names. Undefined when the shopper left before paying. */
  async function checkoutOf(session: CreatedSession, saving: boolean): Promise<Checkout | undefined> {
    // The widget shows the session's agreement, and the payment names the text it showed.
    const agreement = saving ? await shop.shownAgreement(session) : undefined;
    if (!options.express || saving) return { pay: (card, raced) => timedPay(session, card, raced, undefined, agreement), reopen: async () => true };
    const named = (quoteId: string) => paidWith.set(session.id, (paidWith.get(session.id) ?? new Set<string>()).add(quoteId));
    return openExpressCheckout(shop, session, timedPay, expressCounts, named);
  }

  /** Shoppers go on past the run's end until the last rolling restart is over: every restart happens under load. */
  let rollingUnderWay = (options.rollingRestarts ?? 0) > 0;
  async function shopperLoop(): Promise<void> {
    while (Date.now() < until || rollingUnderWay) {
      try {
        const amount = 100 + Math.floor(Math.random() * 9900);
        // A card kept for a subscription is asked for with Google's recurring request: no quote endpoint, no delivery.
        const saving = options.mit ? savingCheckout(amount) : undefined;
        const session = await shop.createSession(saving?.body ?? (options.express ? zoneSessionBody(amount) : { amount }));
        sessionIds.push(session.id);
        const checkout = await checkoutOf(session, saving !== undefined);
        if (!checkout) continue;
        const card = Math.random() < DECLINE_SHARE ? 'visa-decline-3ds' : (saving?.card ?? 'visa-success-3ds');
        const clicks = Math.random() < DOUBLE_CLICK_SHARE ? 2 : 1;
        const outcomes = (await Promise.all(Array.from({ length: clicks }, () => checkout.pay(card, clicks > 1)))).map((answer) => answer?.status);
        // A shopper told "declined" tries once more, with another card: a new attempt, a new key.
        const tryAgain = (outcomes.includes('declined') || outcomes.includes('failed')) && (await checkout.reopen());
        const retried = tryAgain ? (await checkout.pay('mastercard-success-3ds', false))?.status : undefined;
        if (outcomes.includes('succeeded') || retried === 'succeeded') await refundSome(session);
      } catch (error) {
        // The server or its store is down, and answered an error outside /pay: wait and go on with a new session.
        if (error instanceof TypeError) noAnswer(error);
        if (error instanceof ShopRequestError) refusedBeforePay[error.code] = (refusedBeforePay[error.code] ?? 0) + 1;
        await sleep(200);
      }
    }
  }

  /** The moment of the i-th of n events spread evenly over the run. */
  const momentOf = (i: number, n: number) => sleep(Math.max(0, started + (options.seconds * 1000 * i) / (n + 1) - Date.now()));

  // A crash and an outage never overlap, so that each is measured on its own: the later waits for the earlier.
  let disruption = Promise.resolve();
  const oneAtATime = (work: () => Promise<void>) => (disruption = disruption.then(work));

  async function crashLoop(): Promise<void> {
    for (let crash = 1; crash <= options.crashes; crash++) {
      await momentOf(crash, options.crashes);
      await oneAtATime(target.crash);
    }
  }

  async function rollingRestartLoop(): Promise<void> {
    const restarts = options.rollingRestarts ?? 0;
    if (restarts > 0 && !target.rollingRestart) throw new Error('rolling restarts need a fleet');
    try {
      for (let restart = 1; restart <= restarts; restart++) {
        await momentOf(restart, restarts);
        await oneAtATime(target.rollingRestart!);
      }
    } finally {
      rollingUnderWay = false;
    }
  }

  let backendsTerminated = 0;
  /** Connections cut mid-work first (the server stays up), then the whole cluster down, as in a crash or a failover. */
  async function outageLoop(): Promise<void> {
    const database = options.database;
    if (!database) return;
    for (let outage = 1; outage <= database.outages; outage++) {
      await momentOf(outage, database.outages);
      await oneAtATime(async () => {
        backendsTerminated += await database.cluster.terminateBackends();
        await sleep(BACKENDS_TO_CRASH_MS);
        await database.cluster.crash();
        const back = sleep(database.outageMs);
        await target.duringOutage?.();
        await back;
        await database.cluster.start();
      });
    }
  }

  await Promise.all([
    ...Array.from({ length: options.shoppers }, shopperLoop),
    crashLoop(),
    rollingRestartLoop(),
    outageLoop(),
    billing?.run(until, until + options.drainTimeoutMs / 2),
  ]);

  const drainStarted = Date.now();
  // Every session a key of the billing job made, found as the merchant finds a charge whose answer it never got.
  const sessionsOfKey = billing ? await sessionsOfKeys(shop, billing.keys.keys()) : new Map<string, string[]>();
  sessionIds.push(...new Set([...sessionsOfKey.values()].flat()));
  const sessions = await settledSessions(shop, sessionIds, options.drainTimeoutMs, 500);
  const drainedMs = Date.now() - drainStarted;
  // The service's keys start with the session's id: a fleet soaked twice also holds the first soak's operations.
  const mine = new Set(sessionIds);
  const ledger = (await target.ledger()).filter((entry) => entry.idempotency_key === null || mine.has(entry.idempotency_key.split(':')[0]!));
  const audit = auditLedger(sessions, ledger);
  // This soak's own: a fleet soaked twice also holds the events of the first, sent to that soak's receiver.
  const methods = billing ? new Map((await shop.paymentMethods()).map((method) => [method.id, method])) : new Map<string, PaymentMethod>();
  const ours = new Set(sessions.flatMap((session) => [session.id, ...session.refunds.map((refund) => refund.id), ...(session.payment_method ? [session.payment_method] : [])]));
  const recorded = (await shop.events()).filter((event) => ours.has(event.data.object.id));
  const webhooks = await auditWebhooks(sessions, recorded, receiver, options.drainTimeoutMs, () => shop.events());
  await receiver.close();
  await quoteEndpoint?.close();
  const refundsMadeTwice = sessions.filter((session) => session.refunds.length > (refundKeys.get(session.id) ?? 0)).map((session) => session.id);
  const express: ExpressReport | undefined = quoteEndpoint && {
    ...expressCounts,
    endpoint: quoteEndpoint.requests,
    quoteAudit: auditQuotedCharges(sessions, ledger, { totals: quoteEndpoint.totals, paidWith }),
  };
  const mit: MitReport | undefined = billing && {
    ...billing.counts,
    audit: auditMerchantInitiated({ billed: billing.keys, sessionsOfKey, sessions: new Map(sessions.map((session) => [session.id, session])), methods, ledger, service: await target.keptCards!() }),
  };
  return {
    audit,
    unanswered,
    open: sessions.filter((s) => s.status === 'open').length,
    replies,
    refusedBeforePay,
    otherErrors,
    payLatenciesMs,
    drainedMs,
    backendsTerminated,
    refundReplies,
    refundErrors,
    refundsMadeTwice,
    webhooks,
    ...(express && { express }),
    ...(mit && { mit }),
  };
}

/**
 * Every outcome has its event in the store (a succeeded session its
 * session.succeeded, a settled refund its refund.*), the receiver gets
 * every event the store recorded, given `timeoutMs` for retries, and gets
 * no event the store does not hold. The store is read again for that last
 * check after the receiver's events are taken: the reconciler goes on
 * recording after `recorded` was read (a card kept late, a network's card
 * update), and those events reach the receiver too.
 */
export async function auditWebhooks(
  sessions: readonly Session[],
  recorded: readonly Event[],
  receiver: Pick<WebhookReceiver, 'events' | 'waitFor' | 'deliveries' | 'forged'>,
  timeoutMs: number,
  storedEvents: () => Promise<Event[]>,
): Promise<WebhookAudit> {
  const missing: string[] = [];
  const has = new Set(recorded.map((event) => `${event.type} ${event.data.object.id}`));
  for (const session of sessions) {
    const type = eventOnEntering[session.status];
    if (type && !has.has(`${type} ${session.id}`)) missing.push(`${session.id} is ${session.status}, and no ${type} event was recorded`);
    for (const refund of session.refunds) {
      if (refund.status !== 'pending' && !has.has(`refund.${refund.status} ${refund.id}`)) missing.push(`${refund.id} is ${refund.status}, and no event was recorded`);
    }
  }
  const all = (events: Event[]) => recorded.every((event) => events.some((got) => got.id === event.id));
  await receiver.waitFor(all, timeoutMs).catch(() => undefined);
  const got = receiver.events();
  const received = new Set(got.map((event) => event.id));
  for (const event of recorded) if (!received.has(event.id)) missing.push(`${event.id} (${event.type}) was recorded and never received`);
  const stored = new Set((await storedEvents()).map((event) => event.id));
  const unrecorded = got.filter((event) => !stored.has(event.id)).map((event) => `${event.id} (${event.type} of ${event.data.object.id})`);
  return { recorded: recorded.length, received: received.size, redelivered: receiver.deliveries.length - received.size, missing, unrecorded, forged: receiver.forged };
}

/** What must be zero, as lines to print: empty when the money is exact and every event arrived. */
export const soakProblems = ({ audit, refundsMadeTwice, webhooks, express, mit }: Pick<SoakOutcome, 'audit' | 'refundsMadeTwice' | 'webhooks' | 'express' | 'mit'>): string[] => [
  ...(mit?.audit.duplicates.map((line) => `merchant-initiated duplicate: ${line}`) ?? []),
  ...(mit?.audit.lost.map((line) => `merchant-initiated lost: ${line}`) ?? []),
  ...(mit?.audit.mismatched.map((line) => `merchant-initiated mismatched: ${line}`) ?? []),
  ...(mit?.audit.credentials.map((line) => `stored credential: ${line}`) ?? []),
  ...(mit?.audit.pending.map((line) => `merchant-initiated pending: ${line}`) ?? []),
  ...(express?.quoteAudit.offQuote.map((line) => `charged off its quote: ${line}`) ?? []),
  ...(express?.stale.charged.map((line) => `a stale quote took a payment: ${line}`) ?? []),
  ...(express && express.endpoint.unsigned > 0 ? [`${express.endpoint.unsigned} quote requests did not verify`] : []),
  ...webhooks.missing.map((line) => `event missing: ${line}`),
  ...webhooks.unrecorded.map((line) => `event received that the store does not hold: ${line}`),
  ...(webhooks.forged > 0 ? [`${webhooks.forged} webhook deliveries did not verify`] : []),
  ...refundsMadeTwice.map((id) => `refunded more times than asked: ${id}`),
  ...audit.duplicates.map((id) => `duplicate: ${id}`),
  ...audit.lost,
  ...audit.mismatched,
  ...audit.pending.map((id) => `pending: ${id}`),
  ...audit.refunds.duplicates.map((line) => `duplicate refund: ${line}`),
  ...audit.refunds.lost.map((line) => `lost refund: ${line}`),
  ...audit.refunds.overRefunded.map((line) => `over-refunded: ${line}`),
];
