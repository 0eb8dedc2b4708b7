/**
 * The sandbox wallet's billing addresses (docs/test-cards.md#billing-addresses):
 * clearly fictional, so nobody mistakes a sandbox charge's billing details for
 * a shopper's. Picked with a test card in the sheet, or by `billing_address_id`
 * on POST /sandbox/wallet/tokens; the first is the default. Each gives a
 * different billing address check against TYPICAL_ADDRESS_ON_FILE.
 */
import type { BillingDetails, WalletBillingAddress } from '../contracts';

export const walletBillingAddresses: readonly WalletBillingAddress[] = [
  {
    id: 'matching',
    label: 'Home (matches the typical address on file)',
    address: {
      name: 'Sandbox Shopper',
      address1: '1 Sandbox Way',
      address2: 'Suite 200',
      locality: 'San Francisco',
      administrativeArea: 'CA',
      postalCode: '94105',
      countryCode: 'US',
      phoneNumber: '+1 415-555-0100',
    },
  },
  {
    id: 'mismatching',
    label: 'Work (another street and postal code)',
    address: {
      name: 'Sandbox Shopper',
      address1: '500 Elsewhere Avenue',
      locality: 'Portland',
      administrativeArea: 'OR',
      postalCode: '97201',
      countryCode: 'US',
      phoneNumber: '+1 503-555-0199',
    },
  },
  {
    id: 'no-postal-code',
    label: 'Home, without a postal code',
    address: { name: 'Sandbox Shopper', address1: '1 Sandbox Way', locality: 'San Francisco', countryCode: 'US', phoneNumber: '+1 415-555-0100' },
  },
];

/**
 * A merchant's file for the sandbox shopper, typed as people type: upper case, the
 * suffix spelt out, a ZIP+4. `matching` matches it, `mismatching` does not, `no-postal-code` partly.
 */
export const TYPICAL_ADDRESS_ON_FILE: BillingDetails = {
  name: 'Sandbox Shopper',
  address: { line1: '1 SANDBOX WAY', line2: 'Suite 200', city: 'San Francisco', state: 'CA', postal_code: '94105-1234', country: 'US' },
};
