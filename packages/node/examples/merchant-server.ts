/**
 * A merchant's server with the published package, as a merchant writes it. `npm test`
 * type-checks this file against the BUILT package (dist/, its declarations as published), so a
 * declaration that breaks or loses a type fails CI: `tsc -p packages/node/examples`.
 */
import { createServer } from 'node:http';
import { type Event, type QuoteAnswer, type QuoteRequest, type Session, QuoteVerificationError, WalletCheckout, WalletCheckoutApiError, WebhookVerificationError, SIGNATURE_HEADER, quotes } from '@wallet-checkout/node';

const walletCheckout = new WalletCheckout(process.env.WALLET_CHECKOUT_SECRET_KEY ?? '', { baseUrl: 'https://checkout.example.com' });
const webhookSecret = process.env.WALLET_CHECKOUT_WEBHOOK_SECRET ?? '';

/** Checkout: a session for the cart; the page gets its client secret and view. */
export async function startCheckout(orderId: string, cents: number): Promise<{ clientSecret: string; view: string }> {
  const session = await walletCheckout.sessions.create({ amount: cents, currency: 'usd', country_code: 'US', reference: orderId, intent: 'hold' });
  return { clientSecret: session.client_secret, view: JSON.stringify(session.public_view) };
}

/** The back office: ship, then take the money; or give some back. */
export async function ship(sessionId: string): Promise<number | null> {
  const captured: Session = await walletCheckout.sessions.capture(sessionId, {}, { idempotencyKey: `ship-${sessionId}` });
  return captured.amount_captured;
}

export async function refundPart(sessionId: string, amount: number): Promise<'pending' | 'succeeded' | 'failed' | 'nothing left'> {
  try {
    return (await walletCheckout.refunds.create(sessionId, { amount, reason: 'requested_by_customer' })).status;
  } catch (error) {
    if (error instanceof WalletCheckoutApiError && error.code === 'amount_exceeds_refundable') return 'nothing left';
    throw error;
  }
}

/**
 * A hold to look at before shipping: the card issuer did not confirm the billing address. Not the
 * check against the address on file alone: the shopper's browser supplied the address it compares.
 */
export function needsReview(session: Session): boolean {
  const issuer = session.address_verification;
  if (issuer === null) return session.billing_address_check?.verdict === 'mismatch';
  return issuer.line1 === 'mismatch' || issuer.postal_code === 'mismatch';
}

/** Every paid order of a day, page after page. */
export async function paidBetween(from: number, to: number): Promise<string[]> {
  const references: string[] = [];
  for await (const session of walletCheckout.sessions.listAll({ status: 'succeeded', created_gte: from, created_lt: to, limit: 100 })) {
    if (session.reference !== null) references.push(session.reference);
  }
  return references;
}

/** Why a webhook failed, and sending it again once fixed. */
export async function resendLastFailedPayment(): Promise<string[]> {
  const { data } = await walletCheckout.events.list({ type: 'session.payment_failed', limit: 1 });
  const last = data[0];
  return last ? (await walletCheckout.events.redeliver(last.id)).endpoints : [];
}

export async function rotateWebhookSecret(): Promise<string | undefined> {
  const [endpoint] = (await walletCheckout.webhookEndpoints.list()).data;
  return endpoint && (await walletCheckout.webhookEndpoints.rollSecret(endpoint.id, { expire_current_in_seconds: 3600 })).secret;
}

/** The quote endpoint, set once: its secret signs every quote request, so it is kept like the key. */
export async function setQuoteEndpoint(): Promise<string> {
  const endpoint = await walletCheckout.quoteEndpoint.set({ url: 'https://shop.example/quotes' });
  return endpoint.secret;
}

/** Flat-rate delivery at home, a dearer one abroad, none beyond; one promotion code. */
export function priceOf(request: QuoteRequest): QuoteAnswer {
  const country = request.shipping_address?.country;
  if (country !== undefined && !['US', 'CA'].includes(country)) return { error: { reason: 'shipping_address_unserviceable', message: 'We ship to the US and Canada only' } };
  const code = request.promotion_codes.find((entered) => entered.toUpperCase() === 'SPRING5');
  return {
    shipping_options: [{ id: 'standard', label: 'Standard', detail: '3 to 5 days', amount: country === 'US' ? 500 : 1200 }],
    promotion_codes: code ? [{ code, label: 'Spring: $5 off', amount: 500 }] : [],
  };
}

/** The quote endpoint's answer to one request: its price, or a 400 when the signature does not verify. */
export function answerQuote(rawBody: Buffer, header: string | undefined, quoteSecret: string): { status: number; body: QuoteAnswer | { refused: string } } {
  try {
    return { status: 200, body: priceOf(quotes.verify(rawBody, header, quoteSecret)) };
  } catch (error) {
    if (error instanceof QuoteVerificationError) return { status: 400, body: { refused: error.code } };
    throw error;
  }
}

function handle(event: Event): void {
  switch (event.type) {
    case 'session.succeeded':
    case 'session.captured': {
      const paid = event.data.object;
      if (paid.object === 'checkout_session') console.log(`order ${paid.reference ?? paid.id} is ${paid.status}`);
      break;
    }
    case 'session.authorized': {
      const held = event.data.object;
      if (held.object === 'checkout_session' && needsReview(held)) console.log(`order ${held.reference ?? held.id}: review the address before capturing`);
      break;
    }
    case 'refund.succeeded':
      break;
    default:
      break;
  }
}

/** The webhook receiver: the raw body, verified, then handled. */
createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    try {
      handle(walletCheckout.webhooks.verify(Buffer.concat(chunks), req.headers[SIGNATURE_HEADER.toLowerCase()], webhookSecret));
      res.writeHead(204).end();
    } catch (error) {
      res.writeHead(error instanceof WebhookVerificationError ? 400 : 500).end();
    }
  });
});
