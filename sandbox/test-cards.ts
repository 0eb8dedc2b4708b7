/**
 * The sandbox's test cards: the one table that decides every charge outcome and
 * that the sandbox wallet offers as cards. docs/test-cards.md's table is generated
 * from it (`npm run docs:test-cards`, scripts/test-cards-doc.ts); a test fails when
 * the page is stale.
 */
import type { AuthMethod, CardNetwork, CardOutcome, DisputeReason, ThreeDsFlow, WalletCard } from '../contracts';
import { type IssuerAddress, SANDBOX_CARDHOLDER_ADDRESS } from './address-verification';

export type FailureCode =
  | 'card_declined'
  | 'insufficient_funds'
  | 'expired_card'
  | 'processing_error'
  | 'authentication_required'
  | 'invalid_number'
  | 'fraudulent'
  | 'lost_card'
  | 'stolen_card'
  | 'incorrect_cvc'
  | 'do_not_honor';

const failureMessages: Record<FailureCode, string> = {
  card_declined: 'The card was declined.',
  insufficient_funds: 'The card has insufficient funds to complete the purchase.',
  expired_card: 'The card has expired.',
  processing_error: 'An error occurred while processing the card. Try again later.',
  authentication_required: 'The card requires 3-D Secure authentication: run an Authentication Session on its payment_method (a merchant-initiated charge: the shopper must pay again).',
  invalid_number: 'The card number is not a valid card number.',
  fraudulent: 'The card was declined: the issuer suspects fraud.',
  lost_card: 'The card was declined: it was reported lost.',
  stolen_card: 'The card was declined: it was reported stolen.',
  incorrect_cvc: "The card's security code is incorrect.",
  do_not_honor: 'The card was declined by its issuer (do not honor), with no reason given.',
};

/** What a failure code says of the card, for the page that documents the table. */
export const failureMeanings: Record<FailureCode, string> = {
  card_declined: 'generic decline',
  insufficient_funds: 'not enough funds',
  expired_card: 'whatever the expiry date',
  processing_error: 'an error at the issuer',
  authentication_required: '3-D Secure needed',
  invalid_number: 'fails Luhn',
  fraudulent: 'suspected fraud',
  lost_card: 'reported lost',
  stolen_card: 'reported stolen',
  incorrect_cvc: 'wrong security code',
  do_not_honor: 'the issuer gives no reason',
};

/**
 * Why a refund the service accepted failed (Stripe's `failure_reason`): the card account was
 * closed or has expired since the charge, so the money cannot go back to it.
 */
export type RefundFailureCode = 'expired_or_canceled_card';

/**
 * The first requests under each Idempotency-Key of a charge on an `unansweredTries` card that the
 * service answers 503 (nothing processed): as many as the backend's client tries per call
 * (server/service-client defaultRetryPolicy), so the payment is recorded `pending` and the first
 * replay by reconciliation settles it.
 */
export const UNANSWERED_TRIES = 3;

export interface TestCard {
  /** Stable prefix of the wallet card ids (`<slug>-3ds`, `<slug>-pan`). */
  slug: string;
  number: string;
  network: CardNetwork;
  outcome: CardOutcome;
  /** The issuer refuses a PAN_ONLY charge on this card until 3-D Secure is run this way (CRYPTOGRAM_3DS already carries it). */
  threeDs?: ThreeDsFlow;
  /** Its device token (CRYPTOGRAM_3DS) carries no eciIndicator, as Google's may not (docs/direct-mode.md). */
  withoutEci?: true;
  /**
   * The cardholder's address at the issuer, which its address verification compares the charge's
   * billing address with; null: an issuer that does not verify addresses (`unavailable`). Absent:
   * the sandbox cardholder's (SANDBOX_CARDHOLDER_ADDRESS, the sandbox wallet's default address).
   */
  issuerAddress?: IssuerAddress | null;
  /**
   * Kept (docs/saved-cards.md), the card is charged when the shopper pays (its outcome), and its issuer
   * refuses every merchant-initiated charge with this code, until the network updates the card
   * (the issuer's reissued card, for `expired_card`: POST /test_helpers/payment_methods/{id}/card_update).
   */
  merchantInitiated?: FailureCode;
  /**
   * The issuer does not answer in time: the service answers `503 issuer_unavailable`, nothing processed, to
   * the first UNANSWERED_TRIES requests under each Idempotency-Key, then decides the charge by `outcome`.
   */
  unanswered?: true;
  /** A hold on the card is placed, and its capture refused with this code (`402`): the hold stays, to release. */
  captureRefusal?: FailureCode;
  /** A refund of a charge on the card is accepted and fails: `status: failed` with this code. */
  refundFailure?: RefundFailureCode;
  /** A charge on the card succeeds, and its cardholder's bank disputes it at once, for this reason (docs/disputes.md). */
  dispute?: DisputeReason;
}

