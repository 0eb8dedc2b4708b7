/**
 * The dashboard's own API (/dashboard/api, server/dashboard/): what its page
 * reads. Not the merchant API: a browser session calls it, docs/dashboard.md.
 */
import { z } from 'zod';
import { CardNetwork } from './google-pay';
import { DisputeStatus } from './disputes';
import { EventType } from './events';
import { RollSecretKeyBody } from './keys';
import { listOf } from './paging';
import { ListPaymentMethodsQuery, PaymentMethod, PaymentMethodStatus } from './saved-cards';
import { RefundReason } from './refunds';
import { ListSessionsQuery, PaymentOutcome, Session, SessionStatus } from './sessions';
import { ALLOWED_ORIGIN_MESSAGE, allowedOriginOf } from './urls';

/**
 * 3-D Secure for PAN_ONLY cards: `if_required`, when the issuer asks for it;
 * `always_for_pan_only`, on every one (charges carry `authentication:
 * 'required'`). CRYPTOGRAM_3DS cards are authenticated by their cryptogram.
 * An app's setting (apps/registry.ts), here so that the dashboard's page shares it.
 */
export const ThreeDsPolicy = z.enum(['if_required', 'always_for_pan_only']);
export type ThreeDsPolicy = z.infer<typeof ThreeDsPolicy>;

/** One origin allowed to use an app's checkout: its rule is allowedOriginOf's (contracts/urls.ts). */
export const AllowedOrigin = z
  .string()
  .max(300, 'must be an http(s) origin of at most 300 characters')
  .transform((text, ctx) => {
    const origin = allowedOriginOf(text.trim());
    if (origin !== undefined) return origin;
    ctx.addIssue({ code: 'custom', message: ALLOWED_ORIGIN_MESSAGE });
    return z.NEVER;
  });

/** The pages allowed to use an app's checkout: 1 to 50 origins. */
export const AllowedOrigins = z.array(AllowedOrigin).min(1).max(50);

/** What the dashboard may change of an app's checkout configuration (docs/dashboard.md). */
export const CheckoutSettings = z.strictObject({ allowed_origins: AllowedOrigins, three_ds: ThreeDsPolicy });
export type CheckoutSettings = z.infer<typeof CheckoutSettings>;

export const DashboardSignIn = z.strictObject({ secret_key: z.string().min(1).max(200) });

/**
 * The dashboard's key roll: the overlap, as the API's (RollSecretKeyBody), and
 * the app's current secret key again (re-authentication: a stolen cookie alone
 * cannot roll the merchant's key away from them).
 */
export const DashboardKeyRoll = z.strictObject({
  expire_current_in_seconds: RollSecretKeyBody.shape.expire_current_in_seconds,
  secret_key: DashboardSignIn.shape.secret_key,
});
export type DashboardKeyRoll = z.input<typeof DashboardKeyRoll>;

export const DashboardSignedIn = z.object({
  app: z.object({ id: z.string(), name: z.string() }),
  /** Sent back in the X-CSRF-Token header on every change. */
  csrf_token: z.string(),
  idle_timeout_ms: z.number().int(),
});
export type DashboardSignedIn = z.infer<typeof DashboardSignedIn>;

/** `GET /dashboard/api/session`: whether this browser is signed in, and if so as which app (the page's first question). */
export const DashboardSessionState = z.discriminatedUnion('signed_in', [
  z.object({ signed_in: z.literal(false) }),
  z.object({ signed_in: z.literal(true), app: DashboardSignedIn.shape.app, csrf_token: DashboardSignedIn.shape.csrf_token }),
]);
export type DashboardSessionState = z.infer<typeof DashboardSessionState>;

/** The card as the dashboard shows it: its network and last four digits, never more. */
export const DashboardCard = z.object({ network: CardNetwork, last4: z.string() });
export type DashboardCard = z.infer<typeof DashboardCard>;

/** A session as the merchant API returns it, its card cut down to DashboardCard, with its currency's ISO 4217 exponent to format amounts by. */
export const DashboardPayment = Session.extend({ outcome: PaymentOutcome.extend({ card: DashboardCard.nullable() }).nullable(), currency_exponent: z.number().int() });
export type DashboardPayment = z.infer<typeof DashboardPayment>;

export const DashboardPaymentList = listOf(DashboardPayment);

