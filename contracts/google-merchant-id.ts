/**
 * The form of a merchant id Google's Pay & Wallet Console issues: 16 upper-case
 * letters and digits (`BCR2DN4T...`), or 20 digits for older accounts. A plain
 * pattern, free of zod, so that the sandbox wallet checks it as Google does.
 */
export const googleMerchantIdPattern = /^(?:[A-Z0-9]{16}|\d{20})$/;
