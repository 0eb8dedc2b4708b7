/**
 * `wallet-checkout trigger <event type>`: makes the checkout record an event of that type through the
 * flow that really records it, in the sandbox: a session created with the secret key, paid by the
 * sandbox wallet's test card through the public pay endpoint (sandbox-shopper.ts), then captured,
 * released, refunded or its card detached with the secret key; or left unpaid while the session's
 * test clock moves past its expiry (docs/test-clocks.md); or paid with a dispute test card, its dispute
 * waited for and answered with evidence (docs/disputes.md). The event reaches the application's
 * webhook endpoints and `wallet-checkout listen` like any other.
 *
 * One recipe per event type of the contracts: a type added there does not compile here until it has one.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { WEBHOOK_EVENT_TYPES, type WebhookEventTypeName } from '../../../../contracts/event-types';
import type { PaymentOutcome } from '../../../../contracts/sessions';
import type { Dispute } from '../../../../contracts/disputes';
import type { WalletCheckout } from '../index';
import type { SessionCreateParams } from '../types';
import { type Connection, CONNECTION_HELP, connect, parseCommandLine, Refusal, UsageError } from './connection';
import { payWithSandboxWallet } from './sandbox-shopper';

/** What a recipe works with, and tells the user each step through `say`. */
interface Shop extends Connection {
  say(line: string): void;
}

interface Recipe {
  /** The flow, for --help. */
  flow: string;
  /** Runs it; answers the id of the event's `data.object` (a session, a refund, a payment method). */
  run(shop: Shop): Promise<string>;
}

const SUCCESS = 'visa-success-3ds';
const DECLINE = 'visa-decline-3ds';
/** Pays, and every refund of it fails (docs/test-cards.md, "Outcomes after the payment"). */
const REFUND_FAILS = 'visa-refund-fails-3ds';
const AMOUNT = 2400;
/** Pays, and its cardholder's bank disputes the charge at once (docs/test-cards.md, "Outcomes after the payment"). */
const DISPUTED = 'visa-dispute-fraudulent-3ds';
/**
 * How long a dispute may take to reach the checkout: nothing in its store tells an idle checkout that the service
 * opened one, so it is read on the sweeps' next pass, at most RECONCILE_IDLE_INTERVAL_MS (a minute by default) away.
 */
const DISPUTE_WAIT_MS = 90_000;
const DISPUTE_POLL_MS = 500;

/** A session (2400 USD unless `params` say otherwise) paid with `card`; its id once the payment came out as `expected`. */
async function paidSession(shop: Shop, card: string, expected: PaymentOutcome['status'], params: Partial<SessionCreateParams> = {}): Promise<string> {
  const session = await shop.client.sessions.create({ amount: AMOUNT, currency: 'USD', country_code: 'US', description: 'wallet-checkout trigger', ...params });
  shop.say(`Created session ${session.id}${params.intent ? ` (intent ${params.intent})` : ''}`);
  const { outcome } = await payWithSandboxWallet(shop.baseUrl, session, card);
  shop.say(`Paid it with the sandbox wallet's ${card}: ${outcome.status}`);
  if (outcome.status !== expected) throw new Refusal(`the payment came out ${outcome.status}, not ${expected}${outcome.failure_code ? ` (${outcome.failure_code})` : ''}`);
  return session.id;
}

/** A card kept for `customer` by a saving session paid with SUCCESS: its payment method's id. */
async function keptCard(shop: Shop, customer: string): Promise<string> {
  const save = { customer, usage: 'recurring', recurring: { interval: 'month', interval_count: 1, amount: AMOUNT } } as const;
  const sessionId = await paidSession(shop, SUCCESS, 'succeeded', { save_payment_method: save });
  const { payment_method, payment_method_error } = await shop.client.sessions.retrieve(sessionId);
  if (!payment_method) throw new Refusal(`the payment kept no card${payment_method_error ? `: ${payment_method_error.code}, ${payment_method_error.message}` : ''}`);
  shop.say(`Kept the card for customer ${customer}: ${payment_method}`);
  return payment_method;
}

/** A session refunded in full after it was paid with `card`: the refund, once it came out as `expected`. */
async function refundedSession(shop: Shop, card: string, expected: 'succeeded' | 'failed'): Promise<string> {
  const refund = await shop.client.refunds.create(await paidSession(shop, card, 'succeeded'));
  shop.say(`Refunded it: ${refund.id}, ${refund.status}${refund.failure_code ? ` (${refund.failure_code})` : ''}`);
  if (refund.status !== expected) throw new Refusal(`the refund came out ${refund.status}, not ${expected}`);
  return refund.id;
}