// `as const` keeps each slug a literal, so the wallet's card ids are a type (WalletCardId) of this one table.
const testCardTable = [
  { slug: 'visa-success', number: '4111111111111111', network: 'VISA', outcome: 'success' },
  { slug: 'mastercard-success', number: '5555555555554444', network: 'MASTERCARD', outcome: 'success' },
  { slug: 'amex-success', number: '378282246310005', network: 'AMEX', outcome: 'success' },
  { slug: 'discover-success', number: '6011111111111117', network: 'DISCOVER', outcome: 'success' },
  { slug: 'visa-decline', number: '4000000000000002', network: 'VISA', outcome: 'card_declined' },
  { slug: 'visa-insufficient-funds', number: '4000000000009995', network: 'VISA', outcome: 'insufficient_funds' },
  { slug: 'visa-expired-card', number: '4000000000000069', network: 'VISA', outcome: 'expired_card' },
  { slug: 'visa-processing-error', number: '4000000000000119', network: 'VISA', outcome: 'processing_error' },
  // Issuers' declines that a payment service reports by their own code (Stripe's numbers where Stripe has one). The shopper is
  // told less than the merchant: the widget shows fraud, lost and stolen as the generic decline (docs/decisions.md).
  { slug: 'visa-fraudulent', number: '4100000000000019', network: 'VISA', outcome: 'fraudulent' },
  { slug: 'visa-lost-card', number: '4000000000009987', network: 'VISA', outcome: 'lost_card' },
  { slug: 'visa-stolen-card', number: '4000000000009979', network: 'VISA', outcome: 'stolen_card' },
  { slug: 'visa-incorrect-cvc', number: '4000000000000127', network: 'VISA', outcome: 'incorrect_cvc' },
  { slug: 'visa-do-not-honor', number: '4000000000000390', network: 'VISA', outcome: 'do_not_honor' },
  // After the payment (docs/test-cards.md#outcomes-after-the-first-answer): an unknown outcome reconciliation settles, a refused capture, a failed refund.
  { slug: 'visa-pending', number: '4000000000000408', network: 'VISA', outcome: 'success', unanswered: true },
  { slug: 'visa-capture-declined', number: '4000000000000416', network: 'VISA', outcome: 'success', captureRefusal: 'card_declined' },
  { slug: 'visa-refund-fails', number: '4000000000005126', network: 'VISA', outcome: 'success', refundFailure: 'expired_or_canceled_card' },
  // Disputes (docs/disputes.md): Stripe's numbers; the charge succeeds, then its cardholder's bank disputes it.
  { slug: 'visa-dispute-fraudulent', number: '4000000000000259', network: 'VISA', outcome: 'success', dispute: 'fraudulent' },
  { slug: 'visa-dispute-product-not-received', number: '4000000000002685', network: 'VISA', outcome: 'success', dispute: 'product_not_received' },
  { slug: 'visa-3ds-required', number: '4000002760003184', network: 'VISA', outcome: 'success', threeDs: 'challenge' },
  { slug: 'visa-3ds-frictionless', number: '4000002500003155', network: 'VISA', outcome: 'success', threeDs: 'frictionless' },
  { slug: 'mastercard-no-eci', number: '5105105105105100', network: 'MASTERCARD', outcome: 'success', withoutEci: true },
  // Address verification (docs/test-cards.md#address-verification): each succeeds; its issuer has this address on record.
  { slug: 'visa-avs-match', number: '4000000000000051', network: 'VISA', outcome: 'success', issuerAddress: SANDBOX_CARDHOLDER_ADDRESS },
  { slug: 'visa-avs-mismatch', number: '4000000000000010', network: 'VISA', outcome: 'success', issuerAddress: { line1: '77 Issuer Street', postal_code: '10001' } },
  { slug: 'visa-avs-line1-mismatch', number: '4000000000000028', network: 'VISA', outcome: 'success', issuerAddress: { line1: '2 Sandbox Way', postal_code: '94105' } },
  { slug: 'visa-avs-postal-code-mismatch', number: '4000000000000036', network: 'VISA', outcome: 'success', issuerAddress: { line1: '1 Sandbox Way', postal_code: '94107' } },
  { slug: 'visa-avs-unavailable', number: '4000000000000044', network: 'VISA', outcome: 'success', issuerAddress: null },
  // Saved cards (docs/test-cards.md#merchant-initiated-charges): each is charged and kept when the shopper pays; its issuer then refuses the merchant's charges.
  { slug: 'visa-mit-insufficient-funds', number: '4000000000000358', network: 'VISA', outcome: 'success', merchantInitiated: 'insufficient_funds' },
  { slug: 'visa-mit-authentication-required', number: '4000000000000374', network: 'VISA', outcome: 'success', merchantInitiated: 'authentication_required' },
  { slug: 'visa-mit-expired-card', number: '4000000000000382', network: 'VISA', outcome: 'success', merchantInitiated: 'expired_card' },
] as const satisfies readonly TestCard[];

