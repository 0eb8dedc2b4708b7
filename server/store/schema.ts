import type { Generated } from 'kysely';
import type { IdempotencyKeysTable } from '../../common/store/idempotency';

/** The backend's tables. JSON columns hold text; the modules that own them parse it. */
export interface AppsTable {
  id: string;
  name: string;
  merchant_id: string;
  /** The digest of the app's newest secret key; keys are checked against app_secret_keys, which also keeps older live ones. */
  secret_key_hash: string;
  allowed_origins: string;
  auth_methods: string;
  card_networks: string;
  environment: string;
  decryption_mode: string;
  created: number;
  short_description: Generated<string>;
  long_description: Generated<string>;
  product_url: string | null;
  /** JSON array of {category, icon_url, size}. */
  icons: Generated<string>;
  /** 0 or 1: SQLite has no boolean. */
  security_assessment_passed: Generated<number>;
  /** ThreeDsPolicy: `if_required` or `always_for_pan_only`. */
  three_ds: Generated<string>;
  /** The merchant id Google issued (`merchantInfo.merchantId`), unrelated to merchant_id. */
  google_merchant_id: string | null;
  /** GooglePayMode: `merchant` or `platform`. */
  google_pay_mode: Generated<string>;
}

/** Every secret key of every app (store/secret-keys.ts): a key works while `expires` is null or in the future. */
export interface AppSecretKeysTable {
  /** SHA-256 of the key (lib/secrets.ts); the key itself is never stored. */
  hash: string;
  app_id: string;
  created: number;
  /** ms since epoch; null: until the key is rolled. */
  expires: number | null;
}

export interface SessionsTable {
  id: string;
  app_id: string;
  status: string;
  amount: number;
  currency: string;
  country_code: string;
  description: string | null;
  reference: string | null;
  intent: string;
  client_secret_hash: string;
  attempts: Generated<number>;
  outcome: string | null;
  /** Set when a hold is captured. */
  amount_captured: number | null;
  /** The refunds pending or succeeded: reserved before the service is asked, given back when a refund fails (store/refunds.ts). */
  amount_refunded: Generated<number>;
  /** 1 while the session has an open or a lost dispute, kept by store/disputes.ts with the dispute's row: its payment status reads it. */
  disputed: Generated<number>;
  created: number;
  updated: number;
  /** When an unpaid session expires (ms since the epoch). */
  expires_at: number;
  /** BillingDetails JSON, sealed with the data cipher: the merchant's `billing_address_on_file`; `erased` once erased. */
  billing_address_on_file_sealed: Generated<string | null>;
  /** BillingDetails JSON, sealed: the wallet's billing address of the latest payment; `erased` once erased. */
  billing_address_sealed: Generated<string | null>;
  /** BillingAddressCheck JSON (not personal data: kept after erasure). */
  billing_address_check: Generated<string | null>;
  /** AddressVerification JSON: the card issuer's, from the latest attempt's charge; null until a charge answers it (not personal data: kept after erasure). */
  address_verification: Generated<string | null>;
  /** LineItem[] JSON, as the merchant gave them; null when none. */
  line_items: Generated<string | null>;
  /** AskedShipping JSON: the shipping address the sheet asks for; null when none. */
  shipping: Generated<string | null>;
  /** AskedContact JSON: the contact details the sheet asks for; null when none. */
  contact: Generated<string | null>;
  /** BillingDetails JSON, sealed: the wallet's shipping address of the latest payment; `erased` once erased. */
  shipping_address_sealed: Generated<string | null>;
  /** The shopper's e-mail the wallet returned with the latest payment, sealed; `erased` once erased. */
  email_sealed: Generated<string | null>;
  /** When the retention period erased the addresses and the e-mail (ms since the epoch); null until then. */
  personal_data_erased: Generated<number | null>;  /** ShippingQuote JSON (checkout/quotes.ts): the latest quote of a session with delivery options; null before one. */
  latest_quote: Generated<string | null>;
  /** ChosenShippingOption JSON: the delivery option the latest payment attempt was for; null without options or before a payment. */
  shipping_option: Generated<string | null>;
  /** What the latest payment attempt charged (or held): the amount, plus its delivery option's; null before a payment. */
  amount_charged: Generated<number | null>;
  /** `{"promotion_codes": boolean}` JSON when the sheet's prices come from the app's quote endpoint (quote_endpoints); null when they do not. */
  quote_pricing: Generated<string | null>;
  /** SessionQuote JSON: the quote the latest payment attempt was charged, from its claim; null without a quote endpoint or before a payment. */
  charged_quote: Generated<string | null>;
  /** SavePaymentMethod JSON: what the session keeps the card for (docs/saved-cards.md); null when it keeps none. */
  save_payment_method: Generated<string | null>;
  /** RecordedAgreement JSON: what the shopper agreed to, written by the claim of the payment that carried it. */
  agreement: Generated<string | null>;
  /** The payment method (payment_methods.id) the session kept the card as; a merchant-initiated session's, the one it charged. */
  payment_method: Generated<string | null>;
  /** `{code, message}` JSON: why the service would not keep the card of a paid saving session (the payment stands). */
  payment_method_error: Generated<string | null>;
  /** MerchantChargeReason of a merchant-initiated session; null otherwise. */
  charge_reason: Generated<string | null>;
  /** The latest outcome's card network and last four digits (its `outcome` JSON's, as columns for the dashboard's search: migration 0030). */
  card_network: Generated<string | null>;
  card_last4: Generated<string | null>;
  /** The `failure_code` of the latest attempt that was declined or failed, kept after a later success; null if none was. */
  decline_code: Generated<string | null>;
  /** The e-mail's blind index: a keyed hash of it, lower case (DataCipher.blindIndex), so that it is found without opening `email_sealed`; erased with it. */
  email_index: Generated<string | null>;
}

