/**
 * Checkout sessions: what the merchant's server creates and reads, and the
 * public view the widget reads with the client secret.
 */
import { z } from 'zod';
import { listOf, pageLimit, QueryInteger, startingAfter } from './paging';
import { ChallengeUrl } from './authentication';
import { AddressVerification, BillingAddressCheck, ErasedAddress, StoredAddress } from './billing-address';
import { BillingDetails, CaptureRequest, CardSummary } from './charges';
import { CountryCode } from './country';
import { SessionQuote } from './quote-endpoint';
import { AskedContact, AskedShipping, ChosenShippingOption, ContactRequest, LineItem, lineItemsProblems, MAX_LINE_ITEMS, ShippingRequest, shippingOptionsProblems } from './express';
import { isPaymentCurrency } from './currency';
import { usableLocale } from './locale';
import { PaymentData, PaymentDataRequest, WalletEnvironment } from './google-pay';
import { Refund } from './refunds';
import { PaymentStatus } from './payment-status';
import { AgreementText, KeepCardError, MerchantChargeReason, PayAgreement, RecordedAgreement, SavedCardUsage, savedCardProblems, SavePaymentMethod } from './saved-cards';
import { SESSION_STATUSES } from './session-states';

/**
 * `cs_` and 16 random bytes in base64url (server/checkout/sessions.ts makes
 * them): a path id of any other shape names no session, so it is answered
 * without reading the store.
 */
export const SessionId = z.string().regex(/^cs_[A-Za-z0-9_-]{22}$/, 'a checkout session id (cs_...)');

/** How long a session takes payments: 24 hours unless the merchant says otherwise, from 30 minutes to 7 days. */
export const SESSION_LIFETIME = { defaultMs: 24 * 60 * 60 * 1000, minMs: 30 * 60 * 1000, maxMs: 7 * 24 * 60 * 60 * 1000 } as const;

/**
 * What a payment of the session does: `charge` takes the money, `hold` places a hold the merchant captures
 * or releases, `setup` charges nothing and keeps the card (with `save_payment_method`); `merchant_initiated`
 * is a charge of a kept card without the shopper, made by POST /api/payment_methods/{id}/charges, never created here.
 */
export const SessionIntent = z.enum(['charge', 'hold', 'setup', 'merchant_initiated']).meta({ id: 'SessionIntent' });
export type SessionIntent = z.infer<typeof SessionIntent>;

