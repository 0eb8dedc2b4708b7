/**
 * The sandbox's test cards: the one table that decides every charge outcome and
 * that the sandbox wallet offers as cards. docs/test-cards.md documents it; a
 * test keeps the two in step.
 */
import type { AuthMethod, CardNetwork } from '../contracts';

export type FailureCode =
  | 'card_declined'
  | 'insufficient_funds'
  | 'expired_card'
  | 'processing_error'
  | 'authentication_required'
  | 'invalid_number';

export type Outcome = 'success' | FailureCode;

const failureMessages: Record<FailureCode, string> = {
  card_declined: 'The card was declined.',
  insufficient_funds: 'The card has insufficient funds to complete the purchase.',
  expired_card: 'The card has expired.',
  processing_error: 'An error occurred while processing the card. Try again later.',
  authentication_required: 'The card requires 3-D Secure authentication, which the sandbox does not offer yet.',
  invalid_number: 'The card number is not a valid card number.',
};

export interface TestCard {
  /** Stable prefix of the wallet card ids (`<slug>-3ds`, `<slug>-pan`). */
  slug: string;
  number: string;
  network: CardNetwork;
  outcome: Outcome;
}

export const testCards: readonly TestCard[] = [
  { slug: 'visa-success', number: '4111111111111111', network: 'VISA', outcome: 'success' },
  { slug: 'mastercard-success', number: '5555555555554444', network: 'MASTERCARD', outcome: 'success' },
  { slug: 'amex-success', number: '378282246310005', network: 'AMEX', outcome: 'success' },
  { slug: 'discover-success', number: '6011111111111117', network: 'DISCOVER', outcome: 'success' },
  { slug: 'visa-decline', number: '4000000000000002', network: 'VISA', outcome: 'card_declined' },
  { slug: 'visa-insufficient-funds', number: '4000000000009995', network: 'VISA', outcome: 'insufficient_funds' },
  { slug: 'visa-expired-card', number: '4000000000000069', network: 'VISA', outcome: 'expired_card' },
  { slug: 'visa-processing-error', number: '4000000000000119', network: 'VISA', outcome: 'processing_error' },
  { slug: 'visa-3ds-required', number: '4000002760003184', network: 'VISA', outcome: 'authentication_required' },
];

const cardsByNumber = new Map(testCards.map((card) => [card.number, card]));

/** Issuer prefixes of the four networks the service accepts (IIN ranges as the networks publish them). */
export function cardNetworkOf(pan: string): CardNetwork | undefined {
  const prefix = (length: number) => Number(pan.slice(0, length));
  if (pan.startsWith('4')) return 'VISA';
  if (/^3[47]/.test(pan)) return 'AMEX';
  if ((prefix(2) >= 51 && prefix(2) <= 55) || (prefix(4) >= 2221 && prefix(4) <= 2720)) return 'MASTERCARD';
  if (pan.startsWith('6011') || pan.startsWith('65') || (prefix(3) >= 644 && prefix(3) <= 649)) return 'DISCOVER';
  if (prefix(6) >= 622126 && prefix(6) <= 622925) return 'DISCOVER';
  return undefined;
}

export function luhnValid(pan: string): boolean {
  if (!/^\d+$/.test(pan)) return false;
  let sum = 0;
  for (let i = 0; i < pan.length; i += 1) {
    let digit = Number(pan[pan.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export type Decision = { status: 'succeeded' } | { status: 'failed'; code: FailureCode; message: string };

const failed = (code: FailureCode): Decision => ({ status: 'failed', code, message: failureMessages[code] });

/**
 * What the issuer would say. A card is good through the last day of its expiry
 * month (UTC). Numbers outside the table that pass Luhn succeed, so QA can use
 * any realistic number.
 */
export function decide(card: { pan: string; expMonth: number; expYear: number }, now: number): Decision {
  if (!luhnValid(card.pan)) return failed('invalid_number');
  const today = new Date(now);
  const currentMonth = today.getUTCFullYear() * 12 + today.getUTCMonth() + 1;
  if (card.expYear * 12 + card.expMonth < currentMonth) return failed('expired_card');
  const outcome = cardsByNumber.get(card.pan)?.outcome ?? 'success';
  return outcome === 'success' ? { status: 'succeeded' } : failed(outcome);
}

export interface WalletCard {
  id: string;
  label: string;
  network: CardNetwork;
  last4: string;
  auth_method: AuthMethod;
  outcome: Outcome;
}

const networkNames: Record<CardNetwork, string> = { VISA: 'Visa', MASTERCARD: 'Mastercard', AMEX: 'Amex', DISCOVER: 'Discover' };

/** How Google Pay describes a card to the payer, e.g. `Visa •••• 1111`. */
export const cardDescription = (network: CardNetwork, last4: string) => `${networkNames[network]} •••• ${last4}`;

/** Every table card in both wallet variants: with a 3-D Secure cryptogram (device token) and PAN only. */
export const walletCards: readonly (WalletCard & { number: string })[] = testCards.flatMap((card) =>
  (['CRYPTOGRAM_3DS', 'PAN_ONLY'] as const).map((authMethod) => {
    const last4 = card.number.slice(-4);
    const outcome = card.outcome === 'success' ? 'succeeds' : `fails: ${card.outcome}`;
    const variant = authMethod === 'CRYPTOGRAM_3DS' ? '3-D Secure cryptogram' : 'PAN only';
    return {
      id: `${card.slug}-${authMethod === 'CRYPTOGRAM_3DS' ? '3ds' : 'pan'}`,
      label: `${cardDescription(card.network, last4)} (${variant}): ${outcome}`,
      network: card.network,
      last4,
      auth_method: authMethod,
      outcome: card.outcome,
      number: card.number,
    };
  }),
);
