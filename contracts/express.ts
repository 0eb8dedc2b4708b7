/**
 * Express checkout's first slice: what a session asks Google Pay's sheet to show (line items) and to
 * ask for (a shipping address, the shopper's e-mail and phone). The price is the session's: nothing
 * the shopper picks in the sheet changes it (docs/api.md#line-items-shipping-address-and-contact-details).
 */
import { z } from 'zod';
import { CountryCode } from './country';
import { amountToDecimal, exponentOf, googlePayPriceOf } from './currency';
import { googlePayStep } from './money';

/** How many line items a session may show. */
export const MAX_LINE_ITEMS = 50;

/** What a line is: an item bought, a tax, a discount (the one kind whose amount is negative), or the shipping cost. */
export const LineItemKind = z.enum(['item', 'tax', 'discount', 'shipping']).meta({ id: 'LineItemKind' });
export type LineItemKind = z.infer<typeof LineItemKind>;

export const LineItem = z
  .strictObject({
    label: z.string().max(100).refine((label) => label.trim() !== '', 'must not be blank'),
    kind: LineItemKind,
    /** Minor units of the session's currency: negative for a discount, zero or more for any other kind. */
    amount: z.number().int().min(-99_999_999_999).max(99_999_999_999),
  })
  .superRefine((item, ctx) => {
    if (item.kind === 'discount' ? item.amount >= 0 : item.amount < 0) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: item.kind === 'discount' ? 'a discount is negative' : `only a discount is negative, not ${item.kind}` });
    }
  })
  .meta({ id: 'LineItem' });
export type LineItem = z.infer<typeof LineItem>;

/** The shipping address the sheet asks for, in these countries only; its phone too when `phone`. */
export const ShippingRequest = z
  .strictObject({
    countries: z
      .array(z.string().transform((code) => code.toUpperCase()).pipe(CountryCode))
      .min(1)
      .max(250)
      .transform((codes) => [...new Set(codes)]),
    phone: z.boolean().default(false),
  })
  .meta({ id: 'ShippingRequest' });
export type ShippingRequest = z.infer<typeof ShippingRequest>;

/** The shopper's e-mail and the billing address's phone number, each asked for only when true. */
export const ContactRequest = z.strictObject({ email: z.boolean().default(false), phone: z.boolean().default(false) }).meta({ id: 'ContactRequest' });
export type ContactRequest = z.infer<typeof ContactRequest>;

/** The merchant's view of what the sheet was asked for: the requests as stored (countries upper case, without repeats). */
export const AskedShipping = z.object({ countries: z.array(z.string()), phone: z.boolean() }).meta({ id: 'AskedShipping' });
export type AskedShipping = z.infer<typeof AskedShipping>;
export const AskedContact = z.object({ email: z.boolean(), phone: z.boolean() }).meta({ id: 'AskedContact' });
export type AskedContact = z.infer<typeof AskedContact>;

/**
 * What is wrong with a session's line items for its amount and currency, each with where: they must add
 * up to the amount, and each must be a price Google Pay can show (googlePayPriceOf, as the amount itself).
 */
export function lineItemsProblems(items: readonly LineItem[], amount: number, currency: string): { path: (string | number)[]; message: string }[] {
  const problems = items.flatMap((item, index) =>
    googlePayPriceOf(Math.abs(item.amount), currency) === undefined
      ? [{ path: ['line_items', index, 'amount'], message: `${item.amount} is ${amountToDecimal(item.amount, currency)} ${currency}: Google Pay shows at most two decimals, so it must be a multiple of ${googlePayStep(exponentOf(currency))}` }]
      : [],
  );
  const sum = items.reduce((total, item) => total + item.amount, 0);
  if (items.length > 0 && sum !== amount) problems.push({ path: ['line_items'], message: `the line items sum to ${sum} but amount is ${amount}: they must add up to it` });
  return problems;
}
