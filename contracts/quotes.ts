/**
 * The relay of a session with delivery options (POST /api/sessions/{id}/quote): the widget hands the
 * server what Google's onPaymentDataChanged gave it, and hands Google back the server's answer
 * unchanged. The server prices it; the page only carries it (docs/api.md#delivery-options-priced-by-the-server).
 */
import { z } from 'zod';
import { CountryCode } from './country';
import { DisplayItem, OfferInfo, ShippingOptionParameters } from './google-pay';

/**
 * Google's IntermediatePaymentData: what changed in the sheet, the address redacted (country, postal code,
 * region, city). Known fields are read; any other is dropped, as Google adds fields over time.
 */
export const IntermediatePaymentData = z
  .object({
    callbackTrigger: z.enum(['INITIALIZE', 'SHIPPING_ADDRESS', 'SHIPPING_OPTION', 'OFFER', 'PAYMENT_METHOD']),
    shippingAddress: z
      .object({
        countryCode: z.string().transform((code) => code.toUpperCase()).pipe(CountryCode),
        postalCode: z.string().max(20).optional(),
        administrativeArea: z.string().max(100).optional(),
        locality: z.string().max(100).optional(),
      })
      .optional(),
    shippingOptionData: z.object({ id: z.string().max(100) }).optional(),
    offerData: z.object({ redemptionCodes: z.array(z.string().max(100)).max(20) }).optional(),
  })
  .meta({ id: 'IntermediatePaymentData' });
export type IntermediatePaymentData = z.infer<typeof IntermediatePaymentData>;

export const QuoteBody = z.strictObject({ intermediate_payment_data: IntermediatePaymentData }).meta({ id: 'QuoteBody' });
export type QuoteBody = z.infer<typeof QuoteBody>;

/** The total as the quote prices it: FINAL, the options' price on its SHIPPING_OPTION line. Only Google's updatable fields change. */
export const QuotedTransactionInfo = z.object({
  currencyCode: z.string(),
  countryCode: z.string(),
  totalPriceStatus: z.literal('FINAL'),
  totalPrice: z.string(),
  displayItems: z.array(DisplayItem),
});
export type QuotedTransactionInfo = z.infer<typeof QuotedTransactionInfo>;

/** Google's PaymentDataError: the sheet shows `message` on the part that `intent` names. */
export const QuoteError = z.object({
  reason: z.enum(['SHIPPING_ADDRESS_UNSERVICEABLE', 'SHIPPING_OPTION_INVALID', 'OFFER_INVALID', 'OTHER_ERROR']),
  message: z.string(),
  intent: z.enum(['SHIPPING_ADDRESS', 'SHIPPING_OPTION', 'OFFER']),
});
export type QuoteError = z.infer<typeof QuoteError>;

/**
 * Google's PaymentDataRequestUpdate, as onPaymentDataChanged resolves with it: the new total, the options and the
 * codes applied, and an error the sheet shows beside them (a refused code leaves the rest of the quote standing);
 * or the error alone when nothing could be priced.
 */
export const PaymentDataRequestUpdate = z
  .object({
    newTransactionInfo: QuotedTransactionInfo.optional(),
    newShippingOptionParameters: ShippingOptionParameters.optional(),
    newOfferInfo: OfferInfo.optional(),
    error: QuoteError.optional(),
  })
  .meta({ id: 'PaymentDataRequestUpdate' });
export type PaymentDataRequestUpdate = z.infer<typeof PaymentDataRequestUpdate>;

/**
 * The reply to POST /api/sessions/{id}/quote (always 200 once the session may be paid): `update` for Google, and
 * `quote_id` to send with the payment; null when `update` is an error (no quote was made).
 */
export const QuoteReply = z.object({ quote_id: z.string().nullable(), update: PaymentDataRequestUpdate }).meta({ id: 'QuoteReply' });
export type QuoteReply = z.infer<typeof QuoteReply>;
