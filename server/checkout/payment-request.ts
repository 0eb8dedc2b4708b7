/**
 * Which amounts Google Pay can be asked for. The request itself is built in
 * contracts/payment-data-request.ts, shared with the demo's gallery and the tests.
 */
import { amountToDecimal, exponentOf, googlePayPriceOf } from '../../contracts/currency';
import { googlePayStep } from '../../contracts/money';
import type { Failure } from '../../common/result';

/** The largest amount a session takes (CreateSessionBody): a nearest amount past it is not offered. */
const MAX_AMOUNT = 99_999_999_999;

/**
 * Why Google Pay cannot be asked for this amount, or undefined when it can: a three- or four-decimal
 * currency's amount that needs its third or fourth decimal (KWD 1234 is 1.234 KWD), which Google's
 * two-decimal price format cannot carry. Refused when the session is created (and read, for a session
 * created before the rule), never rounded: the nearest amounts that work are named instead.
 */
export function googlePayAmountRefusal(amount: number, currency: string): Failure | undefined {
  if (googlePayPriceOf(amount, currency) !== undefined) return undefined;
  const exponent = exponentOf(currency);
  const step = googlePayStep(exponent);
  const below = amount - (amount % step);
  const nearest = [below, below + step].filter((candidate) => candidate > 0 && candidate <= MAX_AMOUNT);
  const named = nearest.map((candidate) => `${candidate} (${amountToDecimal(candidate, currency)} ${currency})`).join(' and ');
  return {
    code: 'amount_exceeds_google_pay_precision',
    message:
      `amount: ${amount} is ${amountToDecimal(amount, currency)} ${currency}, which needs ${exponent} decimals; Google Pay shows a price with at most two ` +
      `(a whole number or exactly two decimals), so an amount in ${currency} must be a multiple of ${step} minor units: the nearest are ${named}`,
  };
}
