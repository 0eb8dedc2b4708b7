/**
 * The card networks and auth methods the checkout offers, and that the sandbox's test cards cover
 * (docs/test-cards.md). Plain constants, no zod: the sandbox wallet's bundle imports them.
 */
export const authMethods = ['PAN_ONLY', 'CRYPTOGRAM_3DS'] as const;

export const cardNetworks = ['AMEX', 'DISCOVER', 'MASTERCARD', 'VISA'] as const;
