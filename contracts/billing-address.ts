/**
 * The billing address check: the address the merchant has on file
 * for the customer, the one the wallet returned, and how they compare. The
 * wallet's address travels outside the encrypted token (Google Pay's
 * `paymentMethodData.info`), so the shopper's browser supplies it and can
 * rewrite it: the check compares two addresses, it proves nothing about the
 * card. What the card's issuer says of the address is the address
 * verification (docs/api.md), which the payment service answers with the charge.
 * The addresses are personal data (sealed at rest, erased after the retention
 * period); the check and the verification are not, and stay.
 */
import { z } from 'zod';
import { BillingDetails } from './charges';

/** What stands in for an address once the retention period erased it (PERSONAL_DATA_RETENTION_DAYS, docs/api.md). */
export const ErasedAddress = z.object({
  erased: z.literal(true),
  /** When it was erased (ms since the epoch). */
  erased_at: z.number().int(),
});
export type ErasedAddress = z.infer<typeof ErasedAddress>;

/** An address as the merchant's view shows it: the charge's billing details shape, or the mark of its erasure. */
export const StoredAddress = z.union([BillingDetails, ErasedAddress]);
export type StoredAddress = z.infer<typeof StoredAddress>;

/** One field compared: `unavailable` when either side lacks it (no address on file, none from the wallet, a MIN-format address without a first line). */
export const AddressFieldCheck = z.enum(['match', 'mismatch', 'unavailable']);
export type AddressFieldCheck = z.infer<typeof AddressFieldCheck>;

/**
 * The overall verdict: `match` all three fields match; `partial_match` none
 * mismatches, some could not be compared, at least one matches; `mismatch` at
 * least one field differs; `unavailable` nothing could be compared.
 */
export const AddressVerdict = z.enum(['match', 'partial_match', 'mismatch', 'unavailable']);
export type AddressVerdict = z.infer<typeof AddressVerdict>;

export const BillingAddressCheck = z.object({
  postal_code: AddressFieldCheck,
  line1: AddressFieldCheck,
  country: AddressFieldCheck,
  verdict: AddressVerdict,
});
export type BillingAddressCheck = z.infer<typeof BillingAddressCheck>;

/**
 * The card issuer's address verification (AVS), as the payment service answered it with the
 * latest attempt's charge: the billing address the charge sent (the wallet's) against the
 * cardholder's address at the issuer, for the first line and the postal code. `unavailable`: the
 * issuer did not verify that field (it does not take part, or the wallet gave no such field: a
 * MIN-format address has no first line). docs/api.md#the-card-issuers-address-verification.
 */
export const AddressVerification = z.object({
  line1: AddressFieldCheck,
  postal_code: AddressFieldCheck,
});
export type AddressVerification = z.infer<typeof AddressVerification>;
