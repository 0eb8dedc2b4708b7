/**
 * One object per resource of the API, one method per call (docs/api.md), each a line over
 * the HttpClient. Ids go into paths encoded, so an id can never name another route.
 */
import type { HttpClient, RequestOptions } from './http';
import type {
  CreatedQuoteEndpoint,
  CreatedSession,
  CreatedWebhookEndpoint,
  DeletedWebhookEndpoint,
  Dispute,
  DisputeEvidenceParams,
  DisputeList,
  DisputeListParams,
  Event,
  EventList,
  EventListParams,
  EventRedelivery,
  OriginVerification,
  OriginVerificationList,
  OriginVerifyParams,
  PaymentMethod,
  PaymentMethodChargeParams,
  PaymentMethodList,
  PaymentMethodListParams,
  QuoteEndpoint,
  QuoteEndpointSetParams,
  Refund,
  RefundCreateParams,
  RolledSecretKey,
  RolledWebhookSecret,
  RollParams,
  Session,
  SessionCaptureParams,
  SessionCreateParams,
  SessionList,
  SessionListParams,
  TestClock,
  TestClockAdvanceParams,
  WebhookEndpointCreateParams,
  WebhookEndpointList,
} from './types';

const id = (value: string) => encodeURIComponent(value);

/**
 * Every item of a listing, page after page (`starting_after` the last id of each page),
 * for as long as the caller keeps iterating: `for await (const session of sessions.listAll({status: 'succeeded'}))`.
 */
export async function* everyItem<Item extends { id: string }, Params extends { starting_after?: string }>(
  listPage: (params: Params, options?: RequestOptions) => Promise<{ data: Item[]; has_more: boolean }>,
  params: Params,
  options?: RequestOptions,
): AsyncGenerator<Item> {
  let cursor = params.starting_after;
  for (;;) {
    const page = await listPage({ ...params, starting_after: cursor }, options);
    yield* page.data;
    const last = page.data.at(-1);
    if (!page.has_more || !last) return;
    cursor = last.id;
  }
}

export class Sessions {
  constructor(private readonly http: HttpClient) {}

  /** A checkout session: hand its `client_secret` (and `public_view`) to your page. */
  create(params: SessionCreateParams, options?: RequestOptions): Promise<CreatedSession> {
    return this.http.request({ method: 'POST', path: '/api/sessions', body: params, options });
  }

  retrieve(sessionId: string, options?: RequestOptions): Promise<Session> {
    return this.http.request({ method: 'GET', path: `/api/sessions/${id(sessionId)}`, options });
  }

  /** One page, newest first; `has_more` and the last id give the next (or use `listAll`). */
  list(params: SessionListParams = {}, options?: RequestOptions): Promise<SessionList> {
    return this.http.request({ method: 'GET', path: '/api/sessions', query: params, options });
  }

  listAll(params: SessionListParams = {}, options?: RequestOptions): AsyncGenerator<Session> {
    return everyItem((page, pageOptions) => this.list(page, pageOptions), params, options);
  }

  /** Captures an `authorized` hold: all of it, or `{amount}` (the rest is released). */
  capture(sessionId: string, params: SessionCaptureParams = {}, options?: RequestOptions): Promise<Session> {
    return this.http.request({ method: 'POST', path: `/api/sessions/${id(sessionId)}/capture`, body: params, options });
  }

  /** Releases an `authorized` hold: nothing is charged. */
  release(sessionId: string, options?: RequestOptions): Promise<Session> {
    return this.http.request({ method: 'POST', path: `/api/sessions/${id(sessionId)}/release`, body: {}, options });
  }
}

/** Refunds live on their session (`session.refunds`); the API has no call to read one alone. */
export class Refunds {
  constructor(private readonly http: HttpClient) {}

  /** All that is left to refund, or `{amount}`; `reason` optional. The idempotency key also names the refund, so a retry finds it. */
  create(sessionId: string, params: RefundCreateParams = {}, options?: RequestOptions): Promise<Refund> {
    return this.http.request({ method: 'POST', path: `/api/sessions/${id(sessionId)}/refunds`, body: params, options });
  }
}

export class WebhookEndpoints {
  constructor(private readonly http: HttpClient) {}

