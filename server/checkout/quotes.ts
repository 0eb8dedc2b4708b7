/**
 * Delivery options priced by the server (docs/api.md#delivery-options-priced-by-the-server), or by the merchant's
 * quote endpoint (docs/express-checkout.md#the-merchants-quote-endpoint). Each change in Google's sheet (the
 * address, the option picked, a promotion code) is relayed here by the widget and answered with the price for
 * it, stored as the session's latest quote; a payment must be for that quote, and is charged its total, never
 * a number the page sent.
 */
import { z } from 'zod';
import {
  type AskedShippingOption,
  type ChosenShippingOption,
  type IntermediatePaymentData,
  optionsFor,
  type PaymentData,
  type PaymentDataRequestUpdate,
  type QuoteAddress,
  QuoteBody,
  type QuoteError,
  type QuoteReply,
} from '../../contracts';
import { quotedTransactionInfo, shippingOptionParameters } from '../../contracts/payment-data-request';
import { invalidRequest } from '../../common/http/errors';
import { type Failure, type Result, err, ok } from '../../common/result';
import { randomId } from '../../common/secrets';
import { recordLatestQuote } from '../store/quotes';
import { findSession, type SessionRow } from '../store/sessions';
import { askQuoteEndpoint, logQuoteFailure, type MerchantQuoteDependencies, quoteAddressOf, quoteRequest } from './merchant-quotes';
import { merchantPriceOfPayment } from './merchant-payment-price';
import { type PaymentPrice, priceAnswer, quoteMismatch, sheetUpdate } from './quote-pricing';
import { conflictFor } from './states';
import { quotePricingOf, requestedAmountOf, shippingOf } from './sessions';

/** A session's latest quote, as stored: what it priced (the option, for an address in `country`) and its `total` (amount + the option's). */
const ShippingQuote = z.object({ id: z.string(), option_id: z.string(), total: z.number().int(), country: z.string(), created: z.number().int() });
type ShippingQuote = z.infer<typeof ShippingQuote>;

/** The statuses a session is quoted in: those a payment can claim it from, with no attempt in flight or paid. */
const QUOTABLE = ['open', 'declined', 'failed'] as const;

const latestQuoteOf = (session: SessionRow): ShippingQuote | undefined => (session.latest_quote ? ShippingQuote.parse(JSON.parse(session.latest_quote)) : undefined);

/** The session's delivery options; empty when its price is its amount alone. */
const shippingOptionsOf = (session: SessionRow): readonly AskedShippingOption[] => shippingOf(session)?.options ?? [];

/**
 * POST /api/sessions/{id}/quote: the price of what the sheet now shows, as an update for Google: by the session's
 * delivery options, or by the merchant's quote endpoint for a session created with `quote_endpoint`. An address
 * the session does not deliver to is the sheet's error (still a reply: Google shows it), never a quote.
 */
export async function quoteSession(deps: MerchantQuoteDependencies, session: SessionRow, body: unknown): Promise<Result<QuoteReply, Failure>> {
  const parsed = QuoteBody.safeParse(body);
  if (!parsed.success) return err(invalidRequest(parsed.error));
  const data = parsed.data.intermediate_payment_data;
  const merchantPriced = quotePricingOf(session) !== null;
  const options = shippingOptionsOf(session);
  if (!merchantPriced && options.length === 0) return err({ code: 'invalid_request', message: 'This checkout has no delivery options: its price is its amount, with nothing to quote' });
  if (!(QUOTABLE as readonly string[]).includes(session.status)) return err(conflictFor(session.status, 'This checkout cannot take a payment now'));
  const shipping = shippingOf(session);
  const country = data.shippingAddress?.countryCode;
  if (shipping && country === undefined) return err({ code: 'invalid_request', message: 'intermediate_payment_data.shippingAddress: this checkout asks for a shipping address, and none was given' });
  if (shipping && country !== undefined && !shipping.countries.includes(country)) return ok(unserviceable(`This shop does not deliver to ${country}: choose another address`));
  // A session with options asks for an address: its country is known (checked above).
  const quoted = merchantPriced ? await quoteByMerchant(deps, session, data) : quoteByOptions(session, options, country ?? '', data.shippingOptionData?.id);
  if ('reply' in quoted) return ok(quoted.reply);
  if (!(await recordLatestQuote(deps.store, session.id, QUOTABLE, JSON.stringify(quoted.quote), askedNoLaterThan(quoted.quote.created)))) {
    const current = await findSession(deps.store, session.id);
    return err(conflictFor(current?.status, 'This checkout cannot take a payment now'));
  }
  return ok({ quote_id: quoted.quote.id, update: quoted.update });
}

/** A quote to store (`created`: when it was asked), and the sheet's update for it; or a reply that made no quote (an error the sheet shows). */
type Quoted = { quote: { id: string; created: number }; update: PaymentDataRequestUpdate } | { reply: QuoteReply };

/**
 * Whether a quote asked at `created` replaces the stored one: only one asked no later. The widget keeps the
 * quote of the shopper's newest change (web/checkout/quote-decide.ts), and the payment must name the latest:
 * an older change's answer that arrives after a newer one's must not become it.
 */
const askedNoLaterThan = (created: number) => (stored: string) => z.object({ created: z.number() }).parse(JSON.parse(stored)).created <= created;

const unserviceable = (message: string): QuoteReply => ({ quote_id: null, update: { error: { reason: 'SHIPPING_ADDRESS_UNSERVICEABLE', intent: 'SHIPPING_ADDRESS', message } } });

