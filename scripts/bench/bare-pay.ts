/**
 * The baselines for the pay endpoint: a bare Express handler that parses the
 * same body and makes the same outbound charge call as our backend, by the
 * same HTTP client (undici's `request`, on a pool of its own), with none
 * of its work (client secret, validation, pricing, sealing, views, logging).
 * With BENCH_DURABLE_DATA_DIR set it is the durable floor: it also commits the
 * same two durable writes as our pay, to a store of our schema in that
 * directory, by our store layer's own prepared statements: before the charge
 * call, the session moved to processing and the attempt recorded with its
 * charge request (a second pay of the session finds it moved and is answered
 * 409); after it, the attempt's outcome, the session moved to succeeded and
 * the event the webhooks deliver. So the floor pays what the rows the product
 * keeps cost (SQLite, the disk, the checkpoints), and ours above it is our
 * code. Its sessions are made before it listens: BENCH_DURABLE_SESSIONS of
 * them, `cs_durable0`, `cs_durable1`, ...
 * Prints `READY http://127.0.0.1:<port>` once it listens.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Agent, request } from 'undici';
import { createApp } from '../../server/apps';
import { checkBillingAddress } from '../../server/checkout/address-check';
import { newSessionRow } from '../../server/checkout/sessions';
import { openStore, type Store } from '../../server/store';
import { claimSessionForAttempt, recordAttemptAndMoveOnSqlite } from '../../server/store/attempt-moves';
import { oneMoreAttempt } from '../../server/store/attempts';
import { newEvent } from '../../server/store/events';
import { insertSession, type SessionRow } from '../../server/store/sessions';

const serviceUrl = process.env.PAYMENT_SERVICE_URL;
const serviceKey = process.env.PAYMENT_SERVICE_KEY;
const merchantId = process.env.BENCH_MERCHANT_ID;
if (!serviceUrl || !serviceKey || !merchantId) throw new Error('PAYMENT_SERVICE_URL, PAYMENT_SERVICE_KEY and BENCH_MERCHANT_ID are required');
const chargesUrl = `${serviceUrl}/api/v1/charges`;

/** The durable floor's sessions, in the order the bench pays them. */
const durableSessionId = (i: number): string => `cs_durable${i}`;
const SESSIONS_PER_TRANSACTION = 1_000;

/** A store of our schema with an app and `count` open sessions of 2400 USD, as our backend's are when the bench pays them. */
async function durableStore(dataDir: string, count: number): Promise<{ store: Store; appId: string }> {
  const store = await openStore(dataDir);
  const created = await createApp(store, { name: 'Bench shop', merchant_id: merchantId as string, allowed_origins: ['https://shop.example'], environment: 'TEST' });
  if (!created.ok) throw new Error(created.error.message);
  const appId = created.value.app.id;
  const now = Date.now();
  for (let first = 0; first < count; first += SESSIONS_PER_TRANSACTION) {
    await store.transaction().execute(async (trx) => {
      for (let i = first; i < Math.min(count, first + SESSIONS_PER_TRANSACTION); i++) {
        const fields = { id: durableSessionId(i), app_id: appId, amount: 2400, currency: 'USD', country_code: 'US', intent: 'capture', client_secret_hash: '', created: now, expires_at: now + 86_400_000 };
        await insertSession(trx, newSessionRow(fields));
      }
    });
  }
  return { store, appId };
}

/** The billing-address check as ours records it for a session with no address on file. */
const UNCHECKED_ADDRESS = JSON.stringify(checkBillingAddress(undefined, undefined));

