/**
 * Compiled by the project's `npx tsc --noEmit`, never run: the kit's `card` option takes the
 * sandbox wallet's card ids alone, so a test with a mistyped card fails to compile, not at run time.
 */
import type { PayOptions, TestCardId } from '../src';

export const cards: readonly TestCardId[] = ['visa-success-3ds', 'mastercard-success-pan', 'visa-3ds-required-pan', 'visa-mit-expired-card-3ds'];

// @ts-expect-error a typo of visa-success-3ds is no card of the sandbox's
export const typo: PayOptions = { card: 'visa-sucess-3ds' };

// @ts-expect-error every card id names its variant: -3ds (device token) or -pan (card on file)
export const withoutVariant: PayOptions = { card: 'visa-success' };
