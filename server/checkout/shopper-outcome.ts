/**
 * A payment's outcome as the shopper's browser is given it (the widget's public view and pay reply):
 * a decline whose reason is withheld from the shopper (contracts/shopper-declines.ts) reads as the
 * generic decline. The merchant's API, events and dashboard read the outcome as recorded.
 */
import { GENERIC_DECLINE_CODE, type PaymentOutcome, WITHHELD_DECLINE_CODES } from '../../contracts';

export function shopperOutcome(outcome: PaymentOutcome): PaymentOutcome {
  if (outcome.failure_code === null || !WITHHELD_DECLINE_CODES.includes(outcome.failure_code)) return outcome;
  // No message of the service's either: it names the reason. The widget words the generic decline itself.
  return { ...outcome, failure_code: GENERIC_DECLINE_CODE, failure_message: null };
}
