/** What each of the dashboard's languages says: a key missing in one fails the typecheck. */
import type { AddressFieldCheck, AddressVerdict, DisputeReason, DisputeStatus, EventType, MerchantChargeReason, OriginVerificationStatus, PaymentMethodStatus, PaymentStatus, RefundReason, SavedCardUsage, ThreeDsPolicy } from '../../../contracts';
import type { RecurringInterval } from '../../../contracts/agreements';
import type { PeriodPreset } from '../periods';

export interface DashboardMessages {
  title: string;
  signIn: { heading: string; key: string; keyHint: string; submit: string; failed: string };
  signOut: string;
  expired: string;
  nav: { payments: string; savedCards: string; developers: string };
  /** The Overview page (Overview.tsx): `heading` is its navigation link's word too. */
  overview: {
    heading: string;
    period: string;
    periods: Record<PeriodPreset, string>;
    from: string;
    to: string;
    apply: string;
    /** The period shown: `{from}` to `{to}` (YYYY-MM-DD), days in the time zone `{zone}`. */
    range: string;
    none: string;
    grossVolume: string;
    refunded: string;
    /** Links to the payments refunded in full and in part. */
    refundedInFull: string;
    refundedInPart: string;
    net: string;
    /** The disputes opened in the period, open or lost, and how many; a link to the disputes. */
    disputed: string;
    disputes: string;
    byDisputeStatus: string;
    disputeCount: string;
    noDispute: string;
    successRate: string;
    /** Under the rate: `{succeeded}` of `{total}` payments that reached an outcome. */
    outcomes: string;
    /** The chart's name: gross volume and refunds by day in `{currency}`. */
    chart: string;
    chartTable: string;
    day: string;
    byStatus: string;
    byDecline: string;
    status: string;
    reason: string;
    count: string;
    noDecline: string;
  };
  payments: {
    heading: string;
    filters: string;
    status: string;
    anyStatus: string;
    reference: string;
    from: string;
    to: string;
    apply: string;
    created: string;
    amount: string;
    card: string;
    none: string;
    next: string;
    previous: string;
    back: string;
    /** The search box (its hint names every kind of term: server/checkout/payment-search.ts). */
    search: string;
    searchHint: string;
    network: string;
    anyNetwork: string;
    declineCode: string;
    showAbandoned: string;
    exportCsv: string;
    /** A list with no filter and nothing in it: a new app's; `firstPayment` says how to make one. */
    empty: string;
    firstPayment: string;
  };
  /**
   * The wallet's billing address against the one on file (docs/api.md, "The billing address check"), and beside it the card
   * issuer's address verification ("The card issuer's address verification"); `note` says what each is worth.
   */
  billing: {
    heading: string;
    verdict: string;
    verdicts: Record<AddressVerdict, string>;
    fields: { postal_code: string; line1: string; country: string };
    results: Record<AddressFieldCheck, string>;
    /** The issuer's results of the first line and the postal code; `none` before a charge answered them. */
    issuer: { line1: string; postal_code: string; none: string };
    /** The wallet's address comes through the shopper's browser: its comparison with the address on file is no proof; the issuer's is the card's own. */
    note: string;
    fromWallet: string;
    onFile: string;
    none: string;
    erased: string;
  };
  /** What the shopper gave in an express checkout: the lines, the delivery option, the total charged with it, where to ship and the e-mail. */
  express: {
    heading: string;
    lineItems: string;
    item: string;
    amount: string;
    delivery: string;
    /** Shown only when it differs from the session's amount (a delivery option's price added). */
    charged: string;
    shippingAddress: string;
    email: string;
  };
  payment: {
    captured: string;
    refunded: string;
    timeline: string;
    capture: string;
    release: string;
    refund: string;
    amountToCapture: string;
    /** An amount outside what the action allows: `{min}` and `{max}` formatted. */
    amountRange: string;
    amountToRefund: string;
    /** Under the refund's amount field: `{amount}`, what is left to refund, formatted; an empty field refunds all of it. */
    refundable: string;
    /** The refund's reason picker (the API's RefundReason), and its choice of none. */
    reason: string;
    noReason: string;
    /** The merchant's description of the payment, given at creation. */
    description: string;
    /** The confirmation: `{amount}` is the amount in the session's currency. */
    confirmCapture: string;
    confirmRelease: string;
    confirmRefund: string;
    confirm: string;
    cancel: string;
    done: string;
  };
  /** A payment's saved card (SavedCard.tsx): a session that keeps the card, or a merchant-initiated charge of one. */
  savedCard: {
    title: string;
    chargedCard: string;
    reason: string;
    reasons: Record<MerchantChargeReason, string>;
    paymentMethod: string;
    /** The payment stands, but the service would not keep the card; the code follows in brackets. */
    notKept: string;
    customer: string;
    card: string;
    status: string;
    statuses: Record<PaymentMethodStatus, string>;
    agreement: string;
    detach: string;
    confirmDetach: string;
  };
  /** The Saved cards page (SavedCards.tsx): the app's kept cards; their statuses, customer, card and Detach are savedCard's words. */
  savedCards: {
    heading: string;
    filters: string;
    /** The customer filter: the merchant's own reference, matched exactly. */
    customer: string;
    expiry: string;
    usage: string;
    usages: Record<SavedCardUsage, string>;
    /** A subscription's terms: `{amount}` every one `interval`. */
    every: Record<RecurringInterval, string>;
    /** A subscription's terms: `{amount}` every `{n}` (more than one) `interval`s. */
    everyN: Record<RecurringInterval, string>;
    /** A reload's terms: `{amount}` when the balance falls below `{threshold}`. */
    reloadTerms: string;
    firstPayment: string;
    /** The accessible name of a row's Detach: `{card}` (network and last four) of `{customer}`. */
    detachRow: string;
    none: string;
  };
  timeline: {
    created: string;
    attempt: string;
    threeDs: string;
    event: string;
    refund: string;
    /** A refund the merchant gave a reason for: `{reason}` is one of refundReasons. */
    refundWithReason: string;
    delivery: string;
  };
  developers: {
    endpoints: string;
    url: string;
    add: string;
    remove: string;
    rollSecret: string;
    secretOnce: string;
    deliveries: string;
    noDeliveries: string;
    event: string;
    result: string;
    redeliver: string;
    redelivered: string;
    keys: string;
    overlap: string;
    overlaps: { now: string; hour: string; day: string; week: string };
    rollKey: string;
    keyOnce: string;
    /** The roll's re-authentication: the app's current secret key, asked again. */
    currentKey: string;
    currentKeyHint: string;
    /** The roll refused that key (403 reauthentication_failed). */
    reauthFailed: string;
    sessions: string;
    sessionsHint: string;
    signOutEverywhere: string;
    settings: string;
    allowedOrigins: string;
    allowedOriginsHint: string;
    threeDs: string;
    save: string;
    saved: string;
    readOnly: string;
  };
  /** A payment's status, the derived ones included (contracts/payment-status.ts). */
  statuses: Record<PaymentStatus, string>;
  deliveryStatuses: Record<'pending' | 'delivered' | 'failed', string>;
  /** Platform mode's proof of each allowed origin (docs/platform.md), on the developers' page of a platform-mode app. */
  verification: {
    heading: string;
    /** What to do: publish the file on each origin, its token on a line of its own. */
    intro: string;
    file: string;
    token: string;
    verifiedAt: string;
    lastChecked: string;
    nextCheck: string;
    never: string;
    lastFailure: string;
    /** `{n}` failed checks in a row, `{max}` lapse a verified origin. */
    failures: string;
    verifyNow: string;
    statuses: Record<OriginVerificationStatus, string>;
  };
  threeDsPolicies: Record<ThreeDsPolicy, string>;
  /** Why the merchant gave the money back (the API's RefundReason). */
  refundReasons: Record<RefundReason, string>;
  events: Record<EventType, string>;
  error: string;
  /** The Disputes page and a dispute's page (Disputes.tsx, DisputePage.tsx; docs/disputes.md). */
  disputes: {
    /** The navigation's entry. */
    nav: string;
    heading: string;
    filters: string;
    none: string;
    dispute: string;
    reason: string;
    reasons: Record<DisputeReason, string>;
    statuses: Record<DisputeStatus, string>;
    /** The date the evidence must be submitted by. */
    dueBy: string;
    payment: string;
    back: string;
    /** A dispute's page heading: `{amount}` disputed. */
    title: string;
    opened: string;
    evidence: string;
    /** `{date}` the evidence was submitted. */
    submitted: string;
    /** The shipping proof submitted: `{carrier}` and `{tracking}` number. */
    shipped: string;
    /** No evidence came by `{date}`: the dispute is lost. */
    pastDue: string;
    explanation: string;
    explanationHint: string;
    /** What the server attaches to the evidence from the payment: its address checks. */
    attached: string;
    shipping: string;
    carrier: string;
    trackingNumber: string;
    submit: string;
    confirmSubmit: string;
  };
}
