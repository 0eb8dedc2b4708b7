/**
 * Delivery options priced by the server (docs/api.md#delivery-options-priced-by-the-server). Each change in
 * Google's sheet (the address's country, the option picked) is relayed here by the widget and answered with
 * the session's price for it, stored as the session's latest quote; a payment must be for that quote, and
 * is charged its total, never a number the page sent.
 */
import { z } from 'zod';
import { type AskedShippingOption, type ChosenShippingOption, optionsFor, type PaymentData, QuoteBody, type QuoteReply } from '../../contracts';
import { quotedTransactionInfo, shippingOptionParameters } from '../../contracts/payment-data-request';
import { invalidRequest } from '../../common/http/errors';
import { type Failure, type Result, err, ok } from '../../common/result';
import { randomId } from '../../common/secrets';
import type { Store } from '../store';
import { recordLatestQuote } from '../store/quotes';
import { findSession, type SessionRow } from '../store/sessions';
import { conflictFor } from './states';
import { requestedAmountOf, shippingOf } from './sessions';

/** A session's latest quote, as stored: what it priced (the option, for an address in `country`) and its `total` (amount + the option's). */
const ShippingQuote = z.object({ id: z.string(), option_id: z.string(), total: z.number().int(), country: z.string(), created: z.number().int() });
type ShippingQuote = z.infer<typeof ShippingQuote>;

/** The statuses a session is quoted in: those a payment can claim it from, with no attempt in flight or paid. */
const QUOTABLE = ['open', 'declined', 'failed'] as const;

const latestQuoteOf = (session: SessionRow): ShippingQuote | undefined => (session.latest_quote ? ShippingQuote.parse(JSON.parse(session.latest_quote)) : undefined);

/** The session's delivery options; empty when its price is its amount alone. */
const shippingOptionsOf = (session: SessionRow): readonly AskedShippingOption[] => shippingOf(session)?.options ?? [];

/**
 * POST /api/sessions/{id}/quote: the price of what the sheet now shows, as an update for Google. An address
 * the session's options do not serve is the sheet's error (still a reply: Google shows it), never a quote.
 */
export async function quoteSession(store: Store, session: SessionRow, body: unknown): Promise<Result<QuoteReply, Failure>> {
  const parsed = QuoteBody.safeParse(body);
  if (!parsed.success) return err(invalidRequest(parsed.error));
  const options = shippingOptionsOf(session);
  if (options.length === 0) return err({ code: 'invalid_request', message: 'This checkout has no delivery options: its price is its amount, with nothing to quote' });
  if (!(QUOTABLE as readonly string[]).includes(session.status)) return err(conflictFor(session.status, 'This checkout cannot take a payment now'));
  const data = parsed.data.intermediate_payment_data;
  const country = data.shippingAddress?.countryCode;
  if (country === undefined) return err({ code: 'invalid_request', message: 'intermediate_payment_data.shippingAddress: this checkout asks for a shipping address, and none was given' });

  const shipsTo = shippingOf(session)?.countries.includes(country) ?? false;
  const offered = shipsTo ? optionsFor(options, country) : [];
  const [first] = offered;
  if (!first) {
    return ok<QuoteReply>({ quote_id: null, update: { error: { reason: 'SHIPPING_ADDRESS_UNSERVICEABLE', intent: 'SHIPPING_ADDRESS', message: `This shop does not deliver to ${country}: choose another address` } } });
  }
  // An option the address has not got (the shopper moved to a country with fewer) falls back to the first it has.
  const chosen = offered.find((option) => option.id === data.shippingOptionData?.id) ?? first;
  const quote: ShippingQuote = { id: `qt_${randomId(16)}`, option_id: chosen.id, total: session.amount + chosen.amount, country, created: Date.now() };
  if (!(await recordLatestQuote(store, session.id, QUOTABLE, JSON.stringify(quote)))) {
    const current = await findSession(store, session.id);
    return err(conflictFor(current?.status, 'This checkout cannot take a payment now'));
  }
  return ok<QuoteReply>({
    quote_id: quote.id,
    update: { newTransactionInfo: quotedTransactionInfo(requestedAmountOf(session), chosen), newShippingOptionParameters: shippingOptionParameters(offered, chosen.id) },
  });
}

/** What a payment is charged, and the option it is for, as written on the session when the attempt is claimed. */
export interface PaymentPrice {
  amount_charged: number;
  /** ChosenShippingOption JSON; null without options. */
  shipping_option: string | null;
}

const mismatch = (message: string): Failure => ({ code: 'quote_mismatch', message });

/**
 * What a payment of the session charges: its amount; with delivery options, its latest quote's total, and only
 * when the payment is for that quote (its id, its option, an address the option serves). Anything else was
 * written by the page or is stale: refused before anything is charged.
 */
export function priceOfPayment(session: SessionRow, quoteId: string | undefined, paymentData: PaymentData): Result<PaymentPrice, Failure> {
  const options = shippingOptionsOf(session);
  // Without options the price is the session's: a quote_id is ignored.
  if (options.length === 0) return ok({ amount_charged: session.amount, shipping_option: null });
  const latest = latestQuoteOf(session);
  if (quoteId === undefined) return err(mismatch('quote_id: this checkout prices its delivery options, so the payment must name its latest quote'));
  if (!latest || latest.id !== quoteId) return err(mismatch('quote_id: not the latest quote of this checkout, whose delivery was quoted again since: choose your delivery option again'));
  const option = options.find((candidate) => candidate.id === latest.option_id);
  if (!option || paymentData.shippingOptionData?.id !== option.id) return err(mismatch("payment_data.shippingOptionData: the delivery option is not the latest quote's: choose your delivery option again"));
  const country = paymentData.shippingAddress?.countryCode;
  if (country === undefined || optionsFor([option], country).length === 0) {
    return err(mismatch(`${option.label} does not deliver to ${country ?? 'this address'}: choose another delivery option or address`));
  }
  const chosen: ChosenShippingOption = { id: option.id, label: option.label, amount: option.amount };
  return ok({ amount_charged: latest.total, shipping_option: JSON.stringify(chosen) });
}
