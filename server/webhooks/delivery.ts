/**
 * The delivery worker: sends each pending delivery of the outbox, on every
 * instance. A delivery is leased first (a compare-and-set on lease_until,
 * store/webhooks.ts), so with several instances on one database one sends it
 * at a time; a lease that lapses (the instance was killed mid-send) makes it
 * due again. Delivery is therefore at least once: receivers dedupe on event.id.
 */
import type { DataCipher } from '../lib/data-cipher';
import { openEventBody } from '../store/events';
import type { Logger } from '../../common/logging';
import { repeatLimiter } from '../../common/logging/repeats';
import type { Store } from '../store';
import { type DeliveryOutcome, type DueDelivery, dueDeliveries, leaseDelivery, recordAttempt } from '../store/webhooks';
import type { RetrySchedule, WebhookAddressPolicy } from '../config';
import { checkEndpointUrl, type Resolve, systemResolve } from './address-policy';
import { type OutboundOptions, requestOutbound } from './outbound';
import { SIGNATURE_HEADER, signatureHeader } from './signature';

export interface DeliveryWorkerOptions {
  /** How often due deliveries are looked for: the latency of a delivery that does not wait for a retry. */
  pollIntervalMs: number;
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
  /** Stops looking for deliveries and waits for the ones in flight. */
  stop(): Promise<void>;
}

const USER_AGENT = 'WalletCheckout-Webhooks/1.0';
const DEFAULT_CONCURRENCY = 8;

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
   * more may be waiting, so a freed slot starts the next pass at once instead
   * of at the next poll (a burst of events is sent at the receivers' pace, not
   * `concurrency` per poll interval).
   */
  let backlog = false;
  // A store that is down fails every poll (every 250 ms by default): the same error once per interval, with a count.
  const repeats = repeatLimiter(deps.logger);
  const onError = (error: unknown) => repeats.error({ err: error }, 'looking for due webhook deliveries failed');
  const keepUp = () => {
    if (backlog && !stopped && inFlight.size < concurrency) startDue().catch(onError);
  };

  /** Leases what is due, up to the free slots, and starts sending each; resolves with the sends started. */
  function startDue(): Promise<Promise<void>[]> {
    looking ??= leaseAndSend().finally(() => {
      looking = undefined;
      keepUp();
    });
    return looking;
  }

  async function leaseAndSend(): Promise<Promise<void>[]> {
    const free = concurrency - inFlight.size;
    if (free <= 0) return [];
    const now = Date.now();
    const started: Promise<void>[] = [];
    const due = await dueDeliveries(deps.store, now, free);
    backlog = due.length === free;
    for (const delivery of due) {
      const leaseUntil = Date.now() + leaseMs;
      if (stopped || !(await leaseDelivery(deps.store, delivery, leaseUntil, now))) continue;
      const sending = deliver(delivery, leaseUntil)
        .catch((error: unknown) => repeats.error({ err: error, delivery: delivery.id }, 'webhook delivery could not be recorded; it is sent again once its lease lapses'))
        .finally(() => {
          inFlight.delete(sending);
          keepUp();
        });
      inFlight.add(sending);
      started.push(sending);
    }
    return started;
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      startDue()
        .catch(onError)
        .finally(schedule);
    }, options.pollIntervalMs);
    timer.unref();
  }
  schedule();

  return {
    async run() {
      // And the sends an earlier pass started: once it resolves, every delivery this instance was sending is recorded.
      const underWay = [...inFlight];
      await Promise.all([...underWay, ...(await startDue())]);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await looking?.catch(() => undefined);
      await Promise.all([...inFlight]);
      repeats.flush();
    },
  };
}
