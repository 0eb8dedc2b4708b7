/** The sandbox wallet sheet's small DOM helpers, shared by its card part (index.ts) and its express part (express-view.ts). */
import type { WalletAddress } from '../../contracts';
import { usableLocale } from '../../contracts/locale';

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
  const decimals = price.split('.')[1]?.length ?? 0;
  try {
    // The browser's language, or English where it reports none ("C": ICU's root locale would show "$ 24.00").
    return new Intl.NumberFormat(usableLocale(navigator.language) ?? 'en', { style: 'currency', currency: currencyCode, minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(price as `${number}`);
  } catch {
    return `${price} ${currencyCode}`;
  }
}

export function formatAddress(a: WalletAddress): string {
  const cityLine = [a.locality, a.administrativeArea, a.postalCode].filter(Boolean).join(', ');
  return [a.name, a.address1, a.address2, a.address3, cityLine, a.countryCode].filter(Boolean).join('\n');
}