/**
 * The cards kept for customers of an app (server/payment-methods/): one live row per app, customer and card
 * (the service's fingerprint), never more of the card than its network, last four digits and expiry.
 */
export interface PaymentMethodsTable {
  id: string;
  app_id: string;
  /** The merchant's customer reference. */
  customer: string;
  /** The service's fingerprint of the card: the same card kept again for the customer updates this row. */
  fingerprint: string;
  /** The service's kept payment method (pm_... of the service), which merchant-initiated charges name. */
  service_payment_method: string;
  network: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  /** TokenKind: `network_token` or `card`. */
  token_kind: string;
  /** PaymentMethodAgreement JSON: the latest agreement the shopper gave for it. */
  agreement: string;
  /** The card network's reference of the customer-initiated transaction that set the agreement up. */
  network_transaction_reference: string;
  /** The saving session's country: the merchant-initiated sessions made on it are in it. */
  country_code: string;
  created: number;
  updated: number;
  detached: number | null;
  /** When the service confirmed the detach (reconciliation asks again until it does); null before. */
  service_detached: number | null;
}

/** How far into each merchant account's feed of card updates at the service the backend has read (server/payment-methods/card-updates.ts). */
export interface CardUpdateCursorsTable {
  merchant_id: string;
  /** The last update's sequence applied. */
  sequence: number;
}

/** The disputes of an app's payments (server/disputes/), as the payment service's feed last told them; the id is ours. */
export interface DisputesTable {
  id: string;
  app_id: string;
  session_id: string;
  /** The service's dispute: its feed and its evidence call name it. */
  service_dispute_id: string;
  /** The service's feed sequence of the change mirrored here: an older one (a reply read after the feed's newer change) is not applied. */
  service_sequence: number;
  /** The service's charge disputed (an attempt of the session's). */
  charge_id: string;
  amount: number;
  currency: string;
  /** DisputeReason. */
  reason: string;
  /** DisputeStatus: `needs_response`, `under_review`, `won`, `lost`. */
  status: string;
  /** ms since the epoch. */
  evidence_due_by: number;
  /** ServiceDisputeEvidence JSON as submitted (no address: the address checks say how they compared); null before. */
  evidence: string | null;
  evidence_submitted: number | null;
  created: number;
  updated: number;
}

/** How far into each merchant account's feed of disputes at the service the backend has read (server/disputes/sync.ts). */
export interface DisputeCursorsTable {
  merchant_id: string;
  /** The last change's sequence applied. */
  sequence: number;
}

