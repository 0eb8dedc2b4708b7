/**
 * What the sandbox service shares with its clients: the key a backend calls it
 * with, and what its wallet's server side tells the wallet's script
 * (sandbox/pay-js) and the tests, the cards its sheet offers.
 */
import { z } from 'zod';
import { AuthMethod, CardNetwork, PaymentData, PaymentDataRequest, WalletAddress } from './google-pay';

/** A sandbox service key; `sk_sandbox_` so that NODE_ENV=production refuses it as a payment service key. */
export const SandboxServiceKey = z.string().regex(/^sk_sandbox_[A-Za-z0-9_-]{32,}$/, 'sk_sandbox_ followed by at least 32 characters of A-Z a-z 0-9 _ -');

/** What the issuer answers once any 3-D Secure it asks for is done. */
export const CardOutcome = z.enum(['success', 'card_declined', 'insufficient_funds', 'expired_card', 'processing_error', 'invalid_number']);
export type CardOutcome = z.infer<typeof CardOutcome>;

/** How an Authentication Session on a card runs: the issuer asks the shopper, or decides alone. */
export const ThreeDsFlow = z.enum(['challenge', 'frictionless']);
export type ThreeDsFlow = z.infer<typeof ThreeDsFlow>;

export const WalletCard = z
  .object({
    id: z.string(),
    label: z.string(),
    network: CardNetwork,
    last4: z.string(),
    auth_method: AuthMethod,
    outcome: CardOutcome,
    /** PAN_ONLY cards the issuer authenticates first, and how; null otherwise. */
    three_ds: ThreeDsFlow.nullable(),
  })
  .meta({ id: 'SandboxWalletCard' });
export type WalletCard = z.infer<typeof WalletCard>;

/** One of the fictional billing addresses the sandbox wallet offers (docs/test-cards.md#billing-addresses). */
export const WalletBillingAddress = z.object({ id: z.string(), label: z.string(), address: WalletAddress }).meta({ id: 'SandboxWalletBillingAddress' });
export type WalletBillingAddress = z.infer<typeof WalletBillingAddress>;

/** GET /sandbox/wallet/cards: what the sandbox wallet's sheet offers, the cards and the billing addresses (the first is the default). */
export const WalletCardsReply = z.object({ cards: z.array(WalletCard), billing_addresses: z.array(WalletBillingAddress) }).meta({ id: 'SandboxWalletCards' });
export type WalletCardsReply = z.infer<typeof WalletCardsReply>;

/** POST /sandbox/wallet/tokens: what the sheet sends once the shopper picked a card (`id` of GET /sandbox/wallet/cards). */
export const WalletTokenRequest = z
  .strictObject({
    card_id: z.string().min(1).max(100),
    /** One of GET /sandbox/wallet/cards' `billing_addresses`; the first when absent. */
    billing_address_id: z.string().min(1).max(100).optional(),
    payment_data_request: PaymentDataRequest,
  })
  .meta({ id: 'SandboxWalletTokenRequest' });
export type WalletTokenRequest = z.infer<typeof WalletTokenRequest>;

/** The reply to POST /sandbox/wallet/tokens: the PaymentData the real wallet would return, with a real ECv2 token. */
export const WalletTokenReply = z.object({ payment_data: PaymentData }).meta({ id: 'SandboxWalletToken' });
export type WalletTokenReply = z.infer<typeof WalletTokenReply>;