/**
 * A session left unpaid, its own test clock moved a minute past its `expires_at`: the move runs the
 * expiry pass before it answers. The clock is read first, so a host without test clocks (a real
 * payment service: 403 test_helpers_unavailable) refuses before anything is created.
 */
async function expiredSession(shop: Shop): Promise<string> {
  await shop.client.testHelpers.clock();
  const session = await shop.client.sessions.create({ amount: AMOUNT, currency: 'USD', country_code: 'US', description: 'wallet-checkout trigger' });
  shop.say(`Created session ${session.id}, left unpaid`);
  const clock = await shop.client.testHelpers.clock();
  // Expiry compares with the host's own time (the clock's now less the application's offset): a session alone moves that far.
  const hostNow = clock.now - clock.offset_seconds * 1000;
  const seconds = Math.ceil((session.expires_at - hostNow) / 1000) + 60;
  await shop.client.testHelpers.advanceClock({ session: session.id, seconds });
  const { status } = await shop.client.sessions.retrieve(session.id);
  shop.say(`Moved its test clock ${seconds} s forward: ${status}`);
  if (status !== 'expired') throw new Refusal(`the session is ${status}, not expired, after its clock moved past its expiry`);
  return session.id;
}

/** Waits until the checkout shows a dispute of `sessionId` that `done` accepts; answers it. */
async function disputeOf(shop: Shop, sessionId: string, done: (dispute: Dispute) => boolean): Promise<Dispute> {
  for (const deadline = Date.now() + DISPUTE_WAIT_MS; Date.now() < deadline; await sleep(DISPUTE_POLL_MS)) {
    const { data } = await shop.client.disputes.list({ limit: 100 });
    const dispute = data.find((one) => one.session_id === sessionId);
    if (dispute && done(dispute)) return dispute;
  }
  throw new Refusal(`no dispute of session ${sessionId} came as expected within ${DISPUTE_WAIT_MS / 1000} s: is the checkout's reconciliation running (RECONCILE_IDLE_INTERVAL_MS)?`);
}

/** A session paid with DISPUTED, and its dispute once the checkout has it. */
async function disputedSession(shop: Shop): Promise<Dispute> {
  const sessionId = await paidSession(shop, DISPUTED, 'succeeded');
  const dispute = await disputeOf(shop, sessionId, () => true);
  shop.say(`Its cardholder's bank disputed it: ${dispute.id}, ${dispute.reason}, evidence due by ${new Date(dispute.evidence_due_by).toISOString()}`);
  return dispute;
}

/** A dispute answered with evidence whose `explanation` says how the sandbox's issuer decides (docs/disputes.md). */
async function answeredDispute(shop: Shop, explanation: string): Promise<Dispute> {
  const dispute = await shop.client.disputes.submitEvidence((await disputedSession(shop)).id, { explanation });
  shop.say(`Submitted its evidence: ${dispute.status}`);
  return dispute;
}

const newCustomer = () => `wallet-checkout-trigger-${randomBytes(6).toString('hex')}`;
const hold = (shop: Shop) => paidSession(shop, SUCCESS, 'authorized', { intent: 'hold' });