/** An app's quote endpoint (at most one): where its sessions' prices are asked (checkout/merchant-quotes.ts). */
export interface QuoteEndpointsTable {
  app_id: string;
  url: string;
  /** The signing secret, sealed with the data cipher (DATA_ENCRYPTION_KEY). */
  secret_sealed: string;
  created: number;
}

/** A session's refunds (checkout/refunds.ts); the service's idempotency key is derived from `id`. */
export interface RefundsTable {
  id: string;
  session_id: string;
  app_id: string;
  amount: number;
  currency: string;
  reason: string | null;
  /** `pending` (sent, outcome unknown: reconciliation replays it), `succeeded`, `failed`. */
  status: string;
  /** The service's charge refunded: with amount and reason, the request is rebuilt byte for byte to replay it. */
  charge_id: string;
  service_refund_id: string | null;
  idempotency_key: string;
  failure_code: string | null;
  failure_message: string | null;
  created: number;
  updated: number;
  /** Reconciliation's lease (store/reconciliation.ts): one instance replays the refund until then. */
  lease_until: Generated<number | null>;
  /** How many leases reconciliation has taken on it: the compare-and-set's version. */
  replays: Generated<number>;
}

export interface ChargeAttemptsTable {
  id: string;
  session_id: string;
  attempt_no: number;
  idempotency_key: string;
  status: string;
  source_type: string;
  charge_id: string | null;
  outcome: string | null;
  /** Encrypted charge request, kept only while the outcome is unknown. */
  request_sealed: string | null;
  /** The Authentication Session (as_...) this attempt's declined charge led to, while 3-D Secure runs. */
  authentication_session: string | null;
  /** The service's payment method (pm_...) that session authenticates. */
  payment_method: string | null;
  created: number;
  updated: number;
  /** The instance whose request made the attempt (its heartbeat's id): while it is live, its in-flight attempts are its own. */
  instance_id: Generated<string | null>;
  /** Reconciliation's lease (store/reconciliation.ts): one instance replays the attempt until then. */
  lease_until: Generated<number | null>;
  /** How many leases reconciliation has taken on it: the compare-and-set's version. */
  replays: Generated<number>;
}

/** One rate limiter's window for one client (store/rate-limits.ts), shared by every instance on the database. */
export interface RateLimitWindowsTable {
  /** The limiter's name and the client's key, e.g. `pay:203.0.113.7`. */
  key: string;
  hits: number;
  /** When the window ends (ms); a hit after it starts a new one. */
  reset_at: number;
}
/** A direct-mode app's Google Pay recipient keys (server/direct-mode/keys.ts). */
export interface DirectKeysTable {
  id: string;
  app_id: string;
  /** `pending` (created, not in requests), `registered` (opens tokens; the newest is in requests), `retired`. */
  status: string;
  /** The uncompressed P-256 point, base64: what Google's console and the DIRECT tokenization parameters take. */
  public_key: string;
  /** PKCS#8, sealed with the data cipher (DATA_ENCRYPTION_KEY). */
  private_key_sealed: string;
  created: number;
  registered: number | null;
  retired: number | null;
}

/** Message ids of the ECv2 tokens direct mode has opened, until they expire: a token opens once across the fleet. */
export interface WalletMessagesTable {
  message_id: string;
  /** The message's own messageExpiration (ms); the row may go once it has passed. */
  expires: number;
}

/** The outbox (store/events.ts): every event, as the JSON the API and the webhooks send. */
export interface EventsTable {
  id: string;
  app_id: string;
  type: string;
  created: number;
  /**
   * The event object, serialized once: what is delivered is byte for byte what was recorded. Sealed with
   * the data cipher while `personal_data` is 1 (a session's billing addresses), until their erasure rewrites it.
   */
  body: string;
  personal_data: Generated<number>;
  /** The session the event is about (a refund event's too): the dashboard's timeline reads a session's events by it. */
  session_id: string | null;
}