  /** The endpoint and its signing secret, shown only in this reply. */
  create(params: WebhookEndpointCreateParams, options?: RequestOptions): Promise<CreatedWebhookEndpoint> {
    return this.http.request({ method: 'POST', path: '/api/webhook_endpoints', body: params, options });
  }

  /** The live endpoints, never their secrets (one page: at most 16 per application). */
  list(options?: RequestOptions): Promise<WebhookEndpointList> {
    return this.http.request({ method: 'GET', path: '/api/webhook_endpoints', options });
  }

  /** Nothing more is sent to it, its pending retries included. */
  delete(endpointId: string, options?: RequestOptions): Promise<DeletedWebhookEndpoint> {
    return this.http.request({ method: 'DELETE', path: `/api/webhook_endpoints/${id(endpointId)}`, options });
  }

  /** A new secret, used at once; the current one keeps signing beside it for `expire_current_in_seconds` (a day by default). */
  rollSecret(endpointId: string, params: RollParams = {}, options?: RequestOptions): Promise<RolledWebhookSecret> {
    return this.http.request({ method: 'POST', path: `/api/webhook_endpoints/${id(endpointId)}/roll_secret`, body: params, options });
  }
}

export class Events {
  constructor(private readonly http: HttpClient) {}

  /** One page, newest first; `type` filters. */
  list(params: EventListParams = {}, options?: RequestOptions): Promise<EventList> {
    return this.http.request({ method: 'GET', path: '/api/events', query: params, options });
  }

  listAll(params: EventListParams = {}, options?: RequestOptions): AsyncGenerator<Event> {
    return everyItem((page, pageOptions) => this.list(page, pageOptions), params, options);
  }

  /** The event as it was delivered. */
  retrieve(eventId: string, options?: RequestOptions): Promise<Event> {
    return this.http.request({ method: 'GET', path: `/api/events/${id(eventId)}`, options });
  }

  /** Sends the event again to every live endpoint that listens to its type now, each with a new 3-day retry window. */
  redeliver(eventId: string, options?: RequestOptions): Promise<EventRedelivery> {
    return this.http.request({ method: 'POST', path: `/api/events/${id(eventId)}/redeliver`, options });
  }
}

export class Keys {
  constructor(private readonly http: HttpClient) {}

  /** A new secret key (shown only here); the calling key keeps working for `expire_current_in_seconds` (a day by default, 0 for a leaked key). */
  roll(params: RollParams = {}, options?: RequestOptions): Promise<RolledSecretKey> {
    return this.http.request({ method: 'POST', path: '/api/keys/roll', body: params, options });
  }
}

/** Platform mode: authJwts are signed only for origins that serve their token at /.well-known/wallet-checkout-verification.txt (docs/platform.md). */
export class OriginVerifications {
  constructor(private readonly http: HttpClient) {}

  /** Every allowed origin with its file, token and checks; `required` is false for an app in merchant mode. */
  list(options?: RequestOptions): Promise<OriginVerificationList> {
    return this.http.request({ method: 'GET', path: '/api/origin_verifications', options });
  }

  /** Fetches the origin's file now (at most once in 10 s) and answers its verification, whether the check succeeded or not. */
  verify(params: OriginVerifyParams, options?: RequestOptions): Promise<OriginVerification> {
    return this.http.request({ method: 'POST', path: '/api/origin_verifications/verify', body: params, options });
  }
}

/**
 * The application's one quote endpoint, which prices the sheet's changes for the sessions created with
 * `quote_endpoint: true` (docs/express-checkout.md#the-merchants-quote-endpoint).
 */
export class QuoteEndpointResource {
  constructor(private readonly http: HttpClient) {}

  /** Sets the endpoint, or replaces it: each time with a new signing secret, shown only in this reply (the previous one stops at once). */
  set(params: QuoteEndpointSetParams, options?: RequestOptions): Promise<CreatedQuoteEndpoint> {
    return this.http.request({ method: 'PUT', path: '/api/quote_endpoint', body: params, options });
  }

  /** The endpoint, never its secret; a 404 `not_found` when none is set. */
  retrieve(options?: RequestOptions): Promise<QuoteEndpoint> {
    return this.http.request({ method: 'GET', path: '/api/quote_endpoint', options });
  }

  /** Nothing is asked of it any more: sessions created with `quote_endpoint: true` are refused until one is set again. */
  delete(options?: RequestOptions): Promise<void> {
    return this.http.request({ method: 'DELETE', path: '/api/quote_endpoint', options });
  }
}

