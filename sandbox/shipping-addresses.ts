/**
 * The sandbox wallet's shipping addresses (docs/test-cards.md#shipping-addresses): fictional, in
 * several countries, so that an express checkout's tests can pick one its merchant serves, one in a
 * country a typical merchant does not ship to (it answers SHIPPING_ADDRESS_UNSERVICEABLE), and one
 * that a request's allowedCountryCodes hides. Their postal codes are long enough to show Google's
 * redaction (a ZIP+4, the UK's and Canada's full codes). Picked in the sheet, or by
 * `shipping_address_id` on POST /sandbox/wallet/tokens.
 */
import type { WalletShippingAddress } from '../contracts';

export const walletShippingAddresses: readonly WalletShippingAddress[] = [
  {
    id: 'us-home',
    label: 'Home, San Francisco (US)',
    address: {
      name: 'Sandbox Shopper',
      address1: '1 Sandbox Way',
      address2: 'Apt 4',
      locality: 'San Francisco',
      administrativeArea: 'CA',
      postalCode: '94105-1234',
      countryCode: 'US',
      phoneNumber: '+1 415-555-0100',
    },
  },
  {
    id: 'gb-office',
    label: 'Office, London (GB)',
    address: { name: 'Sandbox Shopper', address1: '10 Example Street', locality: 'London', postalCode: 'SW1A 2AA', countryCode: 'GB', phoneNumber: '+44 20 7946 0018' },
  },
  {
    id: 'ca-home',
    label: 'Parents, Toronto (CA)',
    address: { name: 'Sandbox Shopper', address1: '200 Sample Road', locality: 'Toronto', administrativeArea: 'ON', postalCode: 'M5V 2T6', countryCode: 'CA', phoneNumber: '+1 416-555-0142' },
  },
  {
    id: 'au-remote',
    label: 'Cabin, Alice Springs (AU): a country a typical test merchant does not ship to',
    address: { name: 'Sandbox Shopper', address1: '7 Placeholder Track', locality: 'Alice Springs', administrativeArea: 'NT', postalCode: '0870', countryCode: 'AU', phoneNumber: '+61 491 570 006' },
  },
  {
    id: 'jp-tokyo',
    label: 'Hotel, Tokyo (JP): hidden where allowedCountryCodes leaves JP out',
    address: { name: 'Sandbox Shopper', address1: '1-2-3 Sample-cho', locality: 'Chiyoda-ku', administrativeArea: 'Tokyo', postalCode: '100-0001', countryCode: 'JP', phoneNumber: '+81 3-5555-0100' },
  },
];
