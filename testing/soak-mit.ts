/**
 * The soak's merchant-initiated charges (`npm run soak -- --mit`, docs/reliability.md): some shoppers pay a
 * session that keeps their card for a monthly subscription (each its own customer, the agreement its widget
 * showed sent with the payment), and the merchant's billing job, run after run (one run a billing period),
 * charges a batch of the kept cards with POST /api/payment_methods/{id}/charges under one Idempotency-Key per
 * card and period. As a real job's retries do, some keys are sent twice (after the first answer, or both at
 * once), and a request answered with no outcome (cut by a crash, a 5xx, the key's first request still
 * running) is sent again under the same key until it is answered. The audit holds every merchant-initiated
 * charge at the payment service to one key, one session and the kept card's stored credential.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { PaymentMethod, Session } from '../contracts';
import type { LedgerEntry } from '../sandbox';
import { idempotencyKeyFor } from '../server/store/attempts';
import type { ServiceKeptCards, ShopClient } from './child-server';

/** What each later charge may take at most: the subscription's monthly amount. */
const MONTHLY_AMOUNT = 999;
/** Of the shoppers' sessions, the share that keeps the card; of those, the share kept with a card whose issuer declines every merchant-initiated charge. */
const SAVING_SHARE = 0.3;
const MIT_DECLINE_SHARE = 0.15;
/** A billing run (a new period) this often; each charges at most this many kept cards, picked at random. */
const BILLING_INTERVAL_MS = 1500;
const BATCH = 15;
/** Of the keys, the share sent twice at once (two workers of the job), and twice one after the other (a job that lost track). */
const CONCURRENT_SHARE = 0.1;
const REPEATED_SHARE = 0.15;
/** A request answered with no outcome is sent again under its key after this. */
const RETRY_MS = 300;
/** The soak's customers: the merchant's own ids, one per saving shopper. */
const CUSTOMER_PREFIX = 'soak-cus-';

let customers = 0;

/** Whether the next shopper's session keeps the card; if so, the body of that session and the card it is kept with. */
export function savingCheckout(amount: number): { body: Record<string, unknown>; card: string } | undefined {
  if (Math.random() >= SAVING_SHARE) return undefined;
  const customer = `${CUSTOMER_PREFIX}${process.pid}-${++customers}`;
  return {
    body: { amount, save_payment_method: { customer, usage: 'recurring', recurring: { interval: 'month', interval_count: 1, amount: MONTHLY_AMOUNT } } },
    card: Math.random() < MIT_DECLINE_SHARE ? 'visa-mit-insufficient-funds-3ds' : 'visa-success-3ds',
  };
}

/** One charge the billing job made: its key, the card and amount it was for, and what the merchant was answered. */
export interface BilledKey {
  key: string;
  paymentMethod: string;
  amount: number;
  /** The sessions named by its 201 answers (one, or a duplicate), and their statuses then. */
  sessions: Set<string>;
  statuses: string[];
  /** Requests answered with no outcome (no answer, a 5xx, 409 idempotency_key_in_use), and the other refusals by code. */
  unknown: number;
  refused: string[];
}

export interface MitCounts {
  /** Saving sessions paid whose card was kept, as the billing job found them. */
  kept: number;
  runs: number;
  keys: number;
  /** Keys sent twice at once, and twice one after the other. */
  concurrent: number;
  repeated: number;
  requests: number;
  /** Answers, by the session's status in a 201, else the error's code (or no_answer). */
  replies: Record<string, number>;
}

export interface Billing {
  readonly keys: ReadonlyMap<string, BilledKey>;
  readonly counts: MitCounts;
  /** Runs until `until`; requests without an outcome are retried until `giveUpAt`. */
  run(until: number, giveUpAt: number): Promise<void>;
}

const count = (record: Record<string, number>, what: string) => (record[what] = (record[what] ?? 0) + 1);