export const CreateSessionBody = z.strictObject({
  /** Required, except with intent `setup`, which charges nothing now and takes none. */
  amount: z.number().int().positive().max(99_999_999_999).optional().meta({ description: 'In minor units; required, except with intent `setup`, which charges nothing now and refuses one' }),
  /** An active ISO 4217 currency (contracts/currency.ts), any case; stored upper case. */
  currency: z
    .string()
    .transform((c) => c.toUpperCase())
    .refine(isPaymentCurrency, 'currency must be an active ISO 4217 currency (not a fund, metal or test code)'),
  country_code: z
    .string()
    .transform((c) => c.toUpperCase())
    .pipe(CountryCode),
  description: z.string().max(500).optional(),
  reference: z.string().max(200).optional(),
  intent: z.enum(['charge', 'hold', 'setup']).default('charge'),
  /**
   * Keep the card this session is paid with, for this customer and this use, so the merchant can charge it
   * later without the shopper (docs/saved-cards.md): the shopper agrees to the terms shown at the payment.
   */
  save_payment_method: SavePaymentMethod.optional(),
  /**
   * When the session stops taking payments (ms since the epoch): from
   * SESSION_LIFETIME.minMs to SESSION_LIFETIME.maxMs after its creation
   * (checked against the clock when it is created), SESSION_LIFETIME.defaultMs when absent.
   */
  expires_at: z.number().int().positive().optional().meta({ description: 'ms since the epoch, 30 minutes to 7 days from now; 24 hours from now when absent' }),
  /**
   * The address the merchant already has for this customer, in the charge's billing details shape: the
   * wallet's billing address is checked against it (`billing_address_check`). Sealed at rest, erased after
   * PERSONAL_DATA_RETENTION_DAYS (docs/api.md#the-billing-address-check).
   */
  billing_address_on_file: BillingDetails.optional(),
  /**
   * The shopper's language as the merchant's page shows it (BCP 47, "fr-CA"): the reply's
   * `public_view` then carries the amount formatted for it (`amount_display`), so that a widget in
   * that locale draws its first paint without formatting a number. Not stored: it shapes this reply only.
   */
  locale: z
    .string()
    .max(64)
    .transform((tag, ctx) => {
      const usable = usableLocale(tag);
      if (usable === undefined) ctx.addIssue({ code: 'custom', message: 'locale must be a BCP 47 language tag, such as en or fr-CA' });
      return usable ?? z.NEVER;
    })
    .optional(),
  /**
   * What the wallet's sheet shows the shopper the amount is made of: they must add up to `amount`, each
   * a price Google Pay can show. Shown as they are: nothing in the sheet changes them.
   */
  line_items: z.array(LineItem).max(MAX_LINE_ITEMS).optional(),
  /**
   * Ask the sheet for a shipping address in one of `countries` (and its phone when `phone`): the merchant's view then has it.
   * With `options`, the shopper picks a delivery option and is charged `amount` plus its amount (the server's quote).
   */
  shipping: ShippingRequest.optional(),
  /** Ask the sheet for the shopper's e-mail, and for the billing address's phone number. */
  contact: ContactRequest.optional(),
  /**
   * Price each change in the sheet on the application's quote endpoint (PUT /api/quote_endpoint): the delivery options
   * for the address, the tax, the promotion codes. `shipping.options` are then what the sheet opens with, until the first quote.
   */
  quote_endpoint: z.boolean().default(false),
  /** Let the shopper enter promotion codes in the sheet, each accepted or refused by the quote endpoint: needs `quote_endpoint`. */
  promotion_codes: z.boolean().default(false),
}).superRefine((body, ctx) => {
  savingProblems(body, ctx);
  if (body.promotion_codes && !body.quote_endpoint) ctx.addIssue({ code: 'custom', path: ['promotion_codes'], message: 'promotion codes are accepted or refused by the quote endpoint: set quote_endpoint too' });
  if (body.quote_endpoint && !body.shipping && !body.promotion_codes) {
    ctx.addIssue({ code: 'custom', path: ['quote_endpoint'], message: 'the quote endpoint prices a shipping address or a promotion code: ask for shipping, or allow promotion_codes' });
  }
  // Fields already refused (a refinement does not stop the parse) leave nothing to compare the items with.
  if (!isPaymentCurrency(body.currency)) return;
  const options = body.shipping?.options ?? [];
  if (options.every((option) => Number.isSafeInteger(option.amount))) {
    for (const problem of shippingOptionsProblems(options, body.currency)) ctx.addIssue({ code: 'custom', ...problem });
  }
  if (body.save_payment_method) for (const problem of savedCardProblems(body.save_payment_method, body.currency)) ctx.addIssue({ code: 'custom', ...problem });
  if (!body.line_items || body.amount === undefined || ![body.amount, ...body.line_items.map((item) => item.amount)].every(Number.isSafeInteger)) return;
  for (const problem of lineItemsProblems(body.line_items, body.amount, body.currency)) ctx.addIssue({ code: 'custom', ...problem });
}).meta({ id: 'CreateSessionBody' });
export type CreateSessionBody = z.infer<typeof CreateSessionBody>;

/**
 * What a session that saves the card may not ask, and what a setup needs. Google Pay's recurring and
 * automatic-reload requests (recurringTransactionInfo, automaticReloadTransactionInfo) replace the
 * transaction's total, which line items, delivery options and quotes are lines and updates of; and it has
 * no request that shows a card kept for unscheduled charges with nothing charged now (docs/saved-cards.md).
 */
