/**
 * The baselines for the pay endpoint: a bare Express handler that parses the
 * same body and makes the same outbound charge call as our backend, with none
 * of its work (session lookup, attempt bookkeeping, validation, logging).
 * With BENCH_DURABLE_DATA_DIR set it is the durable floor: it also commits what
 * exactly-once needs and nothing more, to a SQLite file in that directory set up
 * as our store's (WAL, synchronous FULL): the attempt with its charge request,
 * inserted in a transaction of its own before the charge call (a second pay of
 * the same session fails on its key and is answered 409), and its outcome,
 * updated in another after. Prints `READY http://127.0.0.1:<port>` once it listens.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import express from 'express';
import { configureConnection } from '../../common/store/database';

const serviceUrl = process.env.PAYMENT_SERVICE_URL;
const serviceKey = process.env.PAYMENT_SERVICE_KEY;
const merchantId = process.env.BENCH_MERCHANT_ID;
if (!serviceUrl || !serviceKey || !merchantId) throw new Error('PAYMENT_SERVICE_URL, PAYMENT_SERVICE_KEY and BENCH_MERCHANT_ID are required');
const chargesUrl = `${serviceUrl}/api/v1/charges`;

/** The two commits of the durable floor, each a statement in autocommit mode: one transaction each. */
function durableAttempts(dataDir: string) {
  const db = configureConnection(new Database(join(dataDir, 'bare.db')));
  db.exec('CREATE TABLE IF NOT EXISTS attempts (id TEXT PRIMARY KEY, request TEXT NOT NULL, outcome TEXT, created_at INTEGER NOT NULL, updated_at INTEGER)');
  const claim = db.prepare('INSERT INTO attempts (id, request, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING');
  const settle = db.prepare('UPDATE attempts SET outcome = ?, updated_at = ? WHERE id = ?');
  return {
    /** Whether this attempt is new (false: it was claimed before). */
    claim: (id: string, request: string): boolean => claim.run(id, request, Date.now()).changes === 1,
    settle: (id: string, outcome: string): void => {
      settle.run(outcome, Date.now(), id);
    },
  };
}

const durableDir = process.env.BENCH_DURABLE_DATA_DIR;
const attempts = durableDir ? durableAttempts(durableDir) : undefined;

interface PayBody {
  payment_data: {
    paymentMethodData: { info: { billingAddress?: Record<string, string> }; tokenizationData: { token: string } };
  };
}

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
  const attemptId = `${req.params.id}:attempt:1`;
  const body = JSON.stringify(charge);
  if (attempts && !attempts.claim(attemptId, body)) {
    res.status(409).json({ error: 'already paid' });
    return;
  }
  const reply = await fetch(chargesUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${serviceKey}`,
      'content-type': 'application/json',
      'merchant-account': merchantId,
      'idempotency-key': attemptId,
    },
    body,
  });
  const outcome: unknown = await reply.json();
  attempts?.settle(attemptId, JSON.stringify(outcome));
  res.status(reply.ok ? 200 : 502).json(outcome);
});

const server = createServer(app);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
console.log(`READY http://127.0.0.1:${(server.address() as AddressInfo).port}`);
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
