/**
 * What the demo store charges for delivery, tax and promotion codes: the data its quote endpoint
 * (quote-endpoint.ts) prices every change in the Google Pay sheet with. Amounts in US cents: the
 * product page sells in USD. A country in no zone is not in the sheet; a refused one is, so that
 * the shopper reads why rather than missing the address.
 */

/** A zone's delivery option, as the quote answers it: the first is the sheet's default. */
export interface QuotedOption {
  id: string;
  label: string;
  detail: string;
  amount: number;
}

export type Zone = { name: string; countries: readonly string[] } & ({ options: readonly QuotedOption[] } | { refusal: string });

const DOMESTIC: readonly QuotedOption[] = [
  { id: 'standard', label: 'Standard', detail: '3 to 5 days', amount: 500 },
  { id: 'express', label: 'Express', detail: 'Next day', amount: 1500 },
];

/** What the sheet opens with, until the first quote answers for the shopper's address. */
export const OPENING_OPTIONS = DOMESTIC;

export const ZONES: readonly Zone[] = [
  { name: 'United States', countries: ['US'], options: DOMESTIC },
  {
    name: 'Canada',
    countries: ['CA'],
    options: [
      { id: 'standard', label: 'Standard', detail: '5 to 8 days', amount: 1200 },
      { id: 'tracked', label: 'Tracked', detail: '3 to 4 days', amount: 2000 },
    ],
  },
  {
    name: 'Europe',
    countries: ['GB', 'IE', 'FR', 'DE', 'NL', 'BE', 'ES', 'IT'],
    options: [
      { id: 'international', label: 'International', detail: '6 to 10 days', amount: 1400 },
      { id: 'tracked', label: 'Tracked', detail: '4 to 6 days', amount: 2600 },
    ],
  },
  {
    name: 'Far East',
    countries: ['JP', 'KR', 'SG'],
    options: [{ id: 'international', label: 'International', detail: '10 to 15 days', amount: 2800 }],
  },
  {
    name: 'Oceania',
    countries: ['AU', 'NZ'],
    refusal: 'Demo Coffee Roasters does not deliver to Australia or New Zealand yet',
  },
];

/** US sales tax on the goods (after any discount, delivery untaxed), in basis points, by the address's state. */
export const US_SALES_TAX_BASIS_POINTS: Readonly<Record<string, number>> = { CA: 725, NY: 400, WA: 650 };

/** The promotion codes the store accepts, matched without regard to case; each at most once per order. */
export const PROMOTION_CODES: Readonly<Record<string, { label: string; percentOffGoods: number }>> = {
  WELCOME10: { label: 'Welcome: 10% off', percentOffGoods: 10 },
};