/**
 * Cards kept for a customer by a session that saved its card (`save_payment_method`, docs/saved-cards.md), and
 * the charges made on them without the shopper (merchant-initiated), each a session of intent `merchant_initiated`.
 */
export class PaymentMethods {
  constructor(private readonly http: HttpClient) {}

  /** One page, newest first; `customer` filters to your customer's cards. */
  list(params: PaymentMethodListParams = {}, options?: RequestOptions): Promise<PaymentMethodList> {
    return this.http.request({ method: 'GET', path: '/api/payment_methods', query: params, options });
  }

  listAll(params: PaymentMethodListParams = {}, options?: RequestOptions): AsyncGenerator<PaymentMethod> {
    return everyItem((page, pageOptions) => this.list(page, pageOptions), params, options);
  }

  retrieve(paymentMethodId: string, options?: RequestOptions): Promise<PaymentMethod> {
    return this.http.request({ method: 'GET', path: `/api/payment_methods/${id(paymentMethodId)}`, options });
  }

  /** For good: a charge on it is refused (`payment_method_detached`); the shopper saves the card again with a new session. */
  detach(paymentMethodId: string, options?: RequestOptions): Promise<PaymentMethod> {
    return this.http.request({ method: 'POST', path: `/api/payment_methods/${id(paymentMethodId)}/detach`, body: {}, options });
  }

  /**
   * Charges the kept card without the shopper, for `reason`, as the shopper's agreement covers it. The idempotency key is
   * required and yours (one per charge you mean, "sub_42:2026-02" say): sent again after a crash, it is the same charge.
   * Answers the session the charge was made as; a decline is its `outcome`, a refusal (not covered, detached) an error.
   */
  charge(paymentMethodId: string, params: PaymentMethodChargeParams, options: RequestOptions & { idempotencyKey: string }): Promise<Session> {
    return this.http.request({ method: 'POST', path: `/api/payment_methods/${id(paymentMethodId)}/charges`, body: params, options });
  }
}

/** Your payments' disputes, opened by the cardholders' banks (docs/disputes.md). */
export class Disputes {
  constructor(private readonly http: HttpClient) {}

  /** One page, newest first; `status` filters. */
  list(params: DisputeListParams = {}, options?: RequestOptions): Promise<DisputeList> {
    return this.http.request({ method: 'GET', path: '/api/disputes', query: params, options });
  }

  listAll(params: DisputeListParams = {}, options?: RequestOptions): AsyncGenerator<Dispute> {
    return everyItem((page, pageOptions) => this.list(page, pageOptions), params, options);
  }

  retrieve(disputeId: string, options?: RequestOptions): Promise<Dispute> {
    return this.http.request({ method: 'GET', path: `/api/disputes/${id(disputeId)}`, options });
  }

  /** Once, before `evidence_due_by`: your explanation, and the shipping proof of an express checkout; the payment's address checks are attached for you. */
  submitEvidence(disputeId: string, params: DisputeEvidenceParams, options?: RequestOptions): Promise<Dispute> {
    return this.http.request({ method: 'POST', path: `/api/disputes/${id(disputeId)}/evidence`, body: params, options });
  }
}

/**
 * Sandbox mode only (a backend whose payment service is a sandbox; a real one answers 403
 * `test_helpers_unavailable`): your application's test clock, moved forward to see in seconds what days
 * would do (docs/test-clocks.md).
 */
export class TestHelpers {
  constructor(private readonly http: HttpClient) {}

  /** Where the application's clock stands: `now`, the server's time plus `offset_seconds`. */
  clock(options?: RequestOptions): Promise<TestClock> {
    return this.http.request({ method: 'GET', path: '/api/test_helpers/clock', options });
  }

  /**
   * Moves the clock forward by `{seconds}` or `{to}` (ms since the epoch), the whole application's or, with
   * `{session}`, one session's; expiry, lapsed holds, erasure and due webhooks have happened when it resolves.
   * Sent once, never retried: a move is not idempotent (after a connection error, read `clock()` to see whether it moved).
   */
  advanceClock(params: TestClockAdvanceParams, options?: RequestOptions): Promise<TestClock> {
    return this.http.request({ method: 'POST', path: '/api/test_helpers/advance_clock', body: params, options: { ...options, maxRetries: 0 } });
  }
}