/** The two transactions of our pay, with the floor's values in the columns ours fills. */
function durableWrites({ store, appId }: { store: Store; appId: string }) {
  return {
    /** The claim; the attempt's idempotency key, undefined when the session was claimed before. */
    async claim(sessionId: string, attemptId: string, request: string, billing: string | null): Promise<string | undefined> {
      const changes = { billing_address_sealed: billing, billing_address_check: UNCHECKED_ADDRESS, shipping_address_sealed: null, email_sealed: null, email_index: null, amount_charged: 2400, shipping_option: null, charged_quote: null, ...oneMoreAttempt, address_verification: null };
      const move = { sessionId, from: ['open'], to: 'processing', changes, expected: {}, now: Date.now() };
      const claimed = await claimSessionForAttempt(store, move, { id: attemptId, sourceType: 'walletpay', requestSealed: request, instanceId: 'durable-floor' });
      return claimed?.idempotencyKey;
    },
    /**
     * The outcome: the attempt settled, the session moved, and its event with the session as moved, marked as
     * carrying personal data when the payment had a billing address (ours seals that event, and the retention
     * purge finds it by an index of such events).
     */
    async settle(sessionId: string, attemptId: string, outcome: string, personal: boolean): Promise<void> {
      const now = Date.now();
      const move = { sessionId, from: ['processing', 'pending'], to: 'succeeded', changes: { outcome, card_network: 'visa', card_last4: '4242' }, expected: {}, now };
      const attempt = { status: 'succeeded', chargeId: null, outcome, settled: true };
      // The session's row stands in for the merchant's view of it that our event carries: about as many bytes.
      const eventOf = (moved: SessionRow) => {
        const made = newEvent(appId, 'session.succeeded', { ...moved, object: 'checkout_session' } as unknown as Parameters<typeof newEvent>[2], undefined, now);
        return { ...made, row: { ...made.row, personal_data: personal ? 1 : 0 } };
      };
      await recordAttemptAndMoveOnSqlite(store, { attemptId, attempt, move, eventOf });
    },
  };
}

const durableDir = process.env.BENCH_DURABLE_DATA_DIR;
const writes = durableDir ? durableWrites(await durableStore(durableDir, Number(process.env.BENCH_DURABLE_SESSIONS ?? 0))) : undefined;

interface PayBody {
  payment_data: {
    paymentMethodData: { info: { billingAddress?: Record<string, string> }; tokenizationData: { token: string } };
  };
}

const dispatcher = new Agent();
const app = express();
app.disable('x-powered-by');
app.post('/api/sessions/:id/pay', express.json({ limit: '64kb' }), async (req, res) => {
  const { paymentMethodData } = (req.body as PayBody).payment_data;
  const address = paymentMethodData.info.billingAddress;
  // The charge our backend sends for the benchmark's sessions (2400 USD), field for field.
  const charge = {
    source_data: { type: 'walletpay', walletpay: JSON.parse(paymentMethodData.tokenizationData.token) as unknown },
    amount: 2400,
    currency: 'usd',
    ...(address && {
      billing_details: {
        name: address.name,
        phone: address.phoneNumber,
        address: { line1: address.address1, line2: address.address2, city: address.locality, state: address.administrativeArea, postal_code: address.postalCode, country: address.countryCode },
      },
    }),
    metadata: { session_id: req.params.id },
  };
  const sessionId = req.params.id;
  const body = JSON.stringify(charge);
  const attemptId = `att_${sessionId}`;
  const idempotencyKey = writes ? await writes.claim(sessionId, attemptId, body, charge.billing_details ? JSON.stringify(charge.billing_details) : null) : `${sessionId}:attempt:1`;
  if (idempotencyKey === undefined) {
    res.status(409).json({ error: 'already paid' });
    return;
  }
  const reply = await request(chargesUrl, {
    method: 'POST',
    dispatcher,
    headers: {
      authorization: `Bearer ${serviceKey}`,
      'content-type': 'application/json',
      'merchant-account': merchantId,
      'idempotency-key': idempotencyKey,
    },
    body,
  });
  const outcome: unknown = await reply.body.json();
  await writes?.settle(sessionId, attemptId, JSON.stringify(outcome), charge.billing_details !== undefined);
  res.status(reply.statusCode >= 200 && reply.statusCode < 300 ? 200 : 502).json(outcome);
});

const server = createServer(app);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
console.log(`READY http://127.0.0.1:${(server.address() as AddressInfo).port}`);
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
