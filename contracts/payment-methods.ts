/**
 * The card networks and auth methods the checkout offers, and that the sandbox's test cards cover
 * (docs/test-cards.md). Plain constants, no zod: the sandbox wallet's bundle imports them.
 */
export const authMethods = ['PAN_ONLY', 'CRYPTOGRAM_3DS'] as const;

export const cardNetworks = ['AMEX', 'DISCOVER', 'MASTERCARD', 'VISA'] as const;

/**
 * The card method every network and auth method of the checkout's makes, as isReadyToPay and
 * createButton take it (no tokenization, which names an application): what the widget asks the
 * wallet, and draws its button for, before a session's view is here (web/checkout/wallet-button.ts).
 * Each session's request (payment-data-request.ts) asks for its application's networks and methods.
 */
export const productCardMethod = { type: 'CARD', parameters: { allowedAuthMethods: authMethods, allowedCardNetworks: cardNetworks } } as const;
