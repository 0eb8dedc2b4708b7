/**
 * The card networks and auth methods the checkout offers, and that the sandbox's test cards cover
 * (docs/test-cards.md). Plain constants, no zod: the sandbox wallet's bundle imports them.
 */
export const authMethods = ['PAN_ONLY', 'CRYPTOGRAM_3DS'] as const;

export const cardNetworks = ['AMEX', 'DISCOVER', 'MASTERCARD', 'VISA'] as const;

/**
 * The card method of every session's request before its application narrows the networks and auth
 * methods (payment-data-request.ts builds each session's from it), less the tokenization, which
 * names the application: what the widget asks the wallet, and draws its button for, before a
 * session's view is here (web/checkout/readiness.ts). The billing address FULL (its first line is
 * what the address check compares), no phone unless the session asks for one.
 */
export const productCardMethod = {
  type: 'CARD' as const,
  parameters: {
    allowedAuthMethods: [...authMethods],
    allowedCardNetworks: [...cardNetworks],
    billingAddressRequired: true,
    billingAddressParameters: { format: 'FULL' as const },
    assuranceDetailsRequired: true,
  },
};
