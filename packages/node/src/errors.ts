/**
 * Every failure the library reports is one of these classes, so a merchant's server can
 * branch on `instanceof` or on `code` without reading messages. None of them carries the
 * secret key, a request body or a webhook secret.
 */

export class WalletCheckoutError extends Error {
  override name = 'WalletCheckoutError';
  /** What went wrong, as a stable string: the API's `error.code`, or the library's own (below). */
  readonly code: string;

  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/**
 * The API answered with an error: its HTTP status and its `{"error": {"code", "message"}}`
 * (docs/api.md). A reply that is not that shape (a proxy's HTML page) has the code
 * `unexpected_response`.
 */
export class WalletCheckoutApiError extends WalletCheckoutError {
  override name = 'WalletCheckoutApiError';
  readonly status: number;
  /** The reply's `Request-Id` header: quote it to support; null when the reply had none. */
  readonly requestId: string | null;

  constructor(status: number, code: string, message: string, requestId: string | null) {
    super(code, message);
    this.status = status;
    this.requestId = requestId;
  }
}

/**
 * No reply came: the connection failed (`connection_error`) or no reply came within the
 * timeout (`timeout`). Whether the request took effect is unknown; a POST retried with the
 * same idempotency key (as the library does, and as `idempotencyKey` lets you do later) runs once.
 */
export class WalletCheckoutConnectionError extends WalletCheckoutError {
  override name = 'WalletCheckoutConnectionError';
  declare readonly code: 'connection_error' | 'timeout';

  constructor(code: 'connection_error' | 'timeout', message: string, options?: ErrorOptions) {
    super(code, message, options);
  }
}

/** Why `webhooks.verify` or `quotes.verify` refused a signed body: both check the same signature recipe. */
export type SignatureVerificationFailure = 'malformed_header' | 'stale_timestamp' | 'no_matching_signature' | 'invalid_payload';

/** Why `webhooks.verify` refused a delivery. */
export type WebhookVerificationFailure = SignatureVerificationFailure;

/**
 * A webhook delivery did not verify: refuse it with a 4xx (it is retried, which is what you
 * want if your secret was stale).
 */
export class WebhookVerificationError extends WalletCheckoutError {
  override name = 'WebhookVerificationError';
  declare readonly code: WebhookVerificationFailure;

  constructor(code: WebhookVerificationFailure, message: string) {
    super(code, message);
  }
}

/**
 * A quote request did not verify: refuse it with a 4xx and price nothing. The backend then tells
 * the shopper the shop could not price the change, and charges nothing on it.
 */
export class QuoteVerificationError extends WalletCheckoutError {
  override name = 'QuoteVerificationError';
  declare readonly code: SignatureVerificationFailure;

  constructor(code: SignatureVerificationFailure, message: string) {
    super(code, message);
  }
}