/**
 * The Payments list's query (GET /dashboard/api/payments): the API's (ListSessionsQuery: `payment_status` is the page's
 * status filter) and the dashboard's own: one search box (`q`, server/checkout/payment-search.ts), the card network, the
 * decline's code, and `abandoned=1` to list the sessions abandoned before any payment, left out otherwise (docs/dashboard.md).
 */
export const DashboardPaymentsQuery = ListSessionsQuery.extend({
  q: z.string().trim().min(1).max(200).optional(),
  network: CardNetwork.optional(),
  decline_code: z.string().min(1).max(100).optional(),
  abandoned: z.enum(['0', '1']).optional(),
});
export type DashboardPaymentsQuery = z.input<typeof DashboardPaymentsQuery>;

/** The CSV export's query (GET /dashboard/api/payments.csv): the list's filters, every page of them. */
export const DashboardPaymentsExportQuery = DashboardPaymentsQuery.omit({ limit: true, starting_after: true });
export type DashboardPaymentsExportQuery = z.input<typeof DashboardPaymentsExportQuery>;
export type DashboardPaymentList = z.infer<typeof DashboardPaymentList>;

export const DeliveryView = z.object({
  id: z.string(),
  event_id: z.string(),
  event_type: EventType,
  endpoint_id: z.string(),
  url: z.string(),
  /** `pending`, `delivered`, `failed` (store/schema.ts). */
  status: z.string(),
  attempts: z.number().int(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  updated: z.number().int(),
});
export type DeliveryView = z.infer<typeof DeliveryView>;

/** The webhook deliveries of the event that reported a timeline line's fact: shown under that line, not as lines of their own. */
const reportedBy = { deliveries: z.array(DeliveryView) };

/**
 * One line of a payment's timeline, one fact each, oldest first; the page words each kind in its language. An event
 * that reports a fact another line shows (an attempt's outcome, a refund's) is that line, with its deliveries.
 */
export const TimelineEntry = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('created'), at: z.number() }),
  /** A charge attempt and what it came to, with the deliveries of the `session.*` event that reported it. */
  z.object({ kind: z.literal('attempt'), at: z.number(), attempt_no: z.number().int(), status: z.string(), failure_message: z.string().nullable(), ...reportedBy }),
  z.object({ kind: z.literal('three_ds'), at: z.number(), attempt_no: z.number().int() }),
  /** An event that is a fact of its own: a hold captured or released, the checkout expired. */
  z.object({ kind: z.literal('event'), at: z.number(), type: EventType, event_id: z.string(), ...reportedBy }),
  /** A refund and what it came to, with the deliveries of the `refund.*` event that reported it. */
  z.object({ kind: z.literal('refund'), at: z.number(), amount: z.number().int(), reason: RefundReason.nullable(), status: z.string(), failure_message: z.string().nullable(), ...reportedBy }),
]);
export type TimelineEntry = z.infer<typeof TimelineEntry>;

export const DashboardPaymentPage = z.object({ payment: DashboardPayment, timeline: z.array(TimelineEntry) });
export type DashboardPaymentPage = z.infer<typeof DashboardPaymentPage>;

export const DashboardEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(EventType).nullable(),
  created: z.number().int(),
  recent_deliveries: z.array(DeliveryView),
});
export type DashboardEndpoint = z.infer<typeof DashboardEndpoint>;

/** The app's checkout configuration; the dashboard may change `allowed_origins` and `three_ds` (CheckoutSettings), the rest is shown. */
export const DashboardSettings = z.object({
  name: z.string(),
  environment: z.string(),
  decryption_mode: z.string(),
  google_pay_mode: z.string(),
  card_networks: z.array(z.string()),
  auth_methods: z.array(z.string()),
  allowed_origins: z.array(z.string()),
  three_ds: ThreeDsPolicy,
});
export type DashboardSettings = z.infer<typeof DashboardSettings>;

/** The Saved cards page's query: the API's (GET /api/payment_methods: customer, limit, starting_after) and a status. */
export const DashboardPaymentMethodsQuery = ListPaymentMethodsQuery.extend({ status: PaymentMethodStatus.optional() });
export type DashboardPaymentMethodsQuery = z.input<typeof DashboardPaymentMethodsQuery>;

/** A kept card as the API shows it, with its terms' currency's ISO 4217 exponent to format their amounts by. */
export const DashboardPaymentMethod = PaymentMethod.extend({ currency_exponent: z.number().int() });
export type DashboardPaymentMethod = z.infer<typeof DashboardPaymentMethod>;

