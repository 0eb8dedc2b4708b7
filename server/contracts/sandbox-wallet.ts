/**
 * What the sandbox wallet's server side tells its script (web/sandbox-wallet)
 * and the tests: the cards its sheet offers.
 */
import type { AuthMethod, CardNetwork, WalletAddress } from './google-pay';

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

/** GET /sandbox/wallet/cards: what the sandbox wallet's sheet offers, and the billing address every card pays with. */
export interface WalletCardsReply {
  cards: WalletCard[];
  billing_address: WalletAddress;
}
