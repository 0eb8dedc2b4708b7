/**
 * Receiving the backend's quote requests on your quote endpoint (docs/express-checkout.md): the
 * same signature as a webhook delivery's, made with the quote endpoint's own secret (qsec_...).
 */
import { QuoteVerificationError } from './errors';
import { type SignedBodyKind, type VerifyOptions, verifySignedBody } from './signed-body';
import type { QuoteRequest } from './types';

const quoteRequest: SignedBodyKind = {
  method: 'quotes.verify',
  secretForm: 'qsec_...',
  subject: 'The quote request',
  refuse: (code, message) => new QuoteVerificationError(code, message),
};

export const quotes = {
  /**
   * The quote request, once its signature is checked: `rawBody` exactly as received (before any
   * JSON parsing), the `Wallet-Checkout-Signature` header, and the secret `quoteEndpoint.set`
   * answered. Throws a QuoteVerificationError whose `code` says why it refused. Answer the request
   * with a QuoteAnswer (200, JSON).
   */
  verify(rawBody: string | Uint8Array, header: string | readonly string[] | null | undefined, secret: string | readonly string[], options: VerifyOptions = {}): QuoteRequest {
    // Signed by the API: its shape is the contract's.
    return verifySignedBody(quoteRequest, rawBody, header, secret, options) as QuoteRequest;
  },
};
