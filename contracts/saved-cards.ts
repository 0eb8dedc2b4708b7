/**
 * Saved cards (docs/saved-cards.md): what a session asks to keep the card for, the agreement the
 * shopper gives at that first, customer-initiated payment, the payment method the backend keeps
 * (GET /api/payment_methods...), and the merchant-initiated charges made on it later.
 */
import { z } from 'zod';
import { AGREEMENT_TEXT_IDS, MERCHANT_CHARGE_REASONS, RECURRING_INTERVALS, SAVED_CARD_USAGES } from './agreements';
import { CardNetwork } from './google-pay';
import { amountToDecimal, exponentOf, googlePayPriceOf, isPaymentCurrency } from './currency';
import { googlePayStep } from './money';
import { listOf, pageLimit, startingAfter } from './paging';

const MAX_AMOUNT = 99_999_999_999;
const Amount = z.number().int().positive().max(MAX_AMOUNT);

export const SavedCardUsage = z.enum(SAVED_CARD_USAGES).meta({ id: 'SavedCardUsage' });
export type SavedCardUsage = z.infer<typeof SavedCardUsage>;

export const MerchantChargeReason = z.enum(MERCHANT_CHARGE_REASONS).meta({ id: 'MerchantChargeReason' });
export type MerchantChargeReason = z.infer<typeof MerchantChargeReason>;

/**
 * The merchant's reference for its customer (its own id, never an e-mail or a name): a card is kept once
 * per customer. Letters, digits and `. _ : -` only, so that no personal data is put there by accident.
 */
export const CustomerReference = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{1,200}$/, 'your own customer id: 1 to 200 of A-Z a-z 0-9 . _ : - (not an e-mail or a name)');

/** Google Pay's label of a recurrence or a reload (RecurrencePeriodItem.label, AutomaticReloadTransactionInfo.label): at most 100 characters. */
const Label = z.string().trim().min(1).max(100);

/** A subscription: `amount` charged every `interval_count` `interval`s. */
export const RecurringTerms = z.strictObject({
  interval: z.enum(RECURRING_INTERVALS),
  interval_count: z.number().int().min(1).max(365),
  amount: Amount,
  label: Label.optional().meta({ description: "What the sheet calls the subscription (Google's recurrence label); save_payment_method.description, else `Subscription`, when absent" }),
}).meta({ id: 'RecurringTerms' });
export type RecurringTerms = z.infer<typeof RecurringTerms>;

/** An automatic reload: `amount` charged each time the balance falls below `threshold`. */
export const ReloadTerms = z.strictObject({
  threshold: z.number().int().nonnegative().max(MAX_AMOUNT),
  amount: Amount,
  label: Label.optional().meta({ description: "What the sheet calls the reload (Google's label); save_payment_method.description, else `Automatic reload`, when absent" }),
}).meta({ id: 'ReloadTerms' });
export type ReloadTerms = z.infer<typeof ReloadTerms>;

/** POST /api/sessions `save_payment_method`: keep the card this session is paid with, for this customer and this use. */
export const SavePaymentMethod = z
  .strictObject({
    customer: CustomerReference,
    usage: SavedCardUsage,
    /** usage `recurring`: required; else refused. */
    recurring: RecurringTerms.optional(),
    /** usage `reload`: required; else refused. */
    reload: ReloadTerms.optional(),
    /** What the kept card pays for, in the agreement's text ("for {description}"). */
    description: Label.optional(),
  })
  .superRefine((save, ctx) => {
    for (const usage of ['recurring', 'reload'] as const) {
      if (save.usage === usage && !save[usage]) ctx.addIssue({ code: 'custom', path: [usage], message: `usage ${usage} needs its terms: ${usage} is required` });
      if (save.usage !== usage && save[usage]) ctx.addIssue({ code: 'custom', path: [usage], message: `${usage} is for usage ${usage} only` });
    }
  })
  .meta({ id: 'SavePaymentMethod' });
export type SavePaymentMethod = z.infer<typeof SavePaymentMethod>;

export const AgreementTextId = z.enum([AGREEMENT_TEXT_IDS.recurring, AGREEMENT_TEXT_IDS.unscheduled, AGREEMENT_TEXT_IDS.reload]).meta({ id: 'AgreementTextId' });

/** POST /api/sessions/{id}/pay `agreement`: the text the widget showed the shopper, by id; required for a session that saves the card. */
export const PayAgreement = z.strictObject({ id: z.string().max(100) });

/** The agreement as the widget is to show it: its id (its words and version) and its English text, filled in for the session. */
export const AgreementText = z.object({ id: AgreementTextId, text: z.string() }).meta({ id: 'AgreementText' });
export type AgreementText = z.infer<typeof AgreementText>;

/** What the shopper agreed to, and when: recorded when the payment that saves the card is claimed. */
export const RecordedAgreement = AgreementText.extend({
  /** ms since the epoch: the payment request that carried the agreement. */
  accepted_at: z.number().int(),
}).meta({ id: 'RecordedAgreement' });
export type RecordedAgreement = z.infer<typeof RecordedAgreement>;

/** Why the payment service would not keep the card of a paid saving session: its code and message (the payment itself stands). */
export const KeepCardError = z.object({ code: z.string(), message: z.string() }).meta({ id: 'KeepCardError' });
export type KeepCardError = z.infer<typeof KeepCardError>;

