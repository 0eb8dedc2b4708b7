/**
 * A merchant's quote endpoint: where the backend asks, server to server, what the sheet's current
 * choice costs when the price depends on the address or a promotion code (carrier rates by zone, tax,
 * discounts). It is registered once per app (PUT /api/quote_endpoint, secret key) and called for the
 * sessions created with `quote_endpoint: true`, on each change in the sheet and once more with the
 * full address when the shopper pays. Requests are signed like webhook deliveries
 * (contracts/webhook-signature.ts, with the endpoint's own secret) and sent under the same address
 * rules; the answer is validated here, and the backend, never the page, turns it into the total
 * (docs/express-checkout.md#the-merchants-quote-endpoint).
 */
import { z } from 'zod';
import { CountryCode } from './country';
import { LineItem, MAX_SHIPPING_OPTIONS, ShippingOption } from './express';
import { MerchantUrl } from './merchant-url';

/** PUT /api/quote_endpoint: where the app's quotes are asked. Replacing it makes a new signing secret. */
export const SetQuoteEndpointBody = z.strictObject({ url: MerchantUrl.meta({ description: 'Where quote requests are POSTed; in production an https URL of a public address' }) }).meta({ id: 'SetQuoteEndpointBody' });
export type SetQuoteEndpointBody = z.infer<typeof SetQuoteEndpointBody>;

/** GET /api/quote_endpoint: the app's quote endpoint, without its secret. */
export const QuoteEndpoint = z.object({ object: z.literal('quote_endpoint'), url: z.string(), created: z.number().int() }).meta({ id: 'QuoteEndpoint' });
export type QuoteEndpoint = z.infer<typeof QuoteEndpoint>;

/** The reply to PUT /api/quote_endpoint: `secret` (qsec_...) is shown this once; requests are signed with it. */
export const CreatedQuoteEndpoint = QuoteEndpoint.extend({ secret: z.string() }).meta({ id: 'CreatedQuoteEndpoint' });
export type CreatedQuoteEndpoint = z.infer<typeof CreatedQuoteEndpoint>;

/**
 * The shipping address as the quote endpoint receives it. In the sheet (`stage: sheet`) Google gives only
 * country, state, city and a shortened postal code; at authorization (`stage: authorization`) it is whole.
 */
export const QuoteAddress = z
  .object({
    name: z.string().optional(),
    line1: z.string().optional(),
    line2: z.string().optional(),
    line3: z.string().optional(),
    city: z.string().optional(),
    state: z.string().optional(),
    postal_code: z.string().optional(),
    sorting_code: z.string().optional(),
    country: CountryCode,
  })
  .meta({ id: 'QuoteAddress' });
export type QuoteAddress = z.infer<typeof QuoteAddress>;

/**
 * What the backend POSTs to the quote endpoint (JSON, signed). `id` is new for each request; `stage`
 * says whether the shopper is choosing (`sheet`, the address redacted) or paying (`authorization`,
 * the full address: the merchant may still refuse it).
 */
export const QuoteRequest = z
  .object({
    object: z.literal('quote_request'),
    id: z.string(),
    stage: z.enum(['sheet', 'authorization']),
    session: z.string(),
    reference: z.string().nullable(),
    /** The session's goods: `amount` (minor units of `currency`, lowercase ISO 4217) and the line items it is made of. */
    amount: z.number().int(),
    currency: z.string(),
    line_items: z.array(LineItem),
    /** Null for a session that asks no shipping address. */
    shipping_address: QuoteAddress.nullable(),
    /** The delivery option the shopper has chosen; null before one is (the answer's first is then the default). */
    shipping_option: z.string().nullable(),
    /** Every promotion code entered in the sheet and still applied, oldest first. */
    promotion_codes: z.array(z.string()),
    created: z.number().int(),
  })
  .meta({ id: 'QuoteRequest' });
export type QuoteRequest = z.infer<typeof QuoteRequest>;

/** A promotion code the merchant accepts, and what it takes off: `label` is what the sheet shows (Google allows under 60 characters). */
export const QuotedPromotionCode = z
  .strictObject({ code: z.string().min(1).max(100), label: z.string().min(1).max(59), amount: z.number().int().positive().max(99_999_999_999) })
  .meta({ id: 'QuotedPromotionCode' });
export type QuotedPromotionCode = z.infer<typeof QuotedPromotionCode>;

/**
 * What the quote endpoint answers (200, JSON), read strictly: anything else is treated as no answer.
 * A price: the delivery options for this address (required when the session offers delivery options;
 * the first is the default), the tax, and the promotion codes accepted; a code sent and not listed is
 * refused in the sheet. Or a refusal of the address, which the sheet shows on it.
 */
export const QuoteAnswer = z
  .union([
    z.strictObject({
      shipping_options: z.array(ShippingOption.omit({ countries: true })).min(1).max(MAX_SHIPPING_OPTIONS).optional(),
      tax: z.number().int().min(0).max(99_999_999_999).default(0),
      promotion_codes: z.array(QuotedPromotionCode).max(20).default([]),
    }),
    z.strictObject({ error: z.strictObject({ reason: z.literal('shipping_address_unserviceable'), message: z.string().min(1).max(200) }) }),
  ])
  // Documented as the merchant writes it (`tax` and `promotion_codes` optional), not as parsed (server/openapi/quote-endpoint.ts).
  .meta({ id: 'QuoteAnswer', unusedIO: 'input' });
export type QuoteAnswer = z.infer<typeof QuoteAnswer>;

/** What a session created with `quote_endpoint` asks of it, as stored. */
export const QuotePricing = z.object({ promotion_codes: z.boolean() });
export type QuotePricing = z.infer<typeof QuotePricing>;

/** The quote a session's payment is priced by, as the merchant's view shows it: what the total is made of, and the total. */
export const SessionQuote = z
  .object({
    id: z.string(),
    shipping_option: z.object({ id: z.string(), label: z.string(), amount: z.number().int() }).nullable(),
    tax: z.number().int(),
    promotion_codes: z.array(QuotedPromotionCode),
    total: z.number().int(),
    created: z.number().int(),
  })
  .meta({ id: 'SessionQuote' });
export type SessionQuote = z.infer<typeof SessionQuote>;