function savingProblems(body: { amount?: number | undefined; intent: string; save_payment_method?: SavePaymentMethod | undefined; line_items?: unknown[] | undefined; shipping?: { options?: unknown } | undefined; quote_endpoint: boolean }, ctx: z.RefinementCtx): void {
  const issue = (path: string[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  const save = body.save_payment_method;
  if (body.intent === 'setup') {
    if (body.amount !== undefined) issue(['amount'], 'intent setup charges nothing now: leave amount out (the amounts charged later are save_payment_method\'s)');
    if (!save) issue(['save_payment_method'], 'intent setup keeps a card without charging it: save_payment_method is required');
    else if (save.usage === 'unscheduled') {
      issue(['intent'], 'a card kept for unscheduled charges is saved with a payment (intent charge or hold): Google Pay has no request that shows such an agreement with nothing charged now');
    }
  } else if (body.amount === undefined) issue(['amount'], 'amount is required (only intent setup takes none)');
  if (!save || save.usage === 'unscheduled') return;
  const why = `a card kept for ${save.usage} charges is asked for with Google Pay's ${save.usage} request, which has no`;
  if (body.line_items?.length) issue(['line_items'], `${why} line items`);
  if (body.shipping?.options) issue(['shipping', 'options'], `${why} delivery options`);
  if (body.quote_endpoint) issue(['quote_endpoint'], `${why} quotes`);
}

/**
 * open: waiting for the shopper; processing: a payment attempt is with the
 * service; requires_authentication: the card needs a 3-D Secure challenge;
 * succeeded / declined / failed: the last attempt's outcome (declined and
 * failed sessions may be paid again); authorized: a hold was placed (intent
 * `hold`), then captured or released by the merchant; pending: the outcome of
 * an attempt is unknown and is being confirmed; expired: `expires_at`
 * passed before it was paid (final). The transitions between them
 * are session-states.ts, enforced by server/checkout/states.ts (docs/holds-and-3ds.md).
 */
export const SessionStatus = z.enum(SESSION_STATUSES).meta({ id: 'SessionStatus' });
export type SessionStatus = z.infer<typeof SessionStatus>;

/** What one payment attempt came to; a capture or release later changes the session's status, not this. */
export const PaymentOutcomeStatus = z.enum(['succeeded', 'authorized', 'requires_authentication', 'declined', 'failed', 'pending']).meta({ id: 'PaymentOutcomeStatus' });
export type PaymentOutcomeStatus = z.infer<typeof PaymentOutcomeStatus>;

export const PaymentOutcome = z.object({
  status: PaymentOutcomeStatus,
  charge_id: z.string().nullable(),
  card: CardSummary.nullable(),
  failure_code: z.string().nullable(),
  failure_message: z.string().nullable(),
  /** requires_authentication: the 3-D Secure challenge page to show the shopper in a frame. */
  challenge_url: ChallengeUrl.optional(),
  /**
   * What Google Pay verified about the card, as its `assuranceDetails` said
   * (absent when the wallet said nothing): `card_holder_authenticated` true
   * means the wallet already authenticated the holder (docs/holds-and-3ds.md).
   */
  assurance_details: z.object({ account_verified: z.boolean().nullable(), card_holder_authenticated: z.boolean().nullable() }).optional(),
}).meta({ id: 'PaymentOutcome' });
export type PaymentOutcome = z.infer<typeof PaymentOutcome>;

/** The merchant's view (secret key): everything but payment data. */
export const Session = z.object({
  id: z.string(),
  object: z.literal('checkout_session'),
  app_id: z.string(),
  status: SessionStatus,
  /** The payment as a merchant reads it: `status`, or refunded, partially refunded, disputed (payment-status.ts; docs/api.md). */
  payment_status: PaymentStatus,
  amount: z.number().int(),
  currency: z.string(),
  country_code: z.string(),
  description: z.string().nullable(),
  reference: z.string().nullable(),
  intent: SessionIntent,
  attempts: z.number().int(),
  outcome: PaymentOutcome.nullable(),
  /** captured: how much of the hold was taken (the rest was released); null otherwise. */
  amount_captured: z.number().int().nullable(),
  /** The sum of the refunds that succeeded or are pending: never more than what was taken (amount, or amount_captured). */
  amount_refunded: z.number().int(),
  /** Oldest first. */
  refunds: z.array(Refund),
  created: z.number().int(),
  updated: z.number().int(),
  /** When the session stops taking payments (ms since the epoch); an unpaid session then becomes `expired`. */
  expires_at: z.number().int(),
  /** What the merchant passed at creation; null when none; `{erased: true}` after the retention period. */
  billing_address_on_file: StoredAddress.nullable(),
  /**
   * The billing address the wallet returned with the latest payment, as it returned it (the phone only
   * if the request asked for it); null before a payment or when the wallet gave none; `{erased: true}` after the retention period.
   */
  billing_address: StoredAddress.nullable(),
  /** The wallet's billing address against the one on file (docs/api.md#the-billing-address-check); null before a payment. Kept after erasure. */
  billing_address_check: BillingAddressCheck.nullable().meta({
    description:
      "A comparison of the billing address the shopper's wallet gave (`billing_address`) with the one on file (`billing_address_on_file`): " +
      "postal code, first line and country, and a verdict. The wallet's address is supplied by the shopper's browser, outside the encrypted " +
      "payment token, so the browser can rewrite it: this comparison is not proof. The card issuer's own verification is `address_verification`. " +
      'Null before a payment; kept after the addresses are erased.',
  }),
  /** The card issuer's address verification, from the latest attempt's charge (docs/api.md#the-card-issuers-address-verification); null until a charge answers it. Kept after erasure. */
  /** What the sheet showed the amount is made of, as the merchant gave it; empty when it gave none. */
  line_items: z.array(LineItem),
  /** The shipping address the sheet asked for (countries, phone); null when none was asked. */
  shipping: AskedShipping.nullable(),
  /** The contact details the sheet asked for; null when none were asked. */
  contact: AskedContact.nullable(),
  /**
   * The shipping address the wallet returned with the latest payment, in the billing details' shape (its phone only
   * when `shipping.phone`); null when none was asked or given; `{erased: true}` after the retention period.
   */
  shipping_address: StoredAddress.nullable(),
  /** The shopper's e-mail the wallet returned with the latest payment; null when not asked or not given; `{erased: true}` after the retention period. */
  email: z.union([z.string(), ErasedAddress]).nullable(),
  /** The delivery option the latest payment was for, at the price it was quoted (`shipping.options`); null before a payment, or when the session has no options. */
  shipping_option: ChosenShippingOption.nullable(),
  /** What the latest payment attempt charged (or held): `amount`, plus `shipping_option.amount` when there is one; null before a payment. */
  amount_charged: z.number().int().nullable(),
  /** Whether the sheet's prices come from the application's quote endpoint, and whether it takes promotion codes. */
  quote_endpoint: z.boolean(),
  promotion_codes: z.boolean(),
  /** With `quote_endpoint`: the quote the latest payment was charged (its total is `amount_charged`); null before a payment. */
  quote: SessionQuote.nullable(),
  /** What the session asked to keep the card for (docs/saved-cards.md); null when it keeps none. */
  save_payment_method: SavePaymentMethod.nullable(),
  /** What the shopper agreed to when paying a session that saves the card, and when; null before such a payment. */
  agreement: RecordedAgreement.nullable(),
  /**
   * The payment method (pm_...) this session saved the card as, once saved (the `payment_method.attached` or `.updated`
   * event says when); for intent `merchant_initiated`, the one it charged. Null otherwise.
   */
  payment_method: z.string().nullable(),
  /** Why the payment service would not keep the card of this paid session (the payment stands); null otherwise. */
  payment_method_error: KeepCardError.nullable(),
  /** Intent `merchant_initiated`: why the merchant charged the kept card; null otherwise. */
  charge_reason: MerchantChargeReason.nullable(),
  address_verification: AddressVerification.nullable().meta({
    description:
      "The card issuer's address verification (AVS), answered by the payment service with the latest attempt's charge: the billing address " +
      "the charge sent against the cardholder's address at the card issuer, for the first line and the postal code, each `match`, `mismatch` " +
      'or `unavailable` (not verified: the issuer does not take part, or the wallet gave no such field). Null before a payment, and while no ' +
      'charge has answered the latest attempt (refused by the service, outcome being confirmed); kept after the addresses are erased.',
  }),
}).meta({ id: 'Session' });
export type Session = z.infer<typeof Session>;


/**
 * GET /api/sessions: the app's sessions, newest first (by `created`, then
 * `id`), filters combined. `created_gte` / `created_lt` are ms since the epoch
 * like `created`; `starting_after` is the last session of the previous page
 * (exclusive). Unknown parameters are refused, so a misspelt filter is never
 * silently ignored.
 */
export const ListSessionsQuery = z.strictObject({
  status: SessionStatus.optional().meta({ description: 'Only sessions in this status' }),
  payment_status: PaymentStatus.optional().meta({ description: 'Only sessions whose `payment_status` is this one (`succeeded` leaves out the refunded ones)' }),
  reference: z.string().min(1).max(200).optional().meta({ description: 'Only sessions created with this reference' }),
  created_gte: QueryInteger.optional().meta({ description: 'Only sessions created at or after this time (ms since the epoch)' }),
  created_lt: QueryInteger.optional().meta({ description: 'Only sessions created before this time (ms since the epoch)' }),
  limit: pageLimit('Sessions'),
  starting_after: startingAfter(SessionId, 'session'),
});
export type ListSessionsQuery = z.infer<typeof ListSessionsQuery>;

/** The reply to GET /api/sessions: one page; `has_more` says whether a next one (starting after the last) has any session. */
export const SessionList = listOf(Session).meta({ id: 'SessionList' });
export type SessionList = z.infer<typeof SessionList>;

/** The widget's view (client secret): enough to show and pay, nothing more. */
export const PublicSession = z.object({
  id: z.string(),
  status: SessionStatus,
  amount: z.number().int(),
  currency: z.string(),
  /** ISO 4217 minor-unit digits of `currency` (JPY 0, USD 2, IQD 3): `amount` shown is amount / 10^exponent. */
  currency_exponent: z.number().int().min(0).max(4),
  /** captured: how much of the hold was taken, which the widget shows in place of `amount`; null otherwise. */
  amount_captured: z.number().int().nullable(),
  /**
   * The amount the widget shows (`amount_captured`, else `amount`) as the server formats it for
   * `locale`: in the creation reply's view when the merchant named the shopper's `locale`, null
   * otherwise. A widget whose locale is `locale` shows `text` as it is; any other formats the amount itself.
   */
  amount_display: z.object({ locale: z.string(), text: z.string() }).nullable(),
  description: z.string().nullable(),
  merchant_name: z.string(),
  wallet: z.object({
    environment: WalletEnvironment,
    /** Where the sandbox wallet script lives, when environment is SANDBOX. */
    sandbox_script: z.string().nullable(),
  }),
  payment_data_request: PaymentDataRequest,
  outcome: PaymentOutcome.nullable(),
  /** When the session stops taking payments (ms since the epoch); past it, this view answers 410 `session_expired`. */
  expires_at: z.number().int(),
  /**
   * A session that keeps the card: its use, whether it charges nothing now (intent `setup`), and the agreement the
   * widget must show the shopper and name in its payment (`agreement.id` of pay); absent for one that keeps none.
   */
  save_payment_method: z.object({ usage: SavedCardUsage, setup: z.boolean(), agreement: AgreementText }).optional(),
}).meta({ id: 'PublicSession' });
export type PublicSession = z.infer<typeof PublicSession>;

/** What the widget's calls answer for an expired session (410: it will not take a payment again); the demo's gallery answers it too. */
export const sessionExpired = { code: 'session_expired', message: 'This checkout has expired; go back to the store to start again' } as const;

/**
 * The reply to POST /api/sessions: the only time the client secret is shown. `public_view`: the
 * widget's view of the new session, for the merchant's page to hand to the widget (`data-session-view`,
 * docs/embedding.md) so that no request precedes the button; null for a platform-mode app (its
 * view carries a token signed for the page's origin, which the widget asks for) or an app that cannot
 * be paid yet (a direct-mode app without a key: the widget's own request says why).
 */
export const CreatedSession = Session.extend({ client_secret: z.string(), public_view: PublicSession.nullable() }).meta({ id: 'CreatedSession' });
export type CreatedSession = z.infer<typeof CreatedSession>;

/**
 * POST /api/sessions/{id}/pay: the PaymentData exactly as the wallet returned it. `quote_id`: for a session with
 * delivery options, the latest quote's (POST /api/sessions/{id}/quote), required; for one without, ignored.
 * `agreement`: for a session that keeps the card, the agreement shown to the shopper.
 */
export const PayBody = z
  .strictObject({
    payment_data: PaymentData,
    quote_id: z.string().max(100).optional(),
    /** For a session that keeps the card: the agreement the shopper was shown (the public view's `save_payment_method.agreement.id`); required then, ignored otherwise. */
    agreement: PayAgreement.optional(),
  })
  .meta({ id: 'PayBody' });
export type PayBody = z.infer<typeof PayBody>;

/** The reply to POST /api/sessions/{id}/pay: the attempt's outcome and the session as the widget now sees it. */
export const PayReply = z.object({ outcome: PaymentOutcome, session: PublicSession }).meta({ id: 'PayReply' });
export type PayReply = z.infer<typeof PayReply>;

/**
 * POST /api/sessions/{id}/authenticate (client secret): the challenge is
 * over, go on with the payment; `cancel: true`, the shopper closed it. The
 * reply is a PayReply.
 */
export const AuthenticateBody = z.strictObject({ cancel: z.literal(true).optional() }).meta({ id: 'AuthenticateBody' });
export type AuthenticateBody = z.infer<typeof AuthenticateBody>;

/**
 * The body of an operation with nothing to say (release, redeliver): none, or `{}`; a field is
 * refused (a release with an `amount` is not a partial capture).
 */
export const EmptyBody = z.strictObject({}).meta({ id: 'EmptyBody', description: 'No fields: send `{}` or no body at all' });
export type EmptyBody = z.infer<typeof EmptyBody>;

/** POST /api/sessions/{id}/capture (secret key): the service's capture body, all of the hold by default; what is left is released. */
export const CaptureSessionBody = CaptureRequest;
export type CaptureSessionBody = CaptureRequest;
