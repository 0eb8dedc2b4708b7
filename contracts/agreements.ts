/**
 * What a shopper agrees to when a payment keeps the card for later payments made without them
 * (docs/saved-cards.md): the three uses a card is kept for, the reasons a merchant charges a kept
 * card and which use covers each, and the agreement's text for each use, in English, under an id
 * that names its version. The server renders the text for a session (its merchant, amounts and
 * period) and records which one the shopper agreed to; the widget shows it under that id. A new
 * wording is a new id (`.v2`): an id's words never change once a shopper may have agreed to them.
 *
 * Plain data, no zod: the widget's bundle imports it.
 */

/** recurring: a subscription, at a fixed amount and interval; unscheduled: amounts owed as they arise; reload: a balance topped up below a threshold. */
export const SAVED_CARD_USAGES = ['recurring', 'unscheduled', 'reload'] as const;
type SavedCardUsage = (typeof SAVED_CARD_USAGES)[number];

/** Why a merchant charges a kept card without the shopper (a merchant-initiated charge, the card networks' reasons). */
export const MERCHANT_CHARGE_REASONS = ['subscription', 'unscheduled', 'reload', 'delayed_capture'] as const;
type MerchantChargeReason = (typeof MERCHANT_CHARGE_REASONS)[number];

/**
 * The use of a kept card an agreement must be for to cover each reason. A delayed charge (what a purchase
 * left owing once it is over: a hotel's minibar, a rental car's fuel) is an amount owed as it arises,
 * which the unscheduled agreement's words name.
 */
export const USAGE_COVERING: Readonly<Record<MerchantChargeReason, SavedCardUsage>> = {
  subscription: 'recurring',
  unscheduled: 'unscheduled',
  reload: 'reload',
  delayed_capture: 'unscheduled',
};

export const RECURRING_INTERVALS = ['day', 'week', 'month', 'year'] as const;
export type RecurringInterval = (typeof RECURRING_INTERVALS)[number];

/** The text each use is agreed to by, today. */
export const AGREEMENT_TEXT_IDS = {
  recurring: 'saved_card.recurring.v1',
  unscheduled: 'saved_card.unscheduled.v1',
  reload: 'saved_card.reload.v1',
} as const satisfies Record<SavedCardUsage, string>;
type TextId = (typeof AGREEMENT_TEXT_IDS)[SavedCardUsage];

/** Each text's English words; `{name}` is filled in from the session (AgreementParameters). */
export const AGREEMENT_TEXTS: Readonly<Record<TextId, string>> = {
  'saved_card.recurring.v1':
    'You allow {merchant} to charge this card {amount} every {period} for {what}, without asking you each time, until you cancel with {merchant}.',
  'saved_card.unscheduled.v1':
    'You allow {merchant} to keep this card and charge it, without asking you each time, for what you owe for {what}, including charges that arise after a purchase, until you ask {merchant} to remove it.',
  'saved_card.reload.v1':
    'You allow {merchant} to charge this card {amount} each time your {what} balance falls below {threshold}, without asking you each time, until you cancel with {merchant}.',
};

/** What a text is filled in with: the merchant's name, what the card pays for, and the amounts already formatted for the text's language. */
export interface AgreementParameters {
  merchant: string;
  what: string;
  amount?: string;
  period?: string;
  threshold?: string;
}

/** What the card pays for when the merchant did not say (`save_payment_method.description`), as each text reads it. */
export const DEFAULT_AGREEMENT_SUBJECT: Readonly<Record<SavedCardUsage, string>> = { recurring: 'your subscription', unscheduled: 'your purchases', reload: 'account' };

/** A text with its parameters filled in; a parameter the text names and the caller left out stays visible as `{name}`, never a blank. */
export const agreementText = (id: TextId, parameters: AgreementParameters): string =>
  AGREEMENT_TEXTS[id].replace(/\{(\w+)\}/g, (whole, name: string) => (parameters as unknown as Record<string, string | undefined>)[name] ?? whole);

/** "month", "3 months": the period of a recurring agreement as its English text says it. */
export const periodText = (interval: RecurringInterval, count: number): string => (count === 1 ? interval : `${count} ${interval}s`);