export const testCards: readonly TestCard[] = testCardTable;

/**
 * The sandbox wallet's card ids: each table card as a device token (`-3ds`) and a card on file (`-pan`).
 * The QA kit's `card` option is this type (its build writes the union out), so a typo does not compile.
 */
export type WalletCardId = `${(typeof testCardTable)[number]['slug']}-${'3ds' | 'pan'}`;

/**
 * What a payment with a table card ends in: `success`, or the decline's `failure_code`. The QA kit's
 * `TestCardOutcome` is this type (its build writes the union out), so an outcome no card has does not compile.
 */
export type WalletCardOutcome = (typeof testCardTable)[number]['outcome'];

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

/** The issuer's refusal of a hold's capture, if it refuses it: its code and message. */
export const captureRefusalOf = (profile: IssuerProfile): { code: FailureCode; message: string } | undefined =>
  profile.captureRefusal && { code: profile.captureRefusal, message: failureMessages[profile.captureRefusal] };

/**
 * What the issuer knows of a card, derived from its number once: a payment
 * method keeps this instead of the number. Numbers outside the table that
 * pass Luhn succeed, so QA can use any realistic number.
 */
export interface IssuerProfile {
  outcome: CardOutcome;
  threeDs: ThreeDsFlow | null;
  /** The cardholder's address on record, for address verification; null: the issuer verifies none (and a number no issuer has). */
  address: IssuerAddress | null;
  /** What the issuer answers a merchant-initiated charge (TestCard.merchantInitiated); absent: as a charge with the shopper. */
  merchantInitiated?: FailureCode;
  /** TestCard.unanswered: the service answers 503 to the first requests of a charge. */
  unanswered?: true;
  /** TestCard.captureRefusal. */
  captureRefusal?: FailureCode;
  /** TestCard.refundFailure. */
  refundFailure?: RefundFailureCode;
  /** TestCard.dispute. */
  dispute?: DisputeReason;
}

export function issuerProfile(pan: string): IssuerProfile {
  if (!luhnValid(pan)) return { outcome: 'invalid_number', threeDs: null, address: null };
  const card = cardsByNumber.get(pan);
  return {
    outcome: card?.outcome ?? 'success',
    threeDs: card?.threeDs ?? null,
    address: card?.issuerAddress === undefined ? SANDBOX_CARDHOLDER_ADDRESS : card.issuerAddress,
    ...(card?.merchantInitiated && { merchantInitiated: card.merchantInitiated }),
    ...(card?.unanswered && { unanswered: card.unanswered }),
    ...(card?.captureRefusal && { captureRefusal: card.captureRefusal }),
    ...(card?.refundFailure && { refundFailure: card.refundFailure }),
    ...(card?.dispute && { dispute: card.dispute }),
  };
}

/** An Authentication Session on a card the table does not mark frictionless asks for a challenge. */
export const authenticationFlowOf = (profile: IssuerProfile): ThreeDsFlow => profile.threeDs ?? 'challenge';

export interface ChargeContext {
  authMethod: AuthMethod;
  /** The merchant asked for 3-D Secure on every PAN_ONLY card (`authentication: 'required'`). */
  authenticationRequested: boolean;
  /** The charge carries an authenticated Authentication Session. */
  authenticated: boolean;
  /** A merchant-initiated charge of a kept card (stored_credential.initiator merchant): the shopper is not there. */
  merchantInitiated?: boolean;
}

