/** The merchant's quote endpoint's part of the OpenAPI document: its registration, and the signed request it receives (docs/express-checkout.md). */
import { z } from 'zod';
import type { ZodOpenApiObject } from 'zod-openapi';
import { CreatedQuoteEndpoint, QuoteAnswer, QuoteEndpoint, QuoteRequest, SetQuoteEndpointBody } from '../../contracts';
import { SIGNATURE_HEADER } from '../../contracts/webhook-signature';
import { checkoutAnswers, checkoutBodies } from '../checkout/routes';
import { MAX_ANSWER_BYTES } from '../checkout/merchant-quotes';
import { errorResponses, reply, requestBody } from './parts';

const secretKey = [{ merchantSecretKey: [] }];
const TAG = 'Quote endpoint';

export const quoteEndpointTag = {
  name: TAG,
  description: "Where the application's sessions created with `quote_endpoint` are priced: its registration (secret key), and the signed request it receives at each change in the sheet and at payment (docs/express-checkout.md)",
};

export const quoteEndpointPaths: ZodOpenApiObject['paths'] = {
  '/api/quote_endpoint': {
    put: {
      operationId: 'setQuoteEndpoint',
      tags: [TAG],
      summary: 'Set the quote endpoint',
      description: "Where the sessions created with `quote_endpoint` are priced, replacing the application's endpoint if it had one: every request is signed with the new secret returned (shown only here), and the previous secret signs no more.",
      security: secretKey,
      requestBody: requestBody(checkoutBodies['PUT /api/quote_endpoint'], SetQuoteEndpointBody),
      responses: {
        '200': reply('The endpoint and its signing secret (qsec_...)', CreatedQuoteEndpoint),
        ...errorResponses(checkoutAnswers.setQuoteEndpoint),
      },
    },
    get: {
      operationId: 'getQuoteEndpoint',
      tags: [TAG],
      summary: 'Read the quote endpoint',
      description: "The application's quote endpoint, without its secret; 404 when it has none.",
      security: secretKey,
      responses: {
        '200': reply('The endpoint', QuoteEndpoint),
        ...errorResponses(checkoutAnswers.getQuoteEndpoint),
      },
    },
    delete: {
      operationId: 'deleteQuoteEndpoint',
      tags: [TAG],
      summary: 'Remove the quote endpoint',
      description: 'No more requests are sent: the sheets of sessions created with `quote_endpoint` show an error at each change, and their payments are refused with 503 `quote_unavailable`, until an endpoint is set again.',
      security: secretKey,
      responses: {
        '204': { description: 'The endpoint is removed' },
        ...errorResponses(checkoutAnswers.deleteQuoteEndpoint),
      },
    },
  },
};

/**
 * The answer as the merchant's endpoint writes it (`tax` and `promotion_codes` may be left out): registered by hand,
 * rendered as zod's input (its `unusedIO`), since a response is otherwise rendered as what parsing it yields, defaults filled in.
 */
export const quoteAnswerComponent = { QuoteAnswer };

/** What the merchant's endpoint receives (an OpenAPI webhook: we call it), and what it answers. */
export const quoteEndpointWebhooks: ZodOpenApiObject['webhooks'] = {
  quoteRequest: {
    post: {
      operationId: 'quoteRequestToEndpoint',
      tags: [TAG],
      summary: 'A quote request',
      description:
        "POSTed to the application's quote endpoint at each change in the sheet of a session created with `quote_endpoint` (`stage: sheet`, the address redacted) and once when the shopper pays (`stage: authorization`, the full address). It must answer within QUOTE_ENDPOINT_TIMEOUT_MS (5 s by default).",
      // No credential of the receiver's: the signature header proves the sender, as for webhook deliveries (docs/webhooks.md).
      security: [],
      requestParams: { header: z.object({ [SIGNATURE_HEADER.toLowerCase()]: z.string().meta({ description: 't=<unix seconds>,v1=<HMAC-SHA256 of "t.body" by the endpoint\'s secret, hex>' }) }) },
      requestBody: { required: true, content: { 'application/json': { schema: QuoteRequest } } },
      responses: {
        '200': {
          description: `A QuoteAnswer, as JSON of at most ${MAX_ANSWER_BYTES / 1024} kB: the price (\`tax\` 0 and \`promotion_codes\` none when absent), or the refusal of the address. Any other status, a redirect, a timeout or another body is a failure: the sheet shows an error, or the payment is refused with 503 \`quote_unavailable\``,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/QuoteAnswer' } } },
        },
      },
    },
  },
};
