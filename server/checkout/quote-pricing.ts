/**
 * A merchant's quote turned into a price (docs/express-checkout.md#the-merchants-quote-endpoint): the option
 * chosen among those it offers, its tax, the promotion codes it accepts, and the total they make with the
 * session's amount, each part a price Google Pay can show. Pure: the sheet's quotes (quotes.ts) and the
 * payment's check (merchant-payment-price.ts) price an answer the same way.
 */
import { z } from 'zod';
import { type PaymentDataRequestUpdate, type QuoteAnswer, type QuotedPromotionCode, type QuoteRequest, SessionQuote } from '../../contracts';
import { googlePayPriceOf } from '../../contracts/currency';
import { quotedTransactionInfo, quoteTotal, shippingOptionParameters } from '../../contracts/payment-data-request';
import { type Failure, type Result, err, ok } from '../../common/result';
import type { SessionRow } from '../store/sessions';
import { quotePricingOf, requestedAmountOf, shippingOf } from './sessions';

/**
 * A session's latest quote from its merchant's endpoint, as stored (sessions.latest_quote): what the merchant's
 * view shows once it is charged (SessionQuote), the ids of the options it offered, and the country it priced.
 */
export const MerchantQuote = SessionQuote.extend({ offered: z.array(z.string()), country: z.string().nullable() });
export type MerchantQuote = z.infer<typeof MerchantQuote>;

/** An answer that prices (not a refusal of the address). */
export type QuotePrice = Exclude<QuoteAnswer, { error: unknown }>;

/** What the sheet asked to price: the option it shows (null: none yet), the codes entered, the address's country (null: no address asked). */
export interface QuoteAsked {
  option: string | null;
  codes: readonly string[];
  country: string | null;
}

/** A price made of a merchant's answer: the quote to store, the options to list, and the codes sent that it did not accept. */
export interface PricedQuote {
  quote: MerchantQuote;
  options: NonNullable<QuotePrice['shipping_options']>;
  refused: string[];
}

/** The largest total a session can be charged, as its amount (CreateSessionBody). */
const MAX_TOTAL = 99_999_999_999;

/**
 * Prices `answer` for the session: the option the sheet shows if the answer offers it, else its first;
 * why it cannot be charged otherwise (an answer without the options a session with options needs, or with
 * options it cannot show, a code that was not sent, a part Google Pay cannot show, a total out of bounds).
 */
export function priceAnswer(session: SessionRow, answer: QuotePrice, asked: QuoteAsked, request: Pick<QuoteRequest, 'id' | 'created'>): Result<PricedQuote, string> {
  const withOptions = (shippingOf(session)?.options ?? []).length > 0;
  const options = answer.shipping_options ?? [];
  if (withOptions && options.length === 0) return err('the session offers delivery options, and the answer has no shipping_options');
  if (!withOptions && options.length > 0) return err('the session offers no delivery options, and the answer has shipping_options');
  if (new Set(options.map((option) => option.id)).size !== options.length) return err('two shipping_options have one id');
  const codes = answer.promotion_codes;
  if (codes.some((code) => !asked.codes.includes(code.code))) return err('the answer accepts a promotion code that was not sent');
  if (new Set(codes.map((code) => code.code)).size !== codes.length) return err('the answer accepts one promotion code twice');
  const chosen = options.find((option) => option.id === asked.option) ?? options[0];
  const parts = { option: chosen, tax: answer.tax, discounts: codes };
  const amounts = [chosen?.amount ?? 0, answer.tax, ...codes.map((code) => code.amount)];
  if (amounts.some((amount) => googlePayPriceOf(amount, session.currency) === undefined)) return err(`a price Google Pay cannot show in ${session.currency} (more decimals than two)`);
  const total = quoteTotal(session.amount, parts);
  if (total <= 0 || total > MAX_TOTAL) return err(`a total out of bounds (${total <= 0 ? 'not above 0' : `above ${MAX_TOTAL}`})`);
  const quote: MerchantQuote = {
    id: request.id,
    shipping_option: chosen ? { id: chosen.id, label: chosen.label, amount: chosen.amount } : null,
    tax: answer.tax,
    promotion_codes: codes,
    total,
    // When it was asked: of two quotes, the one asked later is the latest, whichever answer came first (quotes.ts).
    created: request.created,
    offered: options.map((option) => option.id),
    country: asked.country,
  };
  return ok({ quote, options, refused: asked.codes.filter((code) => !codes.some((accepted) => accepted.code === code)) });
}

/**
 * The sheet's update for a priced quote: the FINAL total with its lines, the options offered (the chosen
 * one selected), the codes applied; a code refused is Google's OFFER_INVALID beside them, the rest standing.
 */
export function sheetUpdate(session: SessionRow, { quote, options, refused }: PricedQuote): PaymentDataRequestUpdate {
  const chosen = quote.shipping_option ?? undefined;
  return {
    newTransactionInfo: quotedTransactionInfo(requestedAmountOf(session), { option: chosen, tax: quote.tax, discounts: quote.promotion_codes }),
    ...(chosen && { newShippingOptionParameters: shippingOptionParameters(options, chosen.id) }),
    ...(quotePricingOf(session)?.promotion_codes && { newOfferInfo: { offers: quote.promotion_codes.map(offerOf) } }),
    ...(refused.length > 0 && { error: { reason: 'OFFER_INVALID', intent: 'OFFER', message: `${refused.length === 1 ? 'This code does' : 'These codes do'} not apply to this order: ${refused.join(', ')}` } }),
  };
}

const offerOf = (code: QuotedPromotionCode) => ({ redemptionCode: code.code, description: code.label });

/** The codes of a payment or a quote, in one order: the sheet lists them in the order they were entered, which says nothing of the price. */
export const sortedCodes = (codes: readonly string[]): string[] => [...codes].sort();

/**
 * What a payment of the session charges, as written on the session when the attempt is claimed (the option it is
 * for and the merchant's quote it charges, each null without), and the latest quote it was priced by (as stored),
 * which the claim requires unchanged; `quote` is undefined when the price is the session's amount alone.
 */
export interface PaymentPrice {
  columns: { amount_charged: number; shipping_option: string | null; charged_quote: string | null };
  quote?: string;
}

/** A payment that is not for the session's latest quote: refused before anything is charged. */
export const quoteMismatch = (message: string): Failure => ({ code: 'quote_mismatch', message });