/**
 * What the issuer would say, in this order: Luhn, expiry (a card is good
 * through the last day of its expiry month, UTC), for a merchant-initiated
 * charge the card's answer to those, else 3-D Secure for PAN_ONLY cards that
 * are not authenticated yet (a merchant-initiated charge is exempt: the
 * shopper is not there to authenticate, and agreed when the card was kept),
 * then the table.
 */
export function decide(profile: IssuerProfile, card: { expMonth: number; expYear: number }, now: number, context: ChargeContext): Decision {
  if (profile.outcome === 'invalid_number') return failed('invalid_number');
  const today = new Date(now);
  const currentMonth = today.getUTCFullYear() * 12 + today.getUTCMonth() + 1;
  if (card.expYear * 12 + card.expMonth < currentMonth) return failed('expired_card');
  if (context.merchantInitiated && profile.merchantInitiated) return failed(profile.merchantInitiated);
  const wants3ds = !context.merchantInitiated && (profile.threeDs !== null || context.authenticationRequested);
  if (context.authMethod === 'PAN_ONLY' && wants3ds && !context.authenticated) return failed('authentication_required');
  return profile.outcome === 'success' ? { status: 'succeeded' } : failed(profile.outcome);
}

const networkNames: Record<CardNetwork, string> = { VISA: 'Visa', MASTERCARD: 'Mastercard', AMEX: 'Amex', DISCOVER: 'Discover' };

/** How Google Pay describes a card to the payer, e.g. `Visa •••• 1111`. */
export const cardDescription = (network: CardNetwork, last4: string) => `${networkNames[network]} •••• ${last4}`;

/** Google's usual ECI values for device tokens: Mastercard signals 3-D Secure differently. */
const eciFor = (network: CardNetwork) => (network === 'MASTERCARD' ? '02' : '05');

/** What an address verification card's label says of its issuer's record; nothing for the others, whose issuer has the sandbox cardholder's. */
function issuerAddressLabel(card: TestCard): string {
  if (card.issuerAddress === undefined) return '';
  if (card.issuerAddress === null) return '; its issuer verifies no address';
  return `; its issuer has ${card.issuerAddress.line1}, ${card.issuerAddress.postal_code} on record`;
}

/** What the merchant meets after the payment on the card, for its label in the sheet. */
function afterPaymentLabel(card: TestCard): string {
  if (card.merchantInitiated) return `; kept, the merchant's charges fail: ${card.merchantInitiated}`;
  if (card.captureRefusal) return `; as a hold, its capture fails: ${card.captureRefusal}`;
  if (card.refundFailure) return `; its refunds fail: ${card.refundFailure}`;
  if (card.dispute) return `; then disputed: ${card.dispute}`;
  return '';
}

/** Every table card in both wallet variants: with a 3-D Secure cryptogram (device token) and PAN only. */
export const walletCards: readonly (WalletCard & { number: string; eciIndicator: string | undefined })[] = testCards.flatMap((card) =>
  (['CRYPTOGRAM_3DS', 'PAN_ONLY'] as const).map((authMethod) => {
    const last4 = card.number.slice(-4);
    const threeDs = authMethod === 'PAN_ONLY' ? (card.threeDs ?? null) : null;
    const result = (card.unanswered ? 'pending, then ' : '') + (card.outcome === 'success' ? 'succeeds' : `fails: ${card.outcome}`) + afterPaymentLabel(card);
    const outcome = (threeDs ? `3-D Secure ${threeDs}, then ${result}` : result) + issuerAddressLabel(card);
    const eciIndicator = authMethod === 'CRYPTOGRAM_3DS' && !card.withoutEci ? eciFor(card.network) : undefined;
    const variant = authMethod === 'PAN_ONLY' ? 'PAN only' : eciIndicator ? '3-D Secure cryptogram' : '3-D Secure cryptogram, no ECI';
    return {
      id: `${card.slug}-${authMethod === 'CRYPTOGRAM_3DS' ? '3ds' : 'pan'}`,
      label: `${cardDescription(card.network, last4)} (${variant}): ${outcome}`,
      network: card.network,
      last4,
      auth_method: authMethod,
      outcome: card.outcome,
      three_ds: threeDs,
      number: card.number,
      eciIndicator,
    };
  }),
);
