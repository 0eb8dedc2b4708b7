/**
 * Compiled by the project's `npx tsc --noEmit`, never run: the kit's `card` option takes the
 * sandbox wallet's card ids alone, and its `TestCardOutcome` the outcomes of the sandbox's cards
 * alone, so a test with a mistyped card or outcome fails to compile, not at run time.
 */
import type { PayOptions, TestCardId, TestCardOutcome } from '../src';

export const cards: readonly TestCardId[] = ['visa-success-3ds', 'mastercard-success-pan', 'visa-3ds-required-pan', 'visa-mit-expired-card-3ds'];

// @ts-expect-error a typo of visa-success-3ds is no card of the sandbox's
export const typo: PayOptions = { card: 'visa-sucess-3ds' };

// @ts-expect-error every card id names its variant: -3ds (device token) or -pan (card on file)
export const withoutVariant: PayOptions = { card: 'visa-success' };

export const outcomes: readonly TestCardOutcome[] = ['success', 'card_declined', 'fraudulent', 'stolen_card', 'incorrect_cvc', 'do_not_honor'];

// @ts-expect-error a payment with a test card ends in its failure_code, and no card of the sandbox answers stolen
export const wrongOutcome: TestCardOutcome = 'stolen';

// @ts-expect-error authentication_required is a step before the outcome (3-D Secure), not what a card's payment ends in
export const notAnOutcome: TestCardOutcome = 'authentication_required';
