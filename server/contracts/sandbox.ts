/**
 * What the sandbox service shares with its clients: the key a backend calls it
 * with, and what its wallet's server side tells the wallet's script
 * (web/sandbox-wallet) and the tests, the cards its sheet offers.
 */
import { z } from 'zod';
import type { AuthMethod, CardNetwork, WalletAddress } from './google-pay';

/** A sandbox service key; `sk_sandbox_` so that NODE_ENV=production refuses it as a payment service key. */
export const SandboxServiceKey = z.string().regex(/^sk_sandbox_[A-Za-z0-9_-]{32,}$/, 'sk_sandbox_ followed by at least 32 characters of A-Z a-z 0-9 _ -');

/** What the issuer answers once any 3-D Secure it asks for is done. */
export type CardOutcome = 'success' | 'card_declined' | 'insufficient_funds' | 'expired_card' | 'processing_error' | 'invalid_number';

/** How an Authentication Session on a card runs: the issuer asks the shopper, or decides alone. */
export type ThreeDsFlow = 'challenge' | 'frictionless';

export interface WalletCard {
  id: string;
  label: string;
  network: CardNetwork;
  last4: string;
  auth_method: AuthMethod;
  outcome: CardOutcome;
  /** PAN_ONLY cards the issuer authenticates first, and how; null otherwise. */
  three_ds: ThreeDsFlow | null;
}

/** One of the fictional billing addresses the sandbox wallet offers (docs/test-cards.md#billing-addresses). */
export interface WalletBillingAddress {
  id: string;
  label: string;
  address: WalletAddress;
}

/** GET /sandbox/wallet/cards: what the sandbox wallet's sheet offers, the cards and the billing addresses (the first is the default). */
export interface WalletCardsReply {
  cards: WalletCard[];
  billing_addresses: WalletBillingAddress[];
}