export const RECIPES: Record<WebhookEventTypeName, Recipe> = {
  'session.succeeded': { flow: `a session paid with ${SUCCESS}`, run: (shop) => paidSession(shop, SUCCESS, 'succeeded') },
  'session.authorized': { flow: `a hold (intent hold) paid with ${SUCCESS}`, run: hold },
  'session.captured': {
    flow: 'a hold, then captured in full',
    async run(shop) {
      const id = await hold(shop);
      shop.say(`Captured it: ${(await shop.client.sessions.capture(id)).status}`);
      return id;
    },
  },
  'session.released': {
    flow: 'a hold, then released',
    async run(shop) {
      const id = await hold(shop);
      shop.say(`Released it: ${(await shop.client.sessions.release(id)).status}`);
      return id;
    },
  },
  'session.payment_failed': { flow: `a session paid with ${DECLINE} (declined)`, run: (shop) => paidSession(shop, DECLINE, 'declined') },
  'session.expired': { flow: "a session left unpaid, its test clock moved past its expiry", run: expiredSession },
  'refund.succeeded': { flow: `a session paid with ${SUCCESS}, then refunded in full`, run: (shop) => refundedSession(shop, SUCCESS, 'succeeded') },
  'refund.failed': { flow: `a session paid with ${REFUND_FAILS}, then refunded in full (the refund fails)`, run: (shop) => refundedSession(shop, REFUND_FAILS, 'failed') },
  'payment_method.attached': { flow: `a session that keeps the card (save_payment_method) paid with ${SUCCESS}, for a new customer`, run: (shop) => keptCard(shop, newCustomer()) },
  'payment_method.updated': {
    flow: 'the same card kept twice for the same customer',
    async run(shop) {
      const customer = newCustomer();
      await keptCard(shop, customer);
      return keptCard(shop, customer);
    },
  },
  'payment_method.detached': {
    flow: 'a card kept for a new customer, then detached',
    async run(shop) {
      const id = await keptCard(shop, newCustomer());
      shop.say(`Detached it: ${(await shop.client.paymentMethods.detach(id)).status}`);
      return id;
    },
  },
  'dispute.created': { flow: `a session paid with ${DISPUTED}, whose bank disputes it`, run: async (shop) => (await disputedSession(shop)).id },
  'dispute.updated': { flow: 'a disputed session, its evidence submitted', run: async (shop) => (await answeredDispute(shop, 'wallet-checkout trigger: the goods were delivered')).id },
  'dispute.closed': {
    flow: 'a disputed session, its evidence submitted with the words that win it',
    async run(shop) {
      const answered = await answeredDispute(shop, 'wallet-checkout trigger: winning_evidence');
      const closed = await disputeOf(shop, answered.session_id, (dispute) => dispute.status === 'won');
      shop.say(`The issuer decided it: ${closed.status}`);
      return closed.id;
    },
  },
};

const column = Math.max(...WEBHOOK_EVENT_TYPES.map((type) => type.length)) + 2;

export const TRIGGER_HELP = `Usage: wallet-checkout trigger <event type> [options]

Makes the checkout record an event of that type through the flow that really records it, in the
sandbox: a session created with your secret key, paid with a sandbox wallet test card through the
public pay endpoint (as the widget pays), then captured, released, refunded or detached; or left
unpaid while its test clock moves past its expiry. The event is delivered to your webhook endpoints
and forwarded by \`wallet-checkout listen\` like any other. Refused unless the host is in sandbox
mode (it pays this application with the sandbox wallet, and has test clocks).

Event types:
${WEBHOOK_EVENT_TYPES.map((type) => `  ${type.padEnd(column)}${RECIPES[type].flow}`).join('\n')}

${CONNECTION_HELP}

Example:
  WALLET_CHECKOUT_URL=http://127.0.0.1:3000 WALLET_CHECKOUT_SECRET_KEY=sk_test_... \\
    npx wallet-checkout trigger session.succeeded`;

/** How long the recorded event may take to be readable (it is written with the change: at once, unless the store lags). */
const EVENT_WAIT_MS = 10_000;

/** The event of `type` about `objectId`, as the events API lists it. */
async function recordedEvent(client: WalletCheckout, type: WebhookEventTypeName, objectId: string): Promise<string> {
  const deadline = Date.now() + EVENT_WAIT_MS;
  for (;;) {
    const event = (await client.events.list({ type, limit: 20 })).data.find((candidate) => candidate.data.object.id === objectId);
    if (event) return event.id;
    if (Date.now() > deadline) throw new Refusal(`the flow ran, but no ${type} event about ${objectId} was listed within ${EVENT_WAIT_MS / 1000} s`);
    await sleep(200);
  }
}

export async function trigger(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(args, {}, true);
  if (values.help) {
    console.log(TRIGGER_HELP);
    return 0;
  }
  const [type, ...extra] = positionals;
  if (!type || extra.length > 0) throw new UsageError('name one event type, e.g. wallet-checkout trigger session.succeeded');
  if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type)) throw new UsageError(`no event type ${type} (see --help)`);
  const recipe = RECIPES[type as WebhookEventTypeName];
  const connection = connect(values);
  // A live key is a PRODUCTION application's: refused before anything is created.
  if (connection.secretKey.startsWith('sk_live_')) throw new Refusal('trigger runs only in the sandbox, and this is a live key (sk_live_...) of a PRODUCTION application: use a test key');
  const objectId = await recipe.run({ ...connection, say: (line) => console.log(line) });
  console.log(`Triggered ${type}: ${await recordedEvent(connection.client, type as WebhookEventTypeName, objectId)}`);
  return 0;
}
