/**
 * What a payment of a session priced by the merchant's quote endpoint charges
 * (docs/express-checkout.md#the-merchants-quote-endpoint): its latest quote's total, when the payment is
 * for that quote (its id, its option, its promotion codes, its country), and when the endpoint, asked once
 * more with the full shipping address the wallet gives only now, prices it the same. Everything here
 * happens before the wallet's token is opened: a refusal leaves the session payable and nothing charged.
 */
import { type PaymentData, type QuoteAddress, SessionQuote } from '../../contracts';
import { type Failure, type Result, err, ok } from '../../common/result';
import { randomId } from '../../common/secrets';
import type { SessionRow } from '../store/sessions';
import { billingDetailsFrom } from './billing';
import { askQuoteEndpoint, logQuoteFailure, type MerchantQuoteDependencies, quoteRequest } from './merchant-quotes';
import { MerchantQuote, type PaymentPrice, priceAnswer, quoteMismatch, sortedCodes } from './quote-pricing';
import { shippingOf } from './sessions';

const unavailable: Failure = { code: 'quote_unavailable', message: 'The shop could not confirm the price for your address just now. Nothing was charged: try again' };

/** The wallet's full shipping address, as the quote endpoint receives it at authorization: the charge's address shape, with the name and without the phone. */
function fullAddress(address: NonNullable<PaymentData['shippingAddress']>): QuoteAddress {
  const { address: lines, name } = billingDetailsFrom(address);
  return name === undefined ? lines : { name, ...lines };
}

const sameCodes = (a: readonly string[], b: readonly string[]) => JSON.stringify(sortedCodes(a)) === JSON.stringify(sortedCodes(b));

export async function merchantPriceOfPayment(deps: MerchantQuoteDependencies, session: SessionRow, quoteId: string | undefined, paymentData: PaymentData): Promise<Result<PaymentPrice, Failure>> {
  const latest = session.latest_quote ? MerchantQuote.parse(JSON.parse(session.latest_quote)) : undefined;
  if (quoteId === undefined) return err(quoteMismatch("quote_id: this checkout is priced by the shop's quotes, so the payment must name its latest quote"));
  if (!latest || latest.id !== quoteId) return err(quoteMismatch('quote_id: not the latest quote of this checkout, which was quoted again since: review your choices and pay again'));
  const option = latest.shipping_option?.id ?? null;
  if ((paymentData.shippingOptionData?.id ?? null) !== option) return err(quoteMismatch("payment_data.shippingOptionData: the delivery option is not the latest quote's: choose your delivery option again"));
  const codes = latest.promotion_codes.map((code) => code.code);
  if (!sameCodes(paymentData.offerData?.redemptionCodes ?? [], codes)) return err(quoteMismatch("payment_data.offerData: the promotion codes are not the latest quote's: review your codes and pay again"));
  // The session's countries were checked by pay before (shipping_country_not_allowed).
  const address = shippingOf(session) ? paymentData.shippingAddress : undefined;
  if ((address?.countryCode ?? null) !== latest.country) return err(quoteMismatch("payment_data.shippingAddress: the address's country is not the latest quote's: choose your address again"));

  const question = { address: address ? fullAddress(address) : null, option, codes };
  const request = quoteRequest(session, 'authorization', `qt_${randomId(16)}`, question);
  const answered = await askQuoteEndpoint(deps, session.app_id, request);
  if (!answered.ok) return err(unavailable);
  if ('error' in answered.value) {
    if (address) return err({ code: 'shipping_address_unserviceable', message: answered.value.error.message });
    logQuoteFailure(deps, request, 'the answer refuses the shipping address of a session that asks for none');
    return err(unavailable);
  }
  const priced = priceAnswer(session, answered.value, { ...question, country: latest.country }, request);
  if (!priced.ok) {
    logQuoteFailure(deps, request, priced.error);
    return err(unavailable);
  }
  const requote = priced.value;
  if (option !== null && !requote.quote.offered.includes(option)) return err(quoteMismatch(`${latest.shipping_option?.label} is not offered for your full address: choose your delivery option again`));
  if (requote.refused.length > 0) return err(quoteMismatch(`The code ${requote.refused.join(', ')} does not apply for your full address: review your codes and pay again`));
  if (requote.quote.total !== latest.total) return err(quoteMismatch('The price for your full address differs: review it and pay again'));
  return ok({
    columns: { amount_charged: latest.total, shipping_option: latest.shipping_option && JSON.stringify(latest.shipping_option), charged_quote: JSON.stringify(SessionQuote.parse(latest)) },
    quote: session.latest_quote ?? undefined,
  });
}
