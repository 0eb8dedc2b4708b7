/**
 * The error codes of our HTTP API (the backend's and the embedded sandbox
 * wallet's), each with its status and what it means: a contract, as the
 * bodies are. The edge sends a failure's status from here
 * (common/http/errors.ts statusFor), each route declares the codes it answers
 * (RouteAnswers), and the OpenAPI document's error responses are built from
 * both (server/openapi).
 */
export const ERROR_CODES = {
  invalid_request: { status: 400, meaning: 'a parameter, header or body field is missing or invalid; the message names it' },
  invalid_json: { status: 400, meaning: 'the body is not valid JSON (or not valid UTF-8)' },
  body_not_allowed: { status: 400, meaning: 'the operation takes no request body, and the request carries one (a body sent to a path no route serves gets this too: the edge answers before routing)' },
  invalid_payment_token: { status: 400, meaning: "the wallet's payment token could not be verified or opened" },
  // Google Pay's price format (docs/api.md "Money"): an amount it cannot show is refused, never rounded.
  amount_exceeds_google_pay_precision: {
    status: 400,
    meaning: 'Google Pay shows a price with at most two decimals: in a three- or four-decimal currency the amount must be a multiple of 10 (100 for four); the message names the nearest amounts that are',
  },
  // Express checkout: the wallet offers only the session's shipping countries, so another was written by the page.
  shipping_country_not_allowed: { status: 400, meaning: "the wallet's shipping address is in a country the session does not ship to (`shipping.countries`); nothing was charged" },
  url_not_allowed: { status: 400, meaning: 'in production, webhook URLs must be https to a public address' },
  // Saved cards (docs/saved-cards.md): the first payment carries the shopper's agreement; a kept card is charged only as agreed.
  agreement_required: { status: 400, meaning: "the session keeps the card: its payment must name the agreement the shopper was shown (`agreement.id`, the public view's `save_payment_method.agreement.id`); nothing was charged" },
  customer_mismatch: { status: 400, meaning: 'the payment method is kept for another customer than the request names; nothing was charged' },
  // The sandbox wallet's (POST /sandbox/wallet/tokens), as Google's wallet would refuse the request.
  unknown_card: { status: 400, meaning: 'sandbox wallet: card_id is not one of GET /sandbox/wallet/cards' },
  card_network_not_allowed: { status: 400, meaning: "sandbox wallet: the request does not allow the card's network" },
  auth_method_not_allowed: { status: 400, meaning: "sandbox wallet: the request does not allow the card's auth method" },
  unknown_gateway: { status: 400, meaning: 'sandbox wallet: it tokenizes only for the gateway this server is configured with' },
  merchant_id_required: { status: 400, meaning: 'sandbox wallet: DIRECT tokenization needs merchantInfo.merchantId' },
  invalid_merchant_id: { status: 400, meaning: 'sandbox wallet: merchantInfo.merchantId is not a merchant id issued by Google' },
  unknown_billing_address: { status: 400, meaning: "sandbox wallet: billing_address_id is not one of GET /sandbox/wallet/cards' billing_addresses" },
  invalid_public_key: { status: 400, meaning: 'sandbox wallet: parameters.publicKey is not a base64 uncompressed P-256 point' },
  unauthenticated: { status: 401, meaning: 'the Authorization header carries no valid credential for this call' },
  // A hold's capture the card's issuer refused (docs/api.md): a retry is refused again, so it is kept against the Idempotency-Key.
  capture_declined: {
    status: 402,
    meaning: "the card's issuer refused the capture, naming its code in the message (`card_declined`, ...): nothing was captured, the session is still `authorized`; release the hold and ask the shopper to pay again",
  },
  origin_not_allowed: { status: 403, meaning: "the page's origin is not one of the application's allowed origins" },
  // Platform mode (docs/platform.md): we sign Google Pay authJwts only for origins whose owner proved control.
  origin_not_verified: { status: 403, meaning: "platform mode: the page's origin has not proven control (its /.well-known/wallet-checkout-verification.txt, docs/platform.md), so no authJwt is signed for it" },
  // Test clocks (docs/test-clocks.md) move time only where no real money is: with the embedded or a standalone sandbox.
  test_helpers_unavailable: { status: 403, meaning: 'test helpers (test clocks) work only with a sandbox payment service; this server uses a real one' },
  // The dashboard's (its own routes, not the public API): a change without the session's CSRF token or from another origin.
  csrf_refused: { status: 403, meaning: 'dashboard: a change without its CSRF token or from another origin' },
  // The dashboard's key roll asks for the secret key again: the one given is not a live key of the signed-in app.
  reauthentication_failed: { status: 403, meaning: 'dashboard: the secret key given to confirm a key roll is not a live key of the signed-in application' },
  not_found: { status: 404, meaning: "no such object, including another application's" },
  payment_in_progress: { status: 409, meaning: 'a payment for this session is already being processed' },
  session_completed: { status: 409, meaning: 'the session is already paid' },
  invalid_state: { status: 409, meaning: 'the session is not in a state that allows this operation' },
  amount_exceeds_refundable: { status: 409, meaning: 'more than is left to refund' },
  authentication_pending: { status: 409, meaning: 'the 3-D Secure challenge is not finished yet' },
  hold_expired: { status: 409, meaning: 'the hold lapsed 7 days after it was placed: it can only be released' },
  payment_method_detached: { status: 409, meaning: 'the payment method was detached, for good: save the card again with a new session; nothing was charged' },
  payment_method_expired: { status: 409, meaning: "the payment method's card expired (its expiry passed, or its issuer said so): the shopper saves it again with a new session, or the network's card update renews it; nothing was charged" },
  not_covered_by_agreement: { status: 409, meaning: "the shopper's agreement does not cover this charge: its reason (a subscription needs a recurring agreement, a reload a reload one, an unscheduled or delayed charge an unscheduled one), or, for a subscription or a reload, an amount above the agreed one or another currency; nothing was charged" },
  // Delivery options (docs/api.md): the charge is the server's latest quote, and the payment must be for what it priced.
  quote_mismatch: {
    status: 409,
    meaning: "the payment is not for the session's latest quote: `quote_id` missing or not the latest (ask POST /api/sessions/{id}/quote again), or the wallet's delivery option or shipping country not the quote's; nothing was charged",
  },
  // The merchant's quote endpoint (docs/express-checkout.md): asked again with the full address before anything is charged.
  shipping_address_unserviceable: { status: 422, meaning: "the merchant's quote endpoint refused the full shipping address the wallet gave at payment; nothing was charged" },
  quote_endpoint_missing: { status: 400, meaning: 'the session asks for `quote_endpoint` prices, and the application has no quote endpoint (PUT /api/quote_endpoint)' },
  // Disputes (docs/disputes.md): evidence is submitted once, before the due date.
  evidence_already_submitted: { status: 409, meaning: 'the dispute already has its evidence (it is under review, or closed): evidence is submitted once' },
  evidence_past_due: { status: 409, meaning: "the dispute's evidence was due by `evidence_due_by`: it is refused from then on, and the dispute is lost" },
  replayed_token: { status: 409, meaning: 'direct mode: this payment token was already used' },
  too_many_endpoints: { status: 409, meaning: 'the application already has 16 webhook endpoints' },
  idempotency_key_reused: { status: 409, meaning: 'this Idempotency-Key was already used with a different request' },
  idempotency_key_in_use: { status: 409, meaning: 'a request with this Idempotency-Key is still being processed; retry later' },
  // Gone for good: an expired checkout never takes a payment again (the merchant creates a new one).
  session_expired: { status: 410, meaning: 'the session expired unpaid; it never takes a payment again' },
  payload_too_large: { status: 413, meaning: 'the body is larger than the route accepts' },
  unsupported_media_type: { status: 415, meaning: 'the body must be UTF-8 JSON: Content-Type application/json (charset utf-8 or none), not compressed' },
  rate_limited: { status: 429, meaning: 'too many requests from this client; try again in a minute (RateLimit headers tell when)' },
  internal_error: { status: 500, meaning: 'a bug on our side' },
  // The payment service failed or did not answer: a gateway's failure, not ours; the same request may be retried.
  service_unavailable: { status: 502, meaning: 'the payment service could not complete the operation; retry with the same request' },
  root_keys_unavailable: { status: 503, meaning: "Google's root signing keys could not be loaded" },
  direct_mode_unavailable: { status: 503, meaning: "direct mode: this server cannot open the application's keys, or the application has no Google merchant id" },
  platform_not_configured: { status: 503, meaning: 'the application uses platform mode, which this server does not have configured' },
  direct_key_not_registered: { status: 503, meaning: 'direct mode: the application has no registered key yet' },
  // The merchant's quote endpoint did not price the full address at payment (no answer in time, an error, an answer that is not a quote).
  quote_unavailable: { status: 503, meaning: "the merchant's quote endpoint could not price the payment with the full shipping address just now; nothing was charged: pay again" },
  store_unavailable: { status: 503, meaning: 'the store is briefly unavailable (a restart, a failover); retry after the Retry-After header' },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes a route may answer with, besides its success: the OpenAPI document's error responses. */
export type RouteAnswers = readonly ErrorCode[];

/** What every secret-key route may answer: its credential, its budget (merchantLimiter) and the store. */
export const MERCHANT_CALL = ['unauthenticated', 'rate_limited', 'store_unavailable'] as const satisfies RouteAnswers;
/** A route that takes a JSON body (a BodyRule of common/http/body.ts). */
export const JSON_BODY = ['invalid_json', 'invalid_request', 'payload_too_large', 'unsupported_media_type'] as const satisfies RouteAnswers;
/** A route that takes no body: one that carries a body is refused at the edge (common/http/body.ts). */
export const NO_BODY = ['body_not_allowed'] as const satisfies RouteAnswers;
/** A route under an Idempotency-Key (respondIdempotently). */
export const IDEMPOTENT = ['idempotency_key_reused', 'idempotency_key_in_use'] as const satisfies RouteAnswers;
/** A route with an object's id in its path: refused when unstorable text (400), unknown when of another shape (404). */
export const PATH_ID = ['invalid_request', 'not_found'] as const satisfies RouteAnswers;

export const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERROR_CODES, code);
