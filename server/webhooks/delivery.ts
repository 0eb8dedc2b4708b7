/**
 * The delivery worker: sends each pending delivery of the outbox, on every
 * instance. It does not poll: it looks for due deliveries when woken (a
 * delivery made due: PostgreSQL's NOTIFY or SQLite's in-memory signal, see
 * server/lifecycle/work-wakes.ts), and otherwise sleeps until the next one
 * the store knows of falls due (a retry scheduled at T wakes it at T). A
 * delivery is leased first (store/webhooks.ts), so with several instances on
 * one database one sends it at a time; a lease that lapses (the instance was
 * killed mid-send) makes it due again. Delivery is therefore at least once:
 * receivers dedupe on event.id.
 */
import type { DataCipher } from '../lib/data-cipher';
import { openEventBody } from '../store/events';
import type { Logger } from '../../common/logging';
import { repeatLimiter } from '../../common/logging/repeats';
import type { Store } from '../store';
import { type DeliveryOutcome, type DueDelivery, leaseDueDeliveries, nextDeliveryDue, recordAttempt } from '../store/webhooks';
import type { RetrySchedule, WebhookAddressPolicy } from '../config';
import { checkEndpointUrl, type Resolve, systemResolve } from './address-policy';
import { type OutboundOptions, requestOutbound } from './outbound';
import { SIGNATURE_HEADER, signatureHeader } from './signature';

export interface DeliveryWorkerOptions {
  /** `on-demand`: only run() sends (tests, the contract fuzz); `automatic`: wakes and due times do too. */
  delivery: 'automatic' | 'on-demand';
  /** A 2xx within this is delivered; anything later is an attempt failed. */
  timeoutMs: number;
  retry: RetrySchedule;
  addressPolicy: WebhookAddressPolicy;
  /** Deliveries sent at once by this instance: a slow receiver holds one slot, not the queue. */
  concurrency?: number;
}

export interface DeliveryDependencies {
  store: Store;
  cipher: DataCipher;
  logger: Logger;
  /** DNS, replaceable in tests (the SSRF checks resolve through it). */
  resolve?: Resolve;
}

export interface DeliveryWorker {
  /** One pass now: sends what is due (up to the concurrency) and waits for those sends. */
  run(): Promise<void>;
  /** Deliveries may be due (a notification, a catch-up after a lost connection): a pass soon, without waiting for it. */
  wake(): void;
  /** Stops looking for deliveries and waits for the ones in flight. */
  stop(): Promise<void>;
}

const USER_AGENT = 'WalletCheckout-Webhooks/1.0';
const DEFAULT_CONCURRENCY = 8;
/** While the store fails: how soon a failed pass is tried again (work may be waiting that no wake will announce). */
const FAILED_PASS_RETRY_MS = 1_000;
/** setTimeout's longest wait (about 24.8 days): a due time further off is waited for in steps. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** Exponential backoff with full jitter: anywhere in [0, min(max, base * 2^(attempt-1))), so retries of many deliveries spread out. */
export function retryDelay(schedule: RetrySchedule, attempt: number, random = Math.random): number {
  return Math.floor(random() * Math.min(schedule.maxMs, schedule.baseMs * 2 ** Math.max(0, attempt - 1)));
}

/** POSTs `body` as it is; settles on the reply's status line, never reading its body. */
const post = (url: string, body: string, headers: Record<string, string>, options: OutboundOptions) =>
  requestOutbound<{ statusCode: number }>(
    new URL(url),
    {
      method: 'POST',
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      body,
      timeoutError: `no reply within ${options.timeoutMs} ms`,
      onResponse(response, settle) {
        response.resume();
        settle({ statusCode: response.statusCode ?? 0 });
      },
    },
    options,
  );