/** The card a payment method keeps, as the API shows it: never more than its network, last four digits and expiry. */
export const SavedCard = z.object({
  network: CardNetwork,
  last4: z.string().regex(/^\d{4}$/),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
}).meta({ id: 'SavedCard' });
export type SavedCard = z.infer<typeof SavedCard>;

/** network_token: the wallet's device token (CRYPTOGRAM_3DS); card: the card on file (PAN_ONLY). */
export const TokenKind = z.enum(['network_token', 'card']).meta({ id: 'TokenKind' });
export type TokenKind = z.infer<typeof TokenKind>;

/**
 * active: it can be charged; expired: its expiry has passed (a new session that saves the card, or the
 * network's card update, makes it active again); detached: for good.
 */
export const PaymentMethodStatus = z.enum(['active', 'expired', 'detached']).meta({ id: 'PaymentMethodStatus' });
export type PaymentMethodStatus = z.infer<typeof PaymentMethodStatus>;

/** The use the shopper agreed to, on what terms, by which text, when, and at which session's payment. */
export const PaymentMethodAgreement = RecordedAgreement.extend({
  usage: SavedCardUsage,
  recurring: RecurringTerms.nullable(),
  reload: ReloadTerms.nullable(),
  /** The currency of the terms' amounts (the saving session's). */
  currency: z.string(),
  description: z.string().nullable(),
  session_id: z.string(),
}).meta({ id: 'PaymentMethodAgreement' });
export type PaymentMethodAgreement = z.infer<typeof PaymentMethodAgreement>;

/** `pm_` and 16 random bytes in base64url (server/payment-methods makes them). */
export const PaymentMethodRecordId = z.string().regex(/^pm_[A-Za-z0-9_-]{22}$/, 'a payment method id (pm_...)');

/** A card kept for a customer of the application, as the merchant's server reads it (secret key), and as a `payment_method.*` event's object. */
export const PaymentMethod = z.object({
  id: z.string(),
  object: z.literal('payment_method'),
  app_id: z.string(),
  customer: z.string(),
  card: SavedCard,
  token_kind: TokenKind,
  agreement: PaymentMethodAgreement,
  /** The card network's reference of the customer-initiated transaction that set up the agreement: every merchant-initiated charge names it. */
  network_transaction_reference: z.string(),
  status: PaymentMethodStatus,
  created: z.number().int(),
  updated: z.number().int(),
  /** When it was detached (ms since the epoch); null while it is not. */
  detached: z.number().int().nullable(),
}).meta({ id: 'PaymentMethod' });
export type PaymentMethod = z.infer<typeof PaymentMethod>;

/** GET /api/payment_methods: newest first, keyset on (created, id) like the other lists. */
export const ListPaymentMethodsQuery = z.strictObject({
  customer: CustomerReference.optional().meta({ description: "Only this customer's payment methods" }),
  limit: pageLimit('Payment methods'),
  starting_after: startingAfter(PaymentMethodRecordId, 'payment method'),
});
export type ListPaymentMethodsQuery = z.infer<typeof ListPaymentMethodsQuery>;

export const PaymentMethodList = listOf(PaymentMethod).meta({ id: 'PaymentMethodList' });
export type PaymentMethodList = z.infer<typeof PaymentMethodList>;

/**
 * POST /api/payment_methods/{id}/charges: a merchant-initiated charge of a kept card (under a required
 * Idempotency-Key). The reply is the checkout session it is made as (intent `merchant_initiated`).
 */
export const ChargePaymentMethodBody = z.strictObject({
  amount: Amount,
  /** An active ISO 4217 currency, any case; stored upper case. */
  currency: z
    .string()
    .transform((c) => c.toUpperCase())
    .refine(isPaymentCurrency, 'currency must be an active ISO 4217 currency (not a fund, metal or test code)'),
  reason: MerchantChargeReason,
  /** The customer the card is kept for: a charge for another is refused (customer_mismatch). */
  customer: CustomerReference,
  description: z.string().max(500).optional(),
  reference: z.string().max(200).optional(),
}).meta({ id: 'ChargePaymentMethodBody' });
export type ChargePaymentMethodBody = z.infer<typeof ChargePaymentMethodBody>;

/**
 * What is wrong with a session's saving terms for its currency: each amount Google Pay is shown (the
 * recurrence's price, the reload's amount and threshold) must be a price it can show, as the session's
 * amount must (googlePayPriceOf).
 */
export function savedCardProblems(save: SavePaymentMethod, currency: string): { path: (string | number)[]; message: string }[] {
  const amounts: [string[], number][] = [
    ...(save.recurring ? [[['recurring', 'amount'], save.recurring.amount] as [string[], number]] : []),
    ...(save.reload ? [[['reload', 'amount'], save.reload.amount] as [string[], number], [['reload', 'threshold'], save.reload.threshold] as [string[], number]] : []),
  ];
  return amounts.flatMap(([path, amount]) =>
    googlePayPriceOf(amount, currency) === undefined
      ? [{ path: ['save_payment_method', ...path], message: `${amount} is ${amountToDecimal(amount, currency)} ${currency}: Google Pay shows at most two decimals, so it must be a multiple of ${googlePayStep(exponentOf(currency))}` }]
      : [],
  );
}
