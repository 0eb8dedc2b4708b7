/**
 * A merchant's prices by zone, as its quote endpoint computes them (docs/express-checkout.md#the-merchants-quote-endpoint),
 * for the soak's express checkout and the sheet's callback bench: ground or air in the United States, with
 * California's sales tax; international or tracked to Great Britain and Canada; nothing to Australia; one promotion
 * code, 10% off the goods. Each answer comes with the total the merchant expects to be charged for it, which the soak
 * holds the payment service's ledger to.
 */
import type { QuoteAnswer, QuoteRequest } from '../contracts';

/** The countries the sessions priced here ship to (the sandbox wallet has an address in each: docs/test-cards.md#shipping-addresses). */
export const ZONE_COUNTRIES = ['US', 'GB', 'CA', 'AU'] as const;
/** The one code accepted; any other is refused in the sheet. */
export const ZONE_PROMOTION_CODE = 'SAVE10';
/** What the sheet shows until the first quote: the session's own option. */
export const ZONE_OPENING_OPTION = { id: 'ground', label: 'Ground', amount: 500 };

const NORTH_AMERICA = [ZONE_OPENING_OPTION, { id: 'air', label: 'Air', detail: 'Next day', amount: 1500 }];
const OVERSEAS = [
  { id: 'international', label: 'International', amount: 2000 },
  { id: 'tracked', label: 'Tracked', detail: 'Signed for', amount: 3200 },
];
const ZONES: Record<string, typeof NORTH_AMERICA | { refusal: string }> = {
  US: NORTH_AMERICA,
  GB: OVERSEAS,
  CA: OVERSEAS,
  AU: { refusal: 'We do not deliver to Australia yet' },
};
const CALIFORNIA_TAX_BASIS_POINTS = 725;

/** Whether the merchant delivers to `country` (it refuses the address otherwise). */
export const zoneDelivers = (country: string): boolean => Array.isArray(ZONES[country]);

/** The body of a session priced here: `amount` of goods on one line, shipped to ZONE_COUNTRIES, codes allowed. */
export const zoneSessionBody = (amount: number) => ({
  amount,
  currency: 'USD',
  country_code: 'US',
  line_items: [{ label: 'Coffee beans', kind: 'item', amount }],
  shipping: { countries: [...ZONE_COUNTRIES], options: [ZONE_OPENING_OPTION] },
  quote_endpoint: true,
  promotion_codes: true,
});

/** The answer to `request`, and (for a price) the total it makes: the goods, the option shown (else the first), the tax, less the code. */
export function zoneQuote(request: QuoteRequest): { answer: QuoteAnswer; total?: number } {
  const zone = request.shipping_address ? ZONES[request.shipping_address.country] : undefined;
  if (!zone) return { answer: { error: { reason: 'shipping_address_unserviceable', message: 'We do not deliver to this country' } } };
  if ('refusal' in zone) return { answer: { error: { reason: 'shipping_address_unserviceable', message: zone.refusal } } };
  const promotion_codes = request.promotion_codes.includes(ZONE_PROMOTION_CODE) ? [{ code: ZONE_PROMOTION_CODE, label: '10% off', amount: Math.ceil(request.amount / 10) }] : [];
  const goods = request.amount - (promotion_codes[0]?.amount ?? 0);
  const californian = request.shipping_address?.country === 'US' && request.shipping_address.state === 'CA';
  const tax = californian ? Math.round((goods * CALIFORNIA_TAX_BASIS_POINTS) / 10_000) : 0;
  const chosen = zone.find((option) => option.id === request.shipping_option) ?? zone[0]!;
  return { answer: { shipping_options: zone, tax, promotion_codes }, total: goods + chosen.amount + tax };
}
