import type { BillingDetails, WalletAddress } from '../../contracts';

/**
 * The wallet's billing address fills the charge's billing fields (rule 2 of the charge API's document).
 * Only the billing address: a shipping address never stands in for it (the merchant's view shows the wallet's
 * shipping address in this same shape, never sent to the service).
 */
export function billingDetailsFrom(address: WalletAddress): BillingDetails {
  const details: BillingDetails = {
    address: {
      line1: address.address1,
      line2: address.address2,
      line3: address.address3,
      city: address.locality,
      state: address.administrativeArea,
      postal_code: address.postalCode,
      sorting_code: address.sortingCode,
      country: address.countryCode,
    },
    name: address.name,
    phone: address.phoneNumber,
  };
  return withoutEmpty(details);
}

/** Drops absent and blank fields so the request carries only what the wallet gave. */
function withoutEmpty<T extends object>(value: T): T {
  // One object filled as it goes: a list of entries per level, made into an object afterwards, took four times as long.
  const kept: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined || field === '') continue;
    kept[key] = typeof field === 'object' && field !== null ? withoutEmpty(field) : field;
  }
  return kept as T;
}
