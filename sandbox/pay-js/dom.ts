/** The sandbox wallet sheet's small DOM helpers, shared by its card part (index.ts) and its express part (express-view.ts). */
import type { WalletAddress } from '../../contracts';
import { usableLocale } from '../../contracts/locale';
import { amountForText, directionOfLocale, showAmount } from '../../common/browser/amount-direction';

type Child = Node | string | null | undefined | false;
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) if (c) node.append(c);
  return node;
}

/**
 * A price with exactly the decimals it was given, as the merchant's currency table wrote them: ICU's
 * digits for the currency (IQD 0 where ISO says 3) would show a different amount from the one charged.
 */
export function formatPrice(price: string | undefined, currencyCode: string | undefined): string {
  if (price === undefined || currencyCode === undefined) return '';
  const locale = sheetLocale();
  const decimals = price.split('.')[1]?.length ?? 0;
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency: currencyCode, minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(price as `${number}`);
  } catch {
    return `${price} ${currencyCode}`;
  }
}

/** The browser's language, or English where it reports none ("C": ICU's root locale would show "$ 24.00"). */
const sheetLocale = () => usableLocale(navigator.language) ?? 'en';

/** A price (formatPrice's) for a sentence of the sheet, isolated when written right to left (common/browser/amount-direction.ts). */
export const priceText = (price: string | undefined, currencyCode: string | undefined): string => amountForText(formatPrice(price, currencyCode), directionOfLocale(sheetLocale()));

/** A price (formatPrice's) in a `tag` of its own, in its locale's direction whatever the sheet's, so that Arabic's "US$" stays whole. */
export function priceIn(tag: 'strong' | 'span', price: string | undefined, currencyCode: string | undefined): HTMLElement {
  const node = el(tag);
  showAmount(node, formatPrice(price, currencyCode), directionOfLocale(sheetLocale()));
  return node;
}

export function formatAddress(a: WalletAddress): string {
  const cityLine = [a.locality, a.administrativeArea, a.postalCode].filter(Boolean).join(', ');
  return [a.name, a.address1, a.address2, a.address3, cityLine, a.countryCode].filter(Boolean).join('\n');
}
