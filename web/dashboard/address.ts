/** A stored address on one line, as the payment's page shows the billing and the shipping address alike. */
import type { StoredAddress } from '../../contracts';
import type { DashboardMessages } from './locales';

export function addressText(t: DashboardMessages, stored: StoredAddress | null | undefined): string {
  if (!stored) return t.billing.none;
  if ('erased' in stored) return t.billing.erased;
  const { address } = stored;
  return [stored.name, address.line1, address.line2, address.line3, [address.postal_code, address.city].filter(Boolean).join(' '), address.state, address.country].filter(Boolean).join(', ');
}
