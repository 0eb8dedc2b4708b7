/**
 * A sheet priced by the server (delivery options, the merchant's quote endpoint, promotion codes):
 * what the widget answers Google's `onPaymentDataChanged` with, and which quote it keeps for the payment, decided from the relay's reply (POST
 * /api/sessions/{id}/quote). Pure, so each rule is a unit test; quote-relay.ts calls the relay.
 * Google's types are @types/googlepay's (contracts/google-pay-types.ts references them).
 */

/** What Google hands onPaymentDataChanged: the shopper's change, the address redacted. */
export type PaymentDataChange = google.payments.api.IntermediatePaymentData;
/** What the widget answers it: the new total and options, or an error shown in the sheet. */
export type SheetUpdate = google.payments.api.PaymentDataRequestUpdate;

/** The relay's reply: the update goes to Google as it is; `quote_id` is null when the update is an error. */
export interface QuoteReply {
  quote_id: string | null;
  update: SheetUpdate;
}

/**
 * How long the widget waits for the relay before it answers the sheet itself. Google gives the
 * callback about 10 s before it shows its own error; 8 s leaves the answer time to reach it.
 */
export const QUOTE_DEADLINE_MS = 8_000;

/** What the relay is told of a change: what prices it, and not the card Google describes beside it. */
export type RelayedChange = Pick<PaymentDataChange, 'callbackTrigger' | 'shippingAddress' | 'shippingOptionData' | 'offerData'>;

export const relayedChange = ({ callbackTrigger, shippingAddress, shippingOptionData, offerData }: PaymentDataChange): RelayedChange => ({ callbackTrigger, shippingAddress, shippingOptionData, offerData });

/** The change numbered `number` (the widget counts them), what triggered it, and the change intents the request declared. */
export interface Change {
  number: number;
  trigger: google.payments.api.CallbackTrigger;
  declared: readonly string[];
}

/** The intents whose changes call onPaymentDataChanged, in the order INITIALIZE's error picks among them. */
const CHANGE_INTENTS = ['SHIPPING_ADDRESS', 'SHIPPING_OPTION', 'OFFER'] as const;
export type ChangeIntent = (typeof CHANGE_INTENTS)[number];

/**
 * Which intent an error answering `trigger` names, among those the request `declared`: a change's own
 * (the address, the option, a code); for the sheet's opening, the address if declared, else the
 * option, else the code. Google refuses an error naming an intent the request did not declare (as
 * the sandbox does, GP27), and calls onPaymentDataChanged only for one it declared: the last
 * fallback is never met.
 */
export function changeIntent(trigger: Change['trigger'], declared: readonly string[]): ChangeIntent {
  const named = CHANGE_INTENTS.filter((intent) => declared.includes(intent));
  return named.find((intent) => intent === trigger) ?? named[0] ?? 'SHIPPING_ADDRESS';
}

/** The sheet's answer when the relay cannot be had (no reply in time, the network, a refusal): `message` is the widget's network error words. */
export const relayFailed = (trigger: Change['trigger'], declared: readonly string[], message: string): SheetUpdate => ({
  error: { reason: 'OTHER_ERROR', intent: changeIntent(trigger, declared), message },
});

/** A reply shaped like the relay's (only the shape: the update is Google's to judge). */
const isQuoteReply = (reply: unknown): reply is QuoteReply => {
  const r = reply as Partial<Record<keyof QuoteReply, unknown>> | null;
  return typeof r?.update === 'object' && r.update !== null && (typeof r.quote_id === 'string' || r.quote_id === null);
};

/**
 * The relay's reply to `change` (undefined when the call failed), while `latest` is the newest
 * change's number and `kept` the quote the payment would name: the sheet's answer, and the quote kept.
 * Only the newest change's reply is kept (an error's null quote included: the sheet lets nobody pay
 * until a new change is answered); an older reply still answers its own call, which Google ignores
 * once a newer one is made. A failed call keeps the quote as it was.
 */
export function settleChange(kept: string | undefined, change: Change, latest: number, reply: unknown, message: string): { update: SheetUpdate; quoteId: string | undefined } {
  if (!isQuoteReply(reply)) return { update: relayFailed(change.trigger, change.declared, message), quoteId: kept };
  return { update: reply.update, quoteId: change.number === latest ? (reply.quote_id ?? undefined) : kept };
}
