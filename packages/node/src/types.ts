/**
 * The library's types, each taken from the zod contract the server validates with
 * (contracts/): z.input for what a call sends, z.output (the contracts' own types) for
 * what the API answers. Nothing here is written out by hand; a field added to a contract reaches
 * the library's types with the next build.
 */
import type { z } from 'zod';
import type { CaptureSessionBody, CreateSessionBody, ListSessionsQuery } from '../../../contracts/sessions';
import type { CreateRefundBody } from '../../../contracts/refunds';
import type { CreateWebhookEndpointBody, ListEventsQuery } from '../../../contracts/webhooks';
import type { RollSecretKeyBody } from '../../../contracts/keys';
import type { VerifyOriginBody } from '../../../contracts/origin-verification';
import type { QuoteAnswer as QuoteAnswerSchema, SetQuoteEndpointBody } from '../../../contracts/quote-endpoint';
import type { ChargePaymentMethodBody, ListPaymentMethodsQuery } from '../../../contracts/saved-cards';
import type { AdvanceClockBody } from '../../../contracts/test-clocks';
import type { ListDisputesQuery, SubmitDisputeEvidenceBody } from '../../../contracts/disputes';

/** The reply to `sessions.create` (CreatedSession) is the session, its `client_secret` (for the page) and the widget's `public_view`. */
export type { CreatedSession, Session, SessionList, SessionStatus } from '../../../contracts/sessions';
export type { Refund, RefundReason, RefundStatus } from '../../../contracts/refunds';
export type { Event, EventType } from '../../../contracts/events';
/** CreatedWebhookEndpoint and RolledWebhookSecret carry a signing secret, shown only in that reply. */
export type { CreatedWebhookEndpoint, DeletedWebhookEndpoint, EventList, EventRedelivery, RolledWebhookSecret, WebhookEndpoint, WebhookEndpointList } from '../../../contracts/webhooks';
export type { RolledSecretKey } from '../../../contracts/keys';
/** Platform mode: each allowed origin's proof of control, before authJwts are signed for it (docs/platform.md). */
export type { OriginVerification, OriginVerificationList, OriginVerificationStatus } from '../../../contracts/origin-verification';
/**
 * The quote endpoint (CreatedQuoteEndpoint carries its signing secret, shown only in that reply), the
 * requests it receives (quotes.verify), and the quote a session was charged (`session.quote`).
 */
export type { CreatedQuoteEndpoint, QuoteAddress, QuoteEndpoint, QuotedPromotionCode, QuoteRequest, SessionQuote } from '../../../contracts/quote-endpoint';

/** A card kept for your customer (paymentMethods), its agreement and status; `Session.intent` `merchant_initiated` and `charge_reason` for a charge made on it. */
export type { MerchantChargeReason, PaymentMethod, PaymentMethodAgreement, PaymentMethodList, PaymentMethodStatus, SavedCard, SavedCardUsage, SavePaymentMethod } from '../../../contracts/saved-cards';

/** A dispute of one of your payments (disputes, docs/disputes.md), and the evidence it was answered with. */
export type { Dispute, DisputeList, DisputeReason, DisputeStatus, ServiceDisputeEvidence as DisputeEvidence, ShippingProof } from '../../../contracts/disputes';

/** Sandbox mode's test clock (testHelpers, docs/test-clocks.md). */
export type { TestClock } from '../../../contracts/test-clocks';

export type SessionCreateParams = z.input<typeof CreateSessionBody>;
/** `{seconds}` or `{to}` (ms since the epoch), and `session` to move that session alone. */
export type TestClockAdvanceParams = z.input<typeof AdvanceClockBody>;
export type PaymentMethodListParams = Partial<z.output<typeof ListPaymentMethodsQuery>>;
export type PaymentMethodChargeParams = z.input<typeof ChargePaymentMethodBody>;
export type DisputeListParams = Partial<z.output<typeof ListDisputesQuery>>;
/** Your explanation, and `shipping` (carrier, tracking number) for an express checkout the shopper gave a shipping address in. */
export type DisputeEvidenceParams = z.input<typeof SubmitDisputeEvidenceBody>;
/** The listing's filters as values (numbers, not the query string's digits), each optional; `starting_after`: the previous page's last id. */
export type SessionListParams = Partial<z.output<typeof ListSessionsQuery>>;
export type SessionCaptureParams = z.input<typeof CaptureSessionBody>;
export type RefundCreateParams = z.input<typeof CreateRefundBody>;
export type WebhookEndpointCreateParams = z.input<typeof CreateWebhookEndpointBody>;
/** How long the current secret (or key) keeps working after a roll: `expire_current_in_seconds`, 0 to 604800, a day when absent. */
export type RollParams = z.input<typeof RollSecretKeyBody>;
export type EventListParams = Partial<z.output<typeof ListEventsQuery>>;
export type OriginVerifyParams = z.input<typeof VerifyOriginBody>;
export type QuoteEndpointSetParams = z.input<typeof SetQuoteEndpointBody>;
/**
 * What your quote endpoint answers (200, JSON): the delivery options for the address (the first the
 * default; required when the session has `shipping.options`), the `tax` (0 when absent) and the
 * promotion codes you accept (a code sent and not listed is refused in the sheet), or
 * `{error: {reason: 'shipping_address_unserviceable', message}}`. Read strictly: any other field and
 * the answer counts as none.
 */
export type QuoteAnswer = z.input<typeof QuoteAnswerSchema>;
