/**
 * The sandbox issuer's address verification (AVS): the billing address a
 * charge request sends against the cardholder's address the issuer has on
 * record, which the test card decides (test-cards.ts), for the first line and
 * the postal code, as card issuers answer it. The result comes back on the
 * charge (`address_line1_check`, `address_postal_code_check`:
 * docs/service-conventions.md#address-verification).
 *
 * The sandbox compares each field whole, case, spacing and punctuation aside,
 * and a US ZIP+4 as its ZIP; many real issuers compare only the numbers of the
 * first line (the house number). Either way the comparison is the issuer's: the
 * shopper's browser supplies the address but cannot see or change the record.
 */
import type { AddressCheckResult, BillingDetails } from '../contracts';

/** The cardholder's address as an issuer keeps it for verification. */
export interface IssuerAddress {
  line1: string;
  postal_code: string;
}

/** The sandbox cardholder's address: the sandbox wallet's default billing address (`matching`, billing-addresses.ts). */
export const SANDBOX_CARDHOLDER_ADDRESS: IssuerAddress = { line1: '1 Sandbox Way', postal_code: '94105' };

export interface AddressChecks {
  address_line1_check: AddressCheckResult | null;
  address_postal_code_check: AddressCheckResult | null;
}

/** Letters and digits, lower case, one space between runs: `1 SANDBOX  WAY.` is `1 sandbox way`. */
const comparableLine = (line: string) =>
  line
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Letters and digits, upper case; a US ZIP+4 as its ZIP. */
const comparablePostalCode = (postalCode: string, country: string) => {
  const compact = postalCode.toUpperCase().replace(/[^\p{L}\p{N}]/gu, '');
  return country.toUpperCase() === 'US' && /^\d{9}$/.test(compact) ? compact.slice(0, 5) : compact;
};

function check(sent: string | undefined, onRecord: string | undefined, comparable: (value: string) => string): AddressCheckResult | null {
  if (sent === undefined || comparable(sent) === '') return null;
  if (onRecord === undefined) return 'unavailable';
  return comparable(sent) === comparable(onRecord) ? 'match' : 'mismatch';
}

/**
 * Each field the request sent: `match` or `mismatch` against the record, `unavailable` when the
 * issuer has none (it does not verify addresses); null for a field not sent.
 */
export function verifyAddress(onRecord: IssuerAddress | null, sent: Pick<BillingDetails, 'address'> | null | undefined): AddressChecks {
  const address = sent?.address;
  const country = address?.country ?? '';
  return {
    address_line1_check: check(address?.line1, onRecord?.line1, comparableLine),
    address_postal_code_check: check(address?.postal_code, onRecord?.postal_code, (code) => comparablePostalCode(code, country)),
  };
}
