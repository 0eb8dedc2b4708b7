/**
 * The baseline for the pay endpoint: a bare Express handler that parses the
 * same body and makes the same outbound charge call as our backend, with none
 * of its work (session lookup, attempt bookkeeping, validation, logging).
 * Prints `READY http://127.0.0.1:<port>` once it listens.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';

const serviceUrl = process.env.PAYMENT_SERVICE_URL;
const serviceKey = process.env.PAYMENT_SERVICE_KEY;
const merchantId = process.env.BENCH_MERCHANT_ID;
if (!serviceUrl || !serviceKey || !merchantId) throw new Error('PAYMENT_SERVICE_URL, PAYMENT_SERVICE_KEY and BENCH_MERCHANT_ID are required');
const chargesUrl = `${serviceUrl}/api/v1/charges`;

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
  const reply = await fetch(chargesUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${serviceKey}`,
      'content-type': 'application/json',
      'merchant-account': merchantId,
      'idempotency-key': `${req.params.id}:attempt:1`,
    },
    body: JSON.stringify(charge),
  });
  res.status(reply.ok ? 200 : 502).json(await reply.json());
});

const server = createServer(app);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
console.log(`READY http://127.0.0.1:${(server.address() as AddressInfo).port}`);
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