export function startDeliveryWorker(deps: DeliveryDependencies, options: DeliveryWorkerOptions): DeliveryWorker {
  const resolve = deps.resolve ?? systemResolve;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  // Longer than a send can take (its timeout) with room to record it: a lease held past this is an instance that died.
  const leaseMs = options.timeoutMs * 2;
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  /** The pass looking for due deliveries, if one is under way: stop() waits for the leases it takes. */
  let looking: Promise<Promise<void>[]> | undefined;

  function secretsOf(delivery: DueDelivery, now: number): string[] | undefined {
    const sealed = [delivery.secret_sealed, ...(delivery.previous_secret_sealed && (delivery.previous_secret_expires ?? 0) > now ? [delivery.previous_secret_sealed] : [])];
    const opened = sealed.map((secret) => deps.cipher.open(secret));
    return opened.every((secret) => secret.ok) ? opened.map((secret) => (secret as { value: string }).value) : undefined;
  }

  /** The event as recorded, opened if sealed (a session's billing addresses); undefined if this server's key does not open it. */
  function bodyOf(delivery: DueDelivery): string | undefined {
    try {
      return openEventBody(deps.cipher, delivery.body);
    } catch {
      return undefined;
    }
  }

  async function attempt(delivery: DueDelivery, leaseUntil: number): Promise<DeliveryOutcome> {
    const now = Date.now();
    const attemptNumber = delivery.attempts + 1;
    // Retried after the backoff, or failed for good once that would fall after the retry window.
    const failedAttempt = (statusCode: number | null, error: string): DeliveryOutcome => {
      const nextAttempt = Date.now() + retryDelay(options.retry, attemptNumber);
      const deadline = delivery.retry_until ?? delivery.event_created + options.retry.windowMs;
      return nextAttempt > deadline ? { status: 'failed', statusCode, error } : { status: 'pending', nextAttempt, statusCode, error };
    };
    const allowed = await checkEndpointUrl(delivery.url, options.addressPolicy, resolve);
    if (!allowed.ok) return failedAttempt(null, `refused: ${allowed.error.message}`);
    const secrets = secretsOf(delivery, now);
    if (!secrets) return failedAttempt(null, 'the signing secret does not open with this server\'s DATA_ENCRYPTION_KEY');
    const body = bodyOf(delivery);
    if (body === undefined) return failedAttempt(null, 'the event does not open with this server\'s DATA_ENCRYPTION_KEY');
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': USER_AGENT,
      [SIGNATURE_HEADER]: signatureHeader(secrets, body, Math.floor(now / 1000)),
    };
    const sent = await post(delivery.url, body, headers, { timeoutMs: Math.min(options.timeoutMs, leaseUntil - now), addressPolicy: options.addressPolicy, resolve });
    if ('statusCode' in sent && sent.statusCode >= 200 && sent.statusCode < 300) return { status: 'delivered', statusCode: sent.statusCode };
    return 'statusCode' in sent ? failedAttempt(sent.statusCode, `the endpoint answered ${sent.statusCode}`) : failedAttempt(null, sent.error);
  }

  async function deliver(delivery: DueDelivery, leaseUntil: number): Promise<void> {
    const outcome = await attempt(delivery, leaseUntil);
    await recordAttempt(deps.store, delivery.id, leaseUntil, outcome, Date.now());
    if (outcome.status !== 'delivered') deps.logger.warn({ delivery: delivery.id, attempt: delivery.attempts + 1, status: outcome.status, status_code: outcome.statusCode, error: outcome.error }, 'webhook delivery failed');
  }

  /**
   * Whether the last pass found as many due deliveries as it had free slots:
   * more may be waiting, so a freed slot starts the next pass at once (a burst
   * of events is sent at the receivers' pace, not `concurrency` per wake).
   */
  let backlog = false;
  /** A wake came during a pass: what made it may have been written after that pass read. */
  let wokenDuringPass = false;
  const automatic = options.delivery === 'automatic';
  // A store that is down fails every pass, tried again each FAILED_PASS_RETRY_MS: the same error once per interval, with a count.
  const repeats = repeatLimiter(deps.logger);
  const onError = (error: unknown) => {
    repeats.error({ err: error }, 'looking for due webhook deliveries failed');
    if (stopped || !automatic) return;
    clearTimeout(timer);
    timer = setTimeout(() => startDue().catch(onError), FAILED_PASS_RETRY_MS);
    timer.unref();
  };

  /** After a pass, or a send done: another pass if more may be due now, else a timer for the next due time. */
  const keepUp = () => {
    if (stopped) return;
    if ((backlog || wokenDuringPass) && inFlight.size < concurrency) {
      wokenDuringPass = false;
      startDue().catch(onError);
    } else if (automatic && looking === undefined && inFlight.size === 0) sleepUntilDue().catch(onError);
  };

  /** Leases what is due, up to the free slots, and starts sending each; resolves with the sends started. */
  function startDue(): Promise<Promise<void>[]> {
    // A pass that failed is tried again by onError, not followed by the next.
    looking ??= leaseAndSend()
      .finally(() => {
        looking = undefined;
      })
      .then((started) => {
        keepUp();
        return started;
      });
    return looking;
  }

  async function leaseAndSend(): Promise<Promise<void>[]> {
    const free = concurrency - inFlight.size;
    if (free <= 0) return [];
    const leaseUntil = Date.now() + leaseMs;
    const due = await leaseDueDeliveries(deps.store, Date.now(), free, leaseUntil);
    backlog = due.length === free;
    return due.map((delivery) => {
      const sending = deliver(delivery, leaseUntil)
        .catch((error: unknown) => repeats.error({ err: error, delivery: delivery.id }, 'webhook delivery could not be recorded; it is sent again once its lease lapses'))
        .finally(() => {
          inFlight.delete(sending);
          keepUp();
        });
      inFlight.add(sending);
      return sending;
    });
  }

  /** Counts the due-time reads: of two under way at once, only the later one's answer sets the timer. */
  let dueReads = 0;
  async function sleepUntilDue(): Promise<void> {
    const read = ++dueReads;
    const due = await nextDeliveryDue(deps.store);
    if (read !== dueReads || stopped) return;
    clearTimeout(timer);
    if (due === undefined) return;
    timer = setTimeout(() => startDue().catch(onError), Math.min(Math.max(due - Date.now(), 0), LONGEST_TIMER_MS));
    timer.unref();
  }

  function wake(): void {
    if (stopped || !automatic) return;
    if (looking) wokenDuringPass = true;
    else startDue().catch(onError);
  }
  // At start: what a predecessor left due, and the timer for the rest.
  wake();

  return {
    async run() {
      // And the sends an earlier pass started: once it resolves, every delivery this instance was sending is recorded.
      const underWay = [...inFlight];
      await Promise.all([...underWay, ...(await startDue())]);
    },
    wake,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await looking?.catch(() => undefined);
      await Promise.all([...inFlight]);
      repeats.flush();
    },
  };
}
