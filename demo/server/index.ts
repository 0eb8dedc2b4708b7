/**
 * The demo store: a small merchant site served at `/`. Its "server side" does
 * what any merchant's server does, with the Node library (packages/node) and
 * its secret key: create a checkout session, embed the widget with a script
 * tag, and confirm the outcome from the signed webhooks it receives instead of
 * trusting the browser or polling the API.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { z } from 'zod';
import type { Session } from '../../contracts';
import { type BodyRules, KB, rawBodyOf } from '../../common/http/body';
import { sendFailure } from '../../common/http/errors';
import { SIGNATURE_HEADER, type SessionCreateParams, WalletCheckout, WalletCheckoutApiError, WebhookVerificationError } from '../../packages/node/src';
import { escapeHtml } from '../../common/html';
import { apiRefusal, orderOf, passOn, priceOf, sameOriginPost } from './back-office';
import { type CartCheckout, cartCheckouts } from './cart';
import { DEMO_QUOTE_PATH, quoteRoutes, registerQuoteEndpoint } from './quote-endpoint';
import { OPENING_OPTIONS, PROMOTION_CODES, ZONES } from './quote-prices';
import { recentMap } from './recent';
import { subscriptionRoutes } from './subscription';

/**
 * What the demo merchant's server is given, as any merchant's server is: the
 * API's origin and its credentials. The backend provisions the demo
 * application, and its webhook endpoint at DEMO_WEBHOOK_PATH, at start
 * (server/apps/demo-merchant.ts), as an operator provisions a merchant's.
 */
export interface DemoMerchant {
  apiBase: string;
  secretKey: string;
  /** The signing secret of the demo's webhook endpoint (DEMO_WEBHOOK_PATH). */
  webhookSecret: string;
}

/** The demo's own route that receives its webhooks. */
export const DEMO_WEBHOOK_PATH = '/demo/webhooks';

/** The bodies the demo store's routes take, read at the edge (common/http/body.ts): its webhook receiver's events, its quote requests. */
export const demoBodies = {
  [`POST ${DEMO_WEBHOOK_PATH}`]: { body: 'required', limit: 256 * KB },
  [`POST ${DEMO_QUOTE_PATH}`]: { body: 'required', limit: 64 * KB },
} as const satisfies BodyRules;

const pageTemplate = (name: string) => readFileSync(fileURLToPath(new URL(`../../demo/pages/${name}`, import.meta.url)), 'utf8');
const storeTemplate = pageTemplate('store.html');
const productTemplate = pageTemplate('product.html');
const subscriptionTemplate = pageTemplate('subscription.html');
/** The pages' shared script that waits for the store's server to confirm an order from its webhook. */
const confirmedOrderScript = pageTemplate('confirmed-order.js').trim();
/** The pages' shared styles. */
const storeStyle = pageTemplate('store.css').trim();

/**
 * The coffee the product page sells, as an express checkout (docs/express-checkout.md): the
 * Google Pay sheet asks for the address, the delivery option, the e-mail and any promotion code,
 * and the demo's quote endpoint (quote-endpoint.ts) prices each change from its table; the sheet
 * opens with the domestic options until it does.
 */
const PRODUCT = {
  name: 'House roast coffee, 1 kg',
  amount: 2400,
  currency: 'USD',
  shipping: { countries: ZONES.flatMap((zone) => zone.countries), phone: true, options: [...OPENING_OPTIONS] },
} satisfies { name: string; amount: number; currency: string; shipping: NonNullable<SessionCreateParams['shipping']> };

const DemoOrder = z.object({
  currency: z.enum(['USD', 'EUR', 'JPY', 'KWD']).default('USD'),
  amount: z.coerce.number().int().positive().max(1_000_000).default(2400),
  /** `hold`: "Reserve (hold)", captured later from the page's back-office panel. */
  intent: z.enum(['charge', 'hold']).default('charge'),
});