export function billingJob(shop: ShopClient): Billing {
  const keys = new Map<string, BilledKey>();
  const counts: MitCounts = { kept: 0, runs: 0, keys: 0, concurrent: 0, repeated: 0, requests: 0, replies: {} };

  /** One request under the key, sent again while its outcome is unknown, until `giveUpAt`. */
  async function send(billed: BilledKey, body: Record<string, unknown>, giveUpAt: number): Promise<void> {
    for (;;) {
      counts.requests++;
      const reply = await shop.chargePaymentMethod(billed.paymentMethod, body, billed.key).catch(() => undefined);
      const code = reply === undefined ? 'no_answer' : reply.status === 201 ? (reply.body.status ?? 'no_status') : (reply.body.error?.code ?? `http_${reply.status}`);
      count(counts.replies, code);
      if (reply?.status === 201 && reply.body.id) {
        billed.sessions.add(reply.body.id);
        billed.statuses.push(reply.body.status ?? 'no_status');
        return;
      }
      if (reply !== undefined && reply.status < 500 && code !== 'idempotency_key_in_use') {
        billed.refused.push(code);
        return;
      }
      billed.unknown++;
      if (Date.now() >= giveUpAt) return;
      await sleep(RETRY_MS);
    }
  }

  async function bill(method: PaymentMethod, period: number, giveUpAt: number): Promise<void> {
    const billed: BilledKey = { key: `soak-bill:${method.id}:${period}`, paymentMethod: method.id, amount: 100 + Math.floor(Math.random() * (MONTHLY_AMOUNT - 99)), sessions: new Set(), statuses: [], unknown: 0, refused: [] };
    keys.set(billed.key, billed);
    counts.keys++;
    const body = { amount: billed.amount, currency: 'USD', reason: 'subscription', customer: method.customer, reference: billed.key };
    const roll = Math.random();
    if (roll < CONCURRENT_SHARE) {
      counts.concurrent++;
      await Promise.all([send(billed, body, giveUpAt), send(billed, body, giveUpAt)]);
    } else {
      await send(billed, body, giveUpAt);
      if (roll < CONCURRENT_SHARE + REPEATED_SHARE) {
        counts.repeated++;
        await send(billed, body, giveUpAt);
      }
    }
  }

  return {
    keys,
    counts,
    async run(until, giveUpAt) {
      for (let period = 1; Date.now() < until; period++) {
        await sleep(BILLING_INTERVAL_MS);
        const methods = await shop.paymentMethods().catch(() => undefined);
        // The server or its store is away: this period's run is skipped, as a job whose listing failed.
        if (!methods) continue;
        const ours = methods.filter((method) => method.customer.startsWith(CUSTOMER_PREFIX) && method.status === 'active');
        counts.kept = Math.max(counts.kept, ours.length);
        counts.runs++;
        const batch = [...ours].sort(() => Math.random() - 0.5).slice(0, BATCH);
        await Promise.all(batch.map((method) => bill(method, period, giveUpAt)));
      }
    },
  };
}

/** The merchant's sessions of each key, found by its reference (the key), as the merchant finds a charge whose answer it never got. */
export async function sessionsOfKeys(shop: ShopClient, keys: Iterable<string>): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for (const key of keys) found.set(key, (await shop.sessionsWithReference(key)).map((session) => session.id));
  return found;
}

export interface MitAudit {
  keys: number;
  /** Merchant-initiated sessions, and those succeeded / declined. */
  sessions: number;
  succeeded: number;
  declined: number;
  /** Merchant-initiated charges at the service. */
  charges: number;
  /** A key with more than one session, or more than one charge at the service (must be none). */
  duplicates: string[];
  /** A charge at the service no key's session owns; a key answered 201 or not at all whose session is missing or unsettled, or whose outcome the service does not hold (must be none). */
  lost: string[];
  /** A charge or session whose amount, card, or outcome is not the key's (must be none). */
  mismatched: string[];
  /** A charge that does not carry the kept card's stored credential with the first transaction's network reference (must be none). */
  credentials: string[];
  pending: string[];
}

const SETTLED_MIT: ReadonlySet<string> = new Set(['succeeded', 'declined', 'failed']);

/**
 * The billing job's keys against the store and the service: each key is at most one session (exactly one when it
 * was answered 201), of its card and amount, settled; each merchant-initiated charge at the service is the one
 * charge of one key's session, of that card (the service's kept payment method with the card's network
 * reference), with that amount, carrying the stored credential that names the reference of the saving
 * session's charge; and a session answered succeeded stays so.
 */
