/**
 * Express checkout: what a session asks Google Pay's sheet to show (line items) and to ask for (a
 * shipping address, a delivery option, the shopper's e-mail and phone). The goods' price is the
 * session's; a delivery option adds its own, priced by the server for the address's country, never
 * by the page (docs/api.md#line-items-shipping-address-and-contact-details, #delivery-options-priced-by-the-server).
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

/** How many delivery options a session may offer. */
export const MAX_SHIPPING_OPTIONS = 10;

const countryCodes = z.array(z.string().transform((code) => code.toUpperCase()).pipe(CountryCode));
const notBlank = (text: string) => text.trim() !== '';

/**
 * A delivery option the sheet offers, at its price: `amount` (minor units of the session's currency) is
 * added to the session's `amount`. Offered only for addresses in `countries` (all the session's when absent).
 */
export const ShippingOption = z
  .strictObject({
    id: z.string().regex(/^[A-Za-z0-9_-]{1,50}$/, '1 to 50 of A-Z a-z 0-9 _ -'),
    label: z.string().min(1).max(100).refine(notBlank, 'must not be blank'),
    /** What the sheet shows under the label (Google's `description`), such as a delivery time. */
    detail: z.string().max(200).optional(),
    amount: z.number().int().min(0).max(99_999_999_999),
    countries: countryCodes.min(1).max(250).transform((codes) => [...new Set(codes)]).optional(),
  })
  .meta({ id: 'ShippingOption' });
export type ShippingOption = z.infer<typeof ShippingOption>;

/** The shipping address the sheet asks for, in these countries only; its phone too when `phone`; the delivery options offered, the first the default. */
export const ShippingRequest = z
  .strictObject({
    countries: countryCodes
      .min(1)
      .max(250)
      .transform((codes) => [...new Set(codes)]),
    phone: z.boolean().default(false),
    options: z.array(ShippingOption).min(1).max(MAX_SHIPPING_OPTIONS).optional(),
  })
  .superRefine((shipping, ctx) => {
    const ids = new Set<string>();
    shipping.options?.forEach((option, index) => {
      if (ids.has(option.id)) ctx.addIssue({ code: 'custom', path: ['options', index, 'id'], message: `${option.id} is the id of an option before it: ids must be unique` });
      ids.add(option.id);
      const outside = option.countries?.filter((country) => !shipping.countries.includes(country)) ?? [];
      if (outside.length > 0) ctx.addIssue({ code: 'custom', path: ['options', index, 'countries'], message: `${outside.join(', ')} is not one of shipping.countries: an option serves only countries the session ships to` });
    });
  })
  .meta({ id: 'ShippingRequest' });
export type ShippingRequest = z.infer<typeof ShippingRequest>;

/** The shopper's e-mail and the billing address's phone number, each asked for only when true. */
export const ContactRequest = z.strictObject({ email: z.boolean().default(false), phone: z.boolean().default(false) }).meta({ id: 'ContactRequest' });
export type ContactRequest = z.infer<typeof ContactRequest>;

/** A delivery option as stored and shown on the merchant's view. */
export const AskedShippingOption = z
  .object({ id: z.string(), label: z.string(), detail: z.string().optional(), amount: z.number().int(), countries: z.array(z.string()).optional() })
  .meta({ id: 'AskedShippingOption' });
export type AskedShippingOption = z.infer<typeof AskedShippingOption>;
/** The delivery option a payment was for, as the session's quote priced it. */
export const ChosenShippingOption = z.object({ id: z.string(), label: z.string(), amount: z.number().int() }).meta({ id: 'ChosenShippingOption' });
export type ChosenShippingOption = z.infer<typeof ChosenShippingOption>;
/**
 * The merchant's view of what the sheet was asked for: the requests as stored (countries upper case, without repeats).
 * `options`: the delivery options the sheet offers, the first the default; empty when the price is the session's alone.
 */
export const AskedShipping = z.object({ countries: z.array(z.string()), phone: z.boolean(), options: z.array(AskedShippingOption) }).meta({ id: 'AskedShipping' });
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

/** What is wrong with a session's delivery options for its currency: each price must be one Google Pay can show, as the amount itself. */
export function shippingOptionsProblems(options: readonly ShippingOption[], currency: string): { path: (string | number)[]; message: string }[] {
  return options.flatMap((option, index) =>
    googlePayPriceOf(option.amount, currency) === undefined
      ? [{ path: ['shipping', 'options', index, 'amount'], message: `${option.amount} is ${amountToDecimal(option.amount, currency)} ${currency}: Google Pay shows at most two decimals, so it must be a multiple of ${googlePayStep(exponentOf(currency))}` }]
      : [],
  );
}

/** The session's options offered for an address in `country`: those serving it (every option without `countries` does), in the session's order. */
export const optionsFor = <T extends { countries?: readonly string[] | undefined }>(options: readonly T[], country: string): T[] =>
  options.filter((option) => option.countries === undefined || option.countries.includes(country));