/** The session's own options for the address's country: the one the sheet shows if offered there, else the first. */
function quoteByOptions(session: SessionRow, options: readonly AskedShippingOption[], country: string, shown: string | undefined): Quoted {
  const offered = optionsFor(options, country);
  const [first] = offered;
  if (!first) return { reply: unserviceable(`This shop does not deliver to ${country}: choose another address`) };
  // An option the address has not got (the shopper moved to a country with fewer) falls back to the first it has.
  const chosen = offered.find((option) => option.id === shown) ?? first;
  const quote: ShippingQuote = { id: newQuoteId(), option_id: chosen.id, total: session.amount + chosen.amount, country, created: Date.now() };
  return { quote, update: { newTransactionInfo: quotedTransactionInfo(requestedAmountOf(session), { option: chosen }), newShippingOptionParameters: shippingOptionParameters(offered, chosen.id) } };
}

const newQuoteId = () => `qt_${randomId(16)}`;

/** The sheet's placeholder when no option is chosen yet (Google's, before the first quote selects one). */
const UNSELECTED_OPTION = 'shipping_option_unselected';

/**
 * The merchant's quote endpoint's price for the sheet's redacted address, option and codes. Its refusal of the
 * address is the sheet's error on it; no usable answer is Google's OTHER_ERROR on the part that changed.
 */
async function quoteByMerchant(deps: MerchantQuoteDependencies, session: SessionRow, data: IntermediatePaymentData): Promise<Quoted> {
  const shipping = shippingOf(session);
  const address = shipping && data.shippingAddress;
  const shown = data.callbackTrigger === 'INITIALIZE' ? undefined : data.shippingOptionData?.id;
  const option = (shipping?.options.length ?? 0) > 0 && shown !== undefined && shown !== UNSELECTED_OPTION ? shown : null;
  const codes = quotePricingOf(session)?.promotion_codes ? (data.offerData?.redemptionCodes ?? []) : [];
  const question = { address: address ? redactedAddress(address) : null, option, codes };
  const request = quoteRequest(session, 'sheet', newQuoteId(), question);
  const failed = { reply: { quote_id: null, update: { error: { reason: 'OTHER_ERROR', intent: failureIntent(data.callbackTrigger, shipping !== null), message: 'The shop could not price this just now: try again' } } } } satisfies Quoted;
  const answered = await askQuoteEndpoint(deps, session.app_id, request);
  if (!answered.ok) return failed;
  if ('error' in answered.value) {
    if (shipping) return { reply: unserviceable(answered.value.error.message) };
    logQuoteFailure(deps, request, 'the answer refuses the shipping address of a session that asks for none');
    return failed;
  }
  const priced = priceAnswer(session, answered.value, { ...question, country: address?.countryCode ?? null }, request);
  if (!priced.ok) {
    logQuoteFailure(deps, request, priced.error);
    return failed;
  }
  return { quote: priced.value.quote, update: sheetUpdate(session, priced.value) };
}

/** The sheet's address as Google gives the callback: country, region, city and a shortened postal code. */
const redactedAddress = (address: NonNullable<IntermediatePaymentData['shippingAddress']>): QuoteAddress =>
  quoteAddressOf(address.countryCode, { state: address.administrativeArea, city: address.locality, postal_code: address.postalCode });

/** The part of the sheet an error answering `trigger` is shown on: one the session's request declared (payment-data-request.ts). */
function failureIntent(trigger: IntermediatePaymentData['callbackTrigger'], asksShipping: boolean): QuoteError['intent'] {
  if (trigger === 'SHIPPING_OPTION' || trigger === 'OFFER') return trigger;
  return trigger === 'SHIPPING_ADDRESS' || asksShipping ? 'SHIPPING_ADDRESS' : 'OFFER';
}

/**
 * What a payment of the session charges: its amount; with delivery options, its latest quote's total, and only
 * when the payment is for that quote (its id, its option, an address the option serves); with the merchant's quote
 * endpoint, its latest quote's, checked again there with the full address (merchant-payment-price.ts). Anything
 * else was written by the page or is stale: refused before anything is charged.
 */
export async function priceOfPayment(deps: MerchantQuoteDependencies, session: SessionRow, quoteId: string | undefined, paymentData: PaymentData): Promise<Result<PaymentPrice, Failure>> {
  if (quotePricingOf(session)) return merchantPriceOfPayment(deps, session, quoteId, paymentData);
  const options = shippingOptionsOf(session);
  // Without options the price is the session's: a quote_id is ignored.
  if (options.length === 0) return ok({ columns: { amount_charged: session.amount, shipping_option: null, charged_quote: null } });
  const latest = latestQuoteOf(session);
  if (quoteId === undefined) return err(quoteMismatch('quote_id: this checkout prices its delivery options, so the payment must name its latest quote'));
  if (!latest || latest.id !== quoteId) return err(quoteMismatch('quote_id: not the latest quote of this checkout, whose delivery was quoted again since: choose your delivery option again'));
  const option = options.find((candidate) => candidate.id === latest.option_id);
  if (!option || paymentData.shippingOptionData?.id !== option.id) return err(quoteMismatch("payment_data.shippingOptionData: the delivery option is not the latest quote's: choose your delivery option again"));
  const country = paymentData.shippingAddress?.countryCode;
  if (country === undefined || optionsFor([option], country).length === 0) {
    return err(quoteMismatch(`${option.label} does not deliver to ${country ?? 'this address'}: choose another delivery option or address`));
  }
  const chosen: ChosenShippingOption = { id: option.id, label: option.label, amount: option.amount };
  return ok({ columns: { amount_charged: latest.total, shipping_option: JSON.stringify(chosen), charged_quote: null }, quote: session.latest_quote ?? undefined });
}