/** An app's webhook endpoints; a deleted one keeps its row (`deleted` set) so its deliveries stay readable. */
export interface WebhookEndpointsTable {
  id: string;
  app_id: string;
  url: string;
  /** JSON array of event types; null: every type. */
  events: string | null;
  /** The signing secret, sealed with the data cipher (DATA_ENCRYPTION_KEY). */
  secret_sealed: string;
  /** While a secret is being rolled, the one before it: deliveries carry a signature by each. */
  previous_secret_sealed: string | null;
  previous_secret_expires: number | null;
  created: number;
  deleted: number | null;
}

/** One event to one endpoint: written with the event, then sent (and retried) by whichever instance leases it. */
export interface WebhookDeliveriesTable {
  id: string;
  event_id: string;
  endpoint_id: string;
  /** `pending` (to send, now or at next_attempt), `delivered`, `failed` (gave up; redeliver starts it again). */
  status: string;
  attempts: Generated<number>;
  next_attempt: number;
  /** ms; an instance holds the delivery until then (compare-and-set), so two never send it at once. */
  lease_until: number | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered: number | null;
  created: number;
  updated: number;
  /** When retries stop (then `failed`); null: the retry window counted from the event's creation. A redelivery sets it. */
  retry_until: Generated<number | null>;
}

/** A merchant signed in to the dashboard (server/dashboard/session.ts). */
export interface DashboardSessionsTable {
  /** SHA-256 of the cookie's token (lib/secrets.ts); the token itself is never stored. */
  token_hash: string;
  app_id: string;
  /**
   * SHA-256 of the secret key the session stands on (app_secret_keys.hash): the one that opened it, or the
   * new key of a roll the session made. The session is live only while that key is (migration 0020).
   */
  key_hash: string;
  /** Sent back by the page in a header on every change (CSRF); useless without the cookie. */
  csrf_token: string;
  created: number;
  /** The last request the session made: it ends after DASHBOARD_IDLE_MS without one. */
  last_seen: number;
}

/**
 * Platform mode's proof of each allowed origin of each app (checkout/origin-verification.ts, docs/platform.md):
 * one row per (app, origin), kept in step with the app's allowed_origins (store/origin-verifications.ts).
 */
export interface OriginVerificationsTable {
  app_id: string;
  origin: string;
  /** What the origin's /.well-known/wallet-checkout-verification.txt must hold: random, public, this row's only. */
  token: string;
  created: number;
  /** The last successful check (ms since the epoch); null: never verified. */
  verified_at: number | null;
  /** The last check, successful or not. */
  last_checked: number | null;
  /** Why the last check failed; null after a success. */
  last_failure: string | null;
  /** Checks failed in a row since the last success: ORIGIN_VERIFICATION_LAPSE_AFTER of them lapse a verified origin. */
  failures: number;
  /** When the periodic re-check is due; the sweep claims a row by moving it (a compare-and-set). */
  next_check: number;
}

/** How far an application's test clock was moved forward (store/test-clocks.ts, docs/test-clocks.md); no row: never. */
export interface TestClocksTable {
  app_id: string;
  offset_ms: number;
  updated: number;
}

/** Which servers are using this store right now (store/heartbeats.ts). */
export interface ServerHeartbeatsTable {
  /** One per running process: random, chosen at start. */
  instance_id: string;
  /** The origin browsers reach that server at (PUBLIC_URL, or its listening address). */
  public_url: string;
  started: number;
  seen: number;
}

export interface BackendDatabase {
  dashboard_sessions: DashboardSessionsTable;
  origin_verifications: OriginVerificationsTable;
  events: EventsTable;
  webhook_endpoints: WebhookEndpointsTable;
  quote_endpoints: QuoteEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  apps: AppsTable;
  app_secret_keys: AppSecretKeysTable;
  sessions: SessionsTable;
  charge_attempts: ChargeAttemptsTable;
  refunds: RefundsTable;
  idempotency_keys: IdempotencyKeysTable;
  server_heartbeats: ServerHeartbeatsTable;
  direct_keys: DirectKeysTable;
  payment_methods: PaymentMethodsTable;
  card_update_cursors: CardUpdateCursorsTable;
  wallet_messages: WalletMessagesTable;
  rate_limit_windows: RateLimitWindowsTable;
  test_clocks: TestClocksTable;
  disputes: DisputesTable;
  dispute_cursors: DisputeCursorsTable;
}