export const DashboardPaymentMethodList = listOf(DashboardPaymentMethod);
export type DashboardPaymentMethodList = z.infer<typeof DashboardPaymentMethodList>;

/** The longest period the overview answers, in days: a year, leap day included (its daily chart is one bucket a day). */
export const OVERVIEW_MAX_DAYS = 366;

const DAY_MS = 24 * 60 * 60 * 1000;
/** Days from `from` to `to`, both included (dates as YYYY-MM-DD, read as calendar days: no zone). */
export const daysBetween = (from: string, to: string): number => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1;

/** Whether the runtime knows `zone` as an IANA time zone (Intl throws a RangeError for an unknown one). */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * `GET /dashboard/api/overview`: a period of calendar days, `from` to `to` both included, in the merchant's
 * IANA time zone (the page sends its browser's): the days the payments list's `from`/`to` filters mean.
 */
export const DashboardOverviewQuery = z
  .strictObject({
    from: z.iso.date(),
    to: z.iso.date(),
    time_zone: z.string().max(64).refine(isTimeZone, 'must be an IANA time zone, such as Europe/Paris or UTC'),
  })
  .refine((period) => period.from <= period.to, { path: ['to'], message: 'must be on or after from' })
  .refine((period) => daysBetween(period.from, period.to) <= OVERVIEW_MAX_DAYS, { path: ['to'], message: `the period is at most ${OVERVIEW_MAX_DAYS} days` });
export type DashboardOverviewQuery = z.infer<typeof DashboardOverviewQuery>;

/**
 * The money figures of a currency, in its minor units, over the period or one day of it (docs/dashboard.md,
 * "Overview"): one field per figure, so a new figure is one more field here and in the store's sums.
 */
export const OverviewMoney = z.object({
  /** What the payments took: a charge's amount charged, a captured hold's amount captured. */
  gross_volume: z.number().int(),
  /** Of that, refunded (refunds succeeded or under way: the payments' `amount_refunded`). */
  refunded: z.number().int(),
  /** gross_volume − refunded. */
  net: z.number().int(),
});
export type OverviewMoney = z.infer<typeof OverviewMoney>;

/** Payments that reached an outcome, and how many of them succeeded: the success rate's two terms. */
export const OverviewOutcomes = z.object({
  succeeded: z.number().int(),
  reached_outcome: z.number().int(),
  /** succeeded ÷ reached_outcome, 0 to 1; null when no payment reached an outcome. */
  success_rate: z.number().min(0).max(1).nullable(),
});
export type OverviewOutcomes = z.infer<typeof OverviewOutcomes>;

export const OverviewDay = OverviewMoney.extend({ date: z.iso.date() });
export type OverviewDay = z.infer<typeof OverviewDay>;

/**
 * One currency's figures: the period's, its outcomes, and each day's (every day of the period, oldest first).
 * `disputed` and `disputes`: the disputes opened in the period that are open or lost (a won one gave the money
 * back), by the day they were opened, not the payment's: a dispute comes weeks after its payment. Kept apart from
 * `net`, which is the payments' own (gross − refunded), as a lost dispute's fee and reversal are the service's to report.
 */
export const OverviewCurrency = OverviewMoney.extend({
  currency: z.string(),
  currency_exponent: z.number().int(),
  disputed: z.number().int(),
  disputes: z.number().int(),
  outcomes: OverviewOutcomes,
  days: z.array(OverviewDay),
});
export type OverviewCurrency = z.infer<typeof OverviewCurrency>;

/** The overview of a period: per currency (those the period's payments are in), and the counts by status and by decline reason. */
export const DashboardOverview = z.object({
  object: z.literal('dashboard_overview'),
  from: z.iso.date(),
  to: z.iso.date(),
  time_zone: z.string(),
  currencies: z.array(OverviewCurrency),
  /** Every payment of the period by its status, most first; statuses without a payment are left out. */
  statuses: z.array(z.object({ status: SessionStatus, count: z.number().int() })),
  /** The period's declined payments by the reason of their latest decline (the payment service's `failure_code`), most first. */
  decline_codes: z.array(z.object({ code: z.string(), count: z.number().int() })),
  /** The period's disputes (opened in it) by status, most first; statuses without a dispute are left out. */
  dispute_statuses: z.array(z.object({ status: DisputeStatus, count: z.number().int() })),
});
export type DashboardOverview = z.infer<typeof DashboardOverview>;
