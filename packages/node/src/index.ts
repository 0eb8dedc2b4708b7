/**
 * @wallet-checkout/node: a merchant's server's way to Wallet Checkout's API (docs/api.md).
 *
 *   const walletCheckout = new WalletCheckout(process.env.WALLET_CHECKOUT_SECRET_KEY!, { baseUrl: 'https://checkout.example.com' });
 *   const session = await walletCheckout.sessions.create({ amount: 2400, currency: 'USD', country_code: 'US' });
 */
import { type ClientOptions, HttpClient } from './http';
import { Disputes, Events, Keys, OriginVerifications, PaymentMethods, QuoteEndpointResource, Refunds, Sessions, TestHelpers, WebhookEndpoints } from './resources';
import { quotes } from './quotes';
import { webhooks } from './webhooks';

export class WalletCheckout {
  readonly sessions: Sessions;
  readonly refunds: Refunds;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly events: Events;
  readonly keys: Keys;
  readonly originVerifications: OriginVerifications;
  readonly quoteEndpoint: QuoteEndpointResource;
  readonly paymentMethods: PaymentMethods;
  readonly disputes: Disputes;
  /** Sandbox mode only: the application's test clock. */
  readonly testHelpers: TestHelpers;
  /** Verifying deliveries needs no secret key: `webhooks` is exported on its own too. */
  readonly webhooks = webhooks;
  /** Nor does verifying quote requests: `quotes` is exported on its own too. */
  readonly quotes = quotes;

  constructor(secretKey: string, options: ClientOptions) {
    const http = new HttpClient(secretKey, options);
    this.sessions = new Sessions(http);
    this.refunds = new Refunds(http);
    this.webhookEndpoints = new WebhookEndpoints(http);
    this.events = new Events(http);
    this.keys = new Keys(http);
    this.originVerifications = new OriginVerifications(http);
    this.quoteEndpoint = new QuoteEndpointResource(http);
    this.paymentMethods = new PaymentMethods(http);
    this.disputes = new Disputes(http);
    this.testHelpers = new TestHelpers(http);
  }
}

export default WalletCheckout;
export type { ClientOptions, RequestOptions } from './http';
export type { Disputes, Events, Keys, OriginVerifications, PaymentMethods, QuoteEndpointResource, Refunds, Sessions, TestHelpers, WebhookEndpoints } from './resources';
export { webhooks, SIGNATURE_HEADER, SIGNATURE_TOLERANCE_SECONDS } from './webhooks';
export { quotes } from './quotes';
export type { VerifyOptions } from './signed-body';
export {
  WalletCheckoutError,
  WalletCheckoutApiError,
  WalletCheckoutConnectionError,
  WebhookVerificationError,
  QuoteVerificationError,
  type SignatureVerificationFailure,
  type WebhookVerificationFailure,
} from './errors';
export type * from './types';