/** What the product page says of delivery (each zone's cheapest option, or that it is not served yet) and of the promotion codes. */
const deliveryText = ZONES.map((zone) => `${zone.name}: ${'options' in zone ? `from ${priceOf(Math.min(...zone.options.map((option) => option.amount)), PRODUCT.currency)}` : 'not yet'}`).join(' · ');
const promotionText = Object.entries(PROMOTION_CODES).map(([code, { label }]) => `${code} (${label})`).join(' · ');

/** The demo's orders, as its server knows them: made when the page is served, confirmed by webhooks. In memory: a demo. */
const MAX_ORDERS = 10_000;

/** A cart's open session is shown again only while this much of its life is left: the page must stay payable a while. */
const REUSE_MARGIN_MS = 10 * 60_000;

export function demoRoutes(merchant: DemoMerchant): express.Router {
  const router = express.Router();
  const orders = recentMap<string, Session>(MAX_ORDERS);
  const remember = (session: Session) => orders.set(session.id, session);
  const carts = cartCheckouts(MAX_ORDERS);
  const walletCheckout = new WalletCheckout(merchant.secretKey, { baseUrl: merchant.apiBase });
  const quoteEndpoint = registerQuoteEndpoint(walletCheckout.quoteEndpoint, `${merchant.apiBase}${DEMO_QUOTE_PATH}`);

  /** The cart's session for this page, if the API says it is still open with time to pay it; else nothing. */
  async function stillOpen(cart: CartCheckout | undefined) {
    const kept = cart?.kept();
    if (!kept) return undefined;
    const current = await walletCheckout.sessions.retrieve(kept.id).catch(apiRefusal);
    if (current instanceof WalletCheckoutApiError || current.status !== 'open' || current.expires_at - Date.now() < REUSE_MARGIN_MS) return undefined;
    return { ...kept, ...current };
  }

  /**
   * Sends the page embedding the widget for the order's session: the one `cart` opened on this page while it is
   * still open, else a new one; or passes on the API's refusal as it came (a KWD amount Google Pay cannot show:
   * amount_exceeds_google_pay_precision). Without `cart`, every visit is a new session (the subscription's new customer).
   */
  async function sendCheckoutPage(res: express.Response, template: string, params: SessionCreateParams, extra: Record<string, string> = {}, cart?: CartCheckout) {
    // The store's own order number: short enough to read to support over the phone, unlike the session id.
    const reference = randomBytes(4).toString('hex').toUpperCase();
    // The page is in English: its view carries the amount formatted for it, and the widget formats nothing before its button.
    const created = (await stillOpen(cart)) ?? (await walletCheckout.sessions.create({ ...params, reference, locale: 'en' }).catch(apiRefusal));
    if (created instanceof WalletCheckoutApiError) return passOn(res, created);
    cart?.keep(created);
    const { client_secret, public_view, ...session } = created;
    // The order as the store keeps it: the session without its client secret.
    remember(session);
    // The price is the session's, formatted as the widget formats it (the page is in English).
    const placeholders: Record<string, string> = {
      CLIENT_SECRET: escapeHtml(client_secret),
      // The widget's view of the new session, so that no request precedes the button (docs/embedding.md).
      SESSION_VIEW: escapeHtml(JSON.stringify(public_view)),
      PRICE: escapeHtml(priceOf(session.amount, session.currency)),
      ORDER_REFERENCE: escapeHtml(session.reference ?? ''),
      CHECKOUT_SRC: `${merchant.apiBase}/checkout.js`,
      NONCE: String(res.locals.cspNonce),
      CONFIRMED_ORDER_SCRIPT: confirmedOrderScript,
      STORE_STYLE: storeStyle,
      ...extra,
    };
    // The page carries the session's client secret: no cache keeps it.
    res.set('Cache-Control', 'no-store').type('html').send(template.replace(/\{\{([A-Z_]+)\}\}/g, (placeholder, name: string) => placeholders[name] ?? placeholder));
  }

  router.get('/', async (req, res) => {
    const order = DemoOrder.safeParse(req.query);
    if (!order.success) return sendFailure(res, { code: 'invalid_request', message: 'amount and currency: see the demo store' });
    const { amount, currency, intent } = order.data;
    // One session per cart and order: another amount, currency or intent is another order.
    const cart = carts.of(req, res, `/ ${amount} ${currency} ${intent}`);
    await sendCheckoutPage(res, storeTemplate, { amount, currency, country_code: 'US', description: 'Pour-over coffee kit', intent }, { INTENT: intent }, cart);
  });

  /** The product page: the express button, whose sheet asks for the address, the delivery option and a promotion code, each change priced by the demo's quote endpoint. */
  router.get('/product', async (req, res) => {
    // Its session is priced by the quote endpoint: set at start, set here again if that failed.
    const registered = await quoteEndpoint.ready().catch(apiRefusal);
    if (registered instanceof WalletCheckoutApiError) return passOn(res, registered);
    const { name, amount, currency, shipping } = PRODUCT;
    await sendCheckoutPage(
      res,
      productTemplate,
      {
        amount,
        currency,
        country_code: 'US',
        description: name,
        line_items: [{ label: name, kind: 'item', amount }],
        shipping,
        contact: { email: true },
        quote_endpoint: true,
        promotion_codes: true,
      },
      { DELIVERY: escapeHtml(deliveryText), PROMOTION_CODES: escapeHtml(promotionText) },
      carts.of(req, res, '/product'),
    );
  });

  router.use(quoteRoutes(quoteEndpoint));

  /** The monthly subscription: the first month in the sheet, the next ones and the cancel from the back office (subscription.ts). */
  const subscription = subscriptionRoutes({ walletCheckout, ownOrigin: merchant.apiBase, template: subscriptionTemplate, sendCheckoutPage, remember });
  router.use(subscription.router);

  /**
   * The store's webhook receiver: a delivery whose signature does not verify
   * is refused; a verified one updates the order, unless the store already
   * knows a later state of it (deliveries may come out of order, or twice).
   */
  router.post(DEMO_WEBHOOK_PATH, (req, res) => {
    let event;
    try {
      // The signature is over the bytes as they came, which the edge keeps.
      event = walletCheckout.webhooks.verify(rawBodyOf(req)?.toString('utf8') ?? '', req.get(SIGNATURE_HEADER), merchant.webhookSecret);
    } catch (error) {
      if (error instanceof WebhookVerificationError) return sendFailure(res, { code: 'unauthenticated', message: `The signature does not verify (${error.code})` });
      throw error;
    }
    // The card kept for a subscription, or detached.
    if (event.data.object.object === 'payment_method') {
      subscription.onPaymentMethod(event.data.object);
      return res.status(204).end();
    }
    // Acknowledged but not kept: an event the store has no use for (a refund's) is not worth a retry.
    if (event.data.object.object !== 'checkout_session') return res.status(204).end();
    const session = event.data.object;
    const known = orders.get(session.id);
    if (!known || session.updated >= known.updated) remember(session);
    res.status(204).end();
  });

  /** The store's own view of an order, as its webhooks told it: the browser is never trusted for the outcome. */
  router.get('/demo/orders/:id', (req, res) => {
    const order = orders.get(req.params.id);
    if (!order) return sendFailure(res, { code: 'not_found', message: 'No such order' });
    res.set('Cache-Control', 'no-store').json(orderOf(order));
  });

  /**
   * The store's back office capturing a hold, with its secret key as any
   * merchant's server would. One idempotency key per order, so a double-click
   * or a retry captures once.
   */
  router.post('/demo/orders/:id/capture', async (req, res) => {
    if (!sameOriginPost(req, merchant.apiBase)) return sendFailure(res, { code: 'origin_not_allowed', message: 'The back office captures only from its own pages' });
    // The API's refusal is passed on as it came (an order not authorized yet: invalid_state).
    const captured = await walletCheckout.sessions.capture(req.params.id, {}, { idempotencyKey: `demo-capture-${req.params.id}` }).catch(apiRefusal);
    if (captured instanceof WalletCheckoutApiError) return passOn(res, captured);
    remember(captured);
    res.set('Cache-Control', 'no-store').json(orderOf(captured));
  });

  return router;
}

export { galleryBodies, galleryRoutes } from './gallery';