export function auditMerchantInitiated(input: {
  billed: ReadonlyMap<string, BilledKey>;
  /** The sessions of each key, found by reference; every session of the soak as settled (the saving ones too). */
  sessionsOfKey: ReadonlyMap<string, readonly string[]>;
  sessions: ReadonlyMap<string, Session>;
  methods: ReadonlyMap<string, PaymentMethod>;
  ledger: readonly LedgerEntry[];
  service: ServiceKeptCards;
}): MitAudit {
  const { billed, sessionsOfKey, sessions, methods, ledger, service } = input;
  const audit: MitAudit = { keys: billed.size, sessions: 0, succeeded: 0, declined: 0, charges: service.charges.length, duplicates: [], lost: [], mismatched: [], credentials: [], pending: [] };
  const keyOfAttempt = new Map<string, BilledKey>();
  const chargesOfKey = new Map<string, number>();

  for (const key of billed.values()) {
    const found = sessionsOfKey.get(key.key) ?? [];
    const answered = [...key.sessions];
    if (found.length > 1 || answered.length > 1) audit.duplicates.push(`${key.key}: sessions ${[...new Set([...found, ...answered])].join(', ')}`);
    for (const id of answered) if (!found.includes(id)) audit.lost.push(`${key.key} was answered with ${id}, which the merchant's listing does not have`);
    for (const id of found) {
      const session = sessions.get(id);
      if (!session) {
        audit.lost.push(`${id} of ${key.key} was not read back`);
        continue;
      }
      audit.sessions++;
      if (session.status === 'succeeded') audit.succeeded++;
      if (session.status === 'declined') audit.declined++;
      if (!SETTLED_MIT.has(session.status)) audit.pending.push(`${id} of ${key.key} is ${session.status}`);
      if (session.intent !== 'merchant_initiated' || session.payment_method !== key.paymentMethod || session.amount !== key.amount) {
        audit.mismatched.push(`${id} of ${key.key}: ${session.intent} on ${session.payment_method} for ${session.amount}, the key is ${key.paymentMethod} for ${key.amount}`);
      }
      if (key.statuses.some((status) => SETTLED_MIT.has(status) && status !== session.status)) audit.mismatched.push(`${key.key} was answered ${key.statuses.join(', ')}, and ${id} is ${session.status}`);
      for (let attemptNo = 1; attemptNo <= session.attempts; attemptNo++) keyOfAttempt.set(idempotencyKeyFor(id, attemptNo), key);
    }
  }

  const ledgerCharges = new Map(ledger.filter((entry) => entry.operation === 'charge').map((entry) => [entry.charge.id, entry.charge]));
  const keptAtService = new Map(service.methods.map((method) => [method.kept.networkTransactionReference, method]));
  const atService = new Set<string>();
  for (const { charge, idempotency_key, storedCredential } of service.charges) {
    atService.add(charge.id);
    const key = idempotency_key === null ? undefined : keyOfAttempt.get(idempotency_key);
    if (!key) {
      audit.lost.push(`${charge.id} (${charge.status}, merchant-initiated) belongs to no session of the billing job's keys (service key ${idempotency_key})`);
      continue;
    }
    chargesOfKey.set(key.key, (chargesOfKey.get(key.key) ?? 0) + 1);
    const session = sessions.get(idempotency_key!.split(':')[0]!)!;
    if (session.outcome?.charge_id !== charge.id) audit.lost.push(`${charge.id} (${charge.status}) of ${key.key} is unknown to ${session.id} (${session.status}, outcome ${session.outcome?.charge_id ?? 'none'})`);
    else if ((charge.status === 'succeeded') !== (session.status === 'succeeded')) audit.mismatched.push(`${charge.id} ${charge.status}, ${session.id} ${session.status}`);
    const method = methods.get(key.paymentMethod);
    const kept = method && keptAtService.get(method.network_transaction_reference);
    if (charge.amount !== key.amount || charge.currency !== 'usd') audit.mismatched.push(`${charge.id}: ${charge.amount} ${charge.currency}, ${key.key} is for ${key.amount} usd`);
    if (!method || !kept || charge.payment_method !== kept.id || charge.card.last4 !== method.card.last4) {
      audit.mismatched.push(`${charge.id} charged ${charge.payment_method} (…${charge.card.last4}), ${key.key} is for ${key.paymentMethod}, kept at the service as ${kept?.id ?? 'nothing'}`);
      continue;
    }
    // The first transaction: the saving session's succeeded charge, whose reference the card was kept with.
    const savingCharge = sessions.get(method.agreement.session_id)?.outcome?.charge_id;
    const saving = savingCharge ? ledgerCharges.get(savingCharge) : undefined;
    const { reason, network_transaction_reference } = storedCredential;
    if (reason !== 'subscription' || network_transaction_reference !== method.network_transaction_reference || saving?.network_transaction_reference !== network_transaction_reference) {
      audit.credentials.push(`${charge.id} names ${reason} ${network_transaction_reference}; ${method.id} keeps ${method.network_transaction_reference}, its saving session ${method.agreement.session_id}'s charge ${saving?.network_transaction_reference ?? 'is not in the ledger'}`);
    }
  }

  for (const [key, charges] of chargesOfKey) if (charges > 1) audit.duplicates.push(`${key}: ${charges} charges at the service`);
  for (const id of new Set([...sessionsOfKey.values()].flat())) {
    const session = sessions.get(id);
    if (session?.outcome?.charge_id && !atService.has(session.outcome.charge_id)) audit.lost.push(`${id} is ${session.status} with charge ${session.outcome.charge_id}, which the service does not hold as merchant-initiated`);
  }
  return audit;
}
