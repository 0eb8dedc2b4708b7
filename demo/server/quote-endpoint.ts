/**
 * The demo store's quote endpoint (docs/express-checkout.md#the-merchants-quote-endpoint): the
 * backend asks it, signed, what the sheet's current choice costs, and it answers from its price
 * table (quote-prices.ts): the delivery options for the address's zone, the sales tax, the
 * promotion codes it accepts, or a refusal of the address. It prices; it never charges: the
 * backend turns the answer into the total and charges it.
 */
import express from 'express';
import { rawBodyOf } from '../../common/http/body';
import { sendFailure } from '../../common/http/errors';
import { type CreatedQuoteEndpoint, type QuoteAnswer, type QuotedPromotionCode, type QuoteEndpointResource, type QuoteRequest, QuoteVerificationError, quotes, SIGNATURE_HEADER } from '../../packages/node/src';
import { PROMOTION_CODES, US_SALES_TAX_BASIS_POINTS, ZONES } from './quote-prices';

/** The demo's own route that answers its quote requests. */
export const DEMO_QUOTE_PATH = '/demo/quote';

/** The promotion codes accepted, as sent (the sheet shows them so): each known code once, its discount rounded up, in the shopper's favour. */
function acceptedCodes(sent: readonly string[], goods: number): QuotedPromotionCode[] {
  const applied = new Set<string>();
  return sent.flatMap((code) => {
    const key = code.trim().toUpperCase();
    const promotion = PROMOTION_CODES[key];
    if (!promotion || applied.has(key)) return [];
    applied.add(key);
    return [{ code, label: promotion.label, amount: Math.ceil((goods * promotion.percentOffGoods) / 100) }];
  });
}

/** The answer to one quote request, from the price table alone. */
export function quoteFor(request: QuoteRequest): QuoteAnswer {
  const promotion_codes = acceptedCodes(request.promotion_codes, request.amount);
  const address = request.shipping_address;
  // A session that asks no address (promotion codes only) is priced on its goods alone.
  if (address === null) return { promotion_codes };
  const zone = ZONES.find((candidate) => candidate.countries.includes(address.country));
  // The session ships only to the table's countries; one outside it would be the table changed under a session.
  if (zone === undefined) return { error: { reason: 'shipping_address_unserviceable', message: 'Demo Coffee Roasters does not deliver to this country' } };
  if ('refusal' in zone) return { error: { reason: 'shipping_address_unserviceable', message: zone.refusal } };
  const discountedGoods = request.amount - promotion_codes.reduce((sum, accepted) => sum + accepted.amount, 0);
  const taxRate = address.country === 'US' ? (US_SALES_TAX_BASIS_POINTS[address.state?.toUpperCase() ?? ''] ?? 0) : 0;
  return { shipping_options: [...zone.options], tax: Math.round((discountedGoods * taxRate) / 10_000), promotion_codes };
}

/**
 * The endpoint set with the Node library, as a merchant's server sets its own, and its secret kept
 * in memory: each start sets it again, with a new secret. Started at once; `ready` sets it again
 * after a failed attempt, and rejects with the API's refusal.
 */
export function registerQuoteEndpoint(quoteEndpoint: QuoteEndpointResource, url: string) {
  let endpoint: CreatedQuoteEndpoint | undefined;
  let setting: Promise<CreatedQuoteEndpoint> | undefined;
  const ready = (): Promise<CreatedQuoteEndpoint> => {
    if (endpoint) return Promise.resolve(endpoint);
    setting ??= quoteEndpoint.set({ url }).then(
      (created) => (endpoint = created),
      (error: unknown) => {
        setting = undefined;
        throw error;
      },
    );
    return setting;
  };
  // A failure at start is met again by the first page that needs the endpoint, which shows it.
  ready().catch(() => undefined);
  return {
    ready,
    /** The secret quote requests are signed with (once a setting in flight is done); undefined while none is set. */
    secret: async (): Promise<string | undefined> => (endpoint ?? (await setting?.catch(() => undefined)))?.secret,
  };
}
export type QuoteEndpointRegistration = ReturnType<typeof registerQuoteEndpoint>;

/** The route the backend POSTs quote requests to: verified on the bytes as they came, then priced. */
export function quoteRoutes(registration: Pick<QuoteEndpointRegistration, 'secret'>): express.Router {
  const router = express.Router();
  router.post(DEMO_QUOTE_PATH, async (req, res) => {
    const secret = await registration.secret();
    if (secret === undefined) return sendFailure(res, { code: 'unauthenticated', message: 'No quote endpoint is set: nothing can be verified' });
    let request: QuoteRequest;
    try {
      request = quotes.verify(rawBodyOf(req) ?? '', req.get(SIGNATURE_HEADER), secret);
    } catch (error) {
      if (error instanceof QuoteVerificationError) return sendFailure(res, { code: 'unauthenticated', message: `The signature does not verify (${error.code})` });
      throw error;
    }
    // The table is in US cents: another currency's session gets no price (the backend tells the shopper to try again).
    if (request.currency !== 'usd') return sendFailure(res, { code: 'invalid_request', message: 'The demo store prices in USD only' });
    res.set('Cache-Control', 'no-store').json(quoteFor(request));
  });
  return router;
}
