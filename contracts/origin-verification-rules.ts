/** Platform mode's origin verification rules (docs/platform.md), without zod: the dashboard's page imports them. */

/** Where on an origin the verification file is fetched from. */
export const ORIGIN_VERIFICATION_PATH = '/.well-known/wallet-checkout-verification.txt';

/** A verified origin lapses after this many failed checks in a row (docs/platform.md, "Verifying the merchant's origins"). */
export const ORIGIN_VERIFICATION_LAPSE_AFTER = 3;
