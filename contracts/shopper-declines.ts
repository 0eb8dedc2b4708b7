/**
 * What the shopper is told of an issuer's decline, as against what the merchant is told
 * (docs/decisions.md, "The shopper sees less of a decline than the merchant"). Plain constants:
 * the widget imports them.
 */

/**
 * Declines whose reason would help the one who should not be helped: a fraudster told that the card
 * is known stolen, or suspected, learns which cards to stop trying. The backend gives the shopper's
 * browser (the widget's public view and its pay reply) the generic decline, `card_declined` with no
 * message of the service's, in their place; the merchant's API, events and dashboard keep the code.
 */
export const WITHHELD_DECLINE_CODES: readonly string[] = ['fraudulent', 'lost_card', 'stolen_card'];

/** The code the shopper's browser is given for a withheld one. */
export const GENERIC_DECLINE_CODE = 'card_declined';

/**
 * Declines the widget words as another code, whose words every language of the widget already has:
 * neither has a reason the shopper can act on in the sheet but to try another card.
 */
export const DECLINES_WORDED_AS: Readonly<Record<string, string>> = {
  incorrect_cvc: GENERIC_DECLINE_CODE,
  do_not_honor: GENERIC_DECLINE_CODE,
};
