/**
 * The OpenAPI 3.1 document of every public endpoint, generated from the zod
 * schemas that validate requests and type replies (contracts and the
 * apps API's records), and each route's error responses from the codes it
 * declares next to its handler and the status the server sends for each
 * (common/http/errors.ts), so the document cannot drift from the code.
 * Shared schemas are components (their `id` in contracts), referenced by `$ref`.
 */
import { z } from 'zod';
import { createDocument, type ZodOpenApiObject } from 'zod-openapi';
import { AppRecordReply } from '../apps-api/app-record';
import { GoogleErrorBody } from '../apps-api/google-errors';
import { checkoutAnswers, checkoutBodies } from '../checkout/routes';
import { AuthenticateBody, CaptureSessionBody, Charge, ChargeRequest, CreatedSession, CreateRefundBody, CreateSessionBody, EmptyBody, ListSessionsQuery, OriginVerification, OriginVerificationList, PayBody, PayReply, PublicSession, QuoteBody, QuoteReply, Refund, RolledSecretKey, RollSecretKeyBody, ServiceRefund, ServiceRefundRequest, Session, SessionList, VerifyOriginBody, WalletCardsReply, WalletTokenReply, WalletTokenRequest } from '../../contracts';
import { type BodyRule, KB } from '../../common/http/body';
import { JSON_BODY, NO_BODY, type RouteAnswers } from '../../contracts/error-codes';
import { apiError, errorResponses, idempotencyKey, reply, requestBody } from './parts';
import { quoteAnswerComponent, quoteEndpointPaths, quoteEndpointTag, quoteEndpointWebhooks } from './quote-endpoint';
import { webhookEvents, webhookPaths } from './webhooks';
import { paymentMethodPaths, paymentMethodsTag } from './payment-methods';
import { disputePaths, disputesTag } from './disputes';
import { testClockPaths, testClocksTag } from './test-clocks';

/**
 * What the sandbox wallet's routes (sandbox/wallet-api.ts) answer besides their success, by
 * operationId, as checkoutAnswers does for the checkout's: declared here because nothing but the
 * composition root imports the sandbox (testing/import-rules.test.ts). `not_found`: a server
 * without the embedded sandbox has no such route.
 */
export const sandboxWalletAnswers = {
  listSandboxWalletCards: [...NO_BODY, 'not_found'],
  createSandboxWalletToken: [...JSON_BODY, 'not_found', 'unknown_card', 'unknown_billing_address', 'card_network_not_allowed', 'auth_method_not_allowed', 'unknown_gateway', 'merchant_id_required', 'invalid_merchant_id', 'invalid_public_key'],
} as const satisfies Record<string, RouteAnswers>;

/**
 * The bodies of the sandbox's documented routes, as its routers' rules say (walletBodies,
 * serviceBodies: openapi.test.ts holds them equal), written here for the import rule above.
 */
const sandboxBodies = {
  createSandboxWalletToken: { body: 'required', limit: 64 * KB },
  createCharge: { body: 'required', limit: 64 * KB },
  createRefund: { body: 'required', limit: 4 * KB },
} as const satisfies Record<string, BodyRule>;

const sessionId = z.object({ id: z.string().meta({ description: 'The checkout session id (cs_...)' }) });
const idempotent = z.object({ 'idempotency-key': idempotencyKey.optional() });
/** The widget's routes are called from the shopper's browser, which sends the page's origin: it must be one of the app's allowed origins. */
const widgetHeaders = z.object({
  origin: z.string().optional().meta({ description: "The page's origin, as the browser sends it: one of the application's allowed origins (or this server's own); absent from a same-origin page or a server" }),
});
const merchantKey = [{ merchantSecretKey: [] }];
const clientSecret = [{ clientSecret: [] }];

/**
 * After a capture `status` is `captured` while `outcome.status` stays `authorized`: the outcome is
 * what the payment attempt came to, the status is where the session is now (docs/api.md).
 */
const READ_STATUS = '`status` is where the session is now (`captured` or `released` after the merchant acts on a hold); `outcome` is what the last payment attempt came to, and is not changed by a capture, a release or a refund: read `status`.';

/** POST /api/sessions/{id}/capture and /release: the merchant's operations on a hold (docs/holds-and-3ds.md). */
function holdOperation(operation: 'capture' | 'release', summary: string, description: string, body: z.ZodType): ZodOpenApiObject['paths'] {
  const operationId = `${operation}Session` as const;
  return {
    [`/api/sessions/{id}/${operation}`]: {
      post: {
        operationId,
        tags: ['Sessions'],
        summary,
        description,
        security: merchantKey,
        requestParams: { path: sessionId, header: idempotent },
        requestBody: requestBody(checkoutBodies[`POST /api/sessions/:id/${operation}`], body),
        responses: {
          '200': reply(`The session after the ${operation}. ${READ_STATUS}`, Session),
          ...errorResponses(checkoutAnswers[operationId]),
        },
      },
    },
  };
}

/**
 * The sandbox service's 400s for a body it cannot read, on both documented routes, before their own
 * codes (docs/service-conventions.md, "Errors"): the contract check holds each refusal to the codes
 * its response's description names (testing/api-contract.ts).
 */
const SANDBOX_SERVICE_BODY_REFUSALS = 'invalid_json: the body is not JSON; invalid_request: not a JSON object, a field invalid or unknown, or a bad Merchant-Account or Idempotency-Key';

/** What both of the sandbox service's documented routes may answer besides their own codes. */
const SANDBOX_SERVICE_ANSWERS = {
  '413': apiError('payload_too_large'),
  '415': apiError('unsupported_media_type: the body must be UTF-8 JSON'),
  '500': apiError('service_error: a fault injected on purpose (the Sandbox-Fault header or the fault plan, docs/service-conventions.md): nothing was processed'),
};

const paths: ZodOpenApiObject['paths'] = {
  '/api/sessions': {
    post: {
      operationId: 'createSession',
      tags: ['Sessions'],
      summary: 'Create a checkout session',
      description: 'The merchant\'s server creates a session for an order; the page hands its id and client secret (or its `public_view`) to the widget. Under an Idempotency-Key, a retry returns the first reply.',
      security: merchantKey,
      requestParams: { header: idempotent },
      requestBody: requestBody(checkoutBodies['POST /api/sessions'], CreateSessionBody),
      responses: {
        '201': reply('The session, with its client secret (shown only here) and the widget\'s view of it', CreatedSession),
        ...errorResponses(checkoutAnswers.createSession),
      },
    },
    get: {
      operationId: 'listSessions',
      tags: ['Sessions'],
      summary: "List the application's sessions",
      description: 'Newest first, a page at a time: `starting_after` is the last id of the previous page. Unknown parameters are refused, so a misspelt filter is never silently ignored.',
      security: merchantKey,
      requestParams: { query: ListSessionsQuery },
      responses: {
        '200': reply('One page; has_more says whether another follows', SessionList),
        ...errorResponses(checkoutAnswers.listSessions),
      },
    },
  },
  '/api/sessions/{id}': {
    get: {
      operationId: 'getSession',
      tags: ['Sessions'],
      summary: 'Read a session',
      description: `The session's state and payment outcome, for the merchant's server (never payment data). ${READ_STATUS}`,
      security: merchantKey,
      requestParams: { path: sessionId },
      responses: {
        '200': reply('The session', Session),
        ...errorResponses(checkoutAnswers.getSession),
      },
    },
  },
  '/api/sessions/{id}/public': {
    get: {
      operationId: 'getPublicSession',
      tags: ['Widget'],
      summary: "The widget's view of a session",
      description:
        "Amount, merchant name and the Google Pay PaymentDataRequest: what the widget needs to show the button. Called from the shopper's browser with the client secret, or with its view key (`view_key`: the client secret's SHA-256 in unpadded base64url), which reads this view and nothing else: the widget's GET then carries no header a browser preflights.",
      security: [{ clientSecret: [] }, { sessionViewKey: [] }],
      requestParams: { path: sessionId, header: widgetHeaders },
      responses: {
        '200': reply('The public view of the session', PublicSession),
        ...errorResponses(checkoutAnswers.getPublicSession),
      },
    },
  },
  '/api/sessions/{id}/pay': {
    post: {
      operationId: 'paySession',
      tags: ['Widget'],
      summary: 'Pay a session',
      description:
        "The widget sends the PaymentData Google Pay returned, exactly as it came; the server verifies and opens the token and charges (or holds) the amount at the payment service. For a session with delivery options or priced by the quote endpoint, with the latest quote's `quote_id` (quoteSession): the charge is that quote's total, and a payment not for it (another quote, another option or codes, a country the option does not deliver to) is refused with 409 `quote_mismatch` before anything is charged. A session priced by the quote endpoint is asked once more there with the full shipping address first: 422 `shipping_address_unserviceable` when it refuses it, 409 `quote_mismatch` when it prices it otherwise, 503 `quote_unavailable` when it does not answer; nothing is charged.",
      security: clientSecret,
      requestParams: { path: sessionId, header: widgetHeaders },
      requestBody: requestBody(checkoutBodies['POST /api/sessions/:id/pay'], PayBody),
      responses: {
        '200': reply(
          'The attempt\'s outcome and the session as the widget now sees it. `outcome.status`: `succeeded` (charged), `authorized` (a hold was placed, intent `hold`), `requires_authentication` (show `outcome.challenge_url`, then call authenticate), `declined` or `failed` (nothing charged; the shopper may pay again), or `pending` (the service has not answered; the outcome is being confirmed)',
          PayReply,
        ),
        ...errorResponses(checkoutAnswers.paySession),
      },
    },
  },
  '/api/sessions/{id}/quote': {
    post: {
      operationId: 'quoteSession',
      tags: ['Widget'],
      summary: 'Price a change in the sheet',
      description:
        "For a session with delivery options (`shipping.options`) or priced by the application's quote endpoint (`quote_endpoint`): the widget relays what Google Pay's onPaymentDataChanged gave it (the redacted address, the option picked, the promotion codes) and hands Google the reply's `update` unchanged. The server prices it (itself, or by asking the quote endpoint) and stores it as the session's latest quote, which paySession must name (`quote_id`) and is charged: the page never says a price.",
      security: clientSecret,
      requestParams: { path: sessionId, header: widgetHeaders },
      requestBody: requestBody(checkoutBodies['POST /api/sessions/:id/quote'], QuoteBody),
      responses: {
        '200': reply(
          "The sheet's answer: `update.newTransactionInfo` (the FINAL total: `amount` plus the option's, and with the quote endpoint its tax less the codes accepted), `update.newShippingOptionParameters` (the options offered for the address, the chosen one selected; a chosen option not offered is replaced by the first) and, with promotion codes, `update.newOfferInfo`, with `quote_id`; `update.error` beside them for a code refused (`OFFER_INVALID`); or `update.error` alone with `quote_id` null (`SHIPPING_ADDRESS_UNSERVICEABLE`: the address is not served; `OTHER_ERROR`: the quote endpoint did not answer a quote)",
          QuoteReply,
        ),
        ...errorResponses(checkoutAnswers.quoteSession),
      },
    },
  },
  '/api/sessions/{id}/authenticate': {
    post: {
      operationId: 'authenticateSession',
      tags: ['Widget'],
      summary: 'Finish 3-D Secure',
      description: 'The shopper finished (or, with `cancel`, abandoned) the 3-D Secure challenge: the payment goes on, or is declined.',
      security: clientSecret,
      requestParams: { path: sessionId, header: widgetHeaders },
      requestBody: requestBody(checkoutBodies['POST /api/sessions/:id/authenticate'], AuthenticateBody),
      responses: {
        '200': reply('The outcome after authentication (as the reply of pay), and the session', PayReply),
        ...errorResponses(checkoutAnswers.authenticateSession),
      },
    },
  },
  ...holdOperation('capture', 'Capture a hold', 'Takes all of the hold, or `amount` of it (the rest is released). Under an Idempotency-Key a retry replays the first reply.', CaptureSessionBody),
  ...holdOperation('release', 'Release a hold', 'Nothing is charged; the hold on the shopper\'s card ends. No body, or `{}`: a release has no fields (an `amount` is refused). Under an Idempotency-Key a retry replays the first reply.', EmptyBody),
  '/api/sessions/{id}/refunds': {
    post: {
      operationId: 'refundSession',
      tags: ['Refunds'],
      summary: 'Refund a session',
      description: 'Refund a succeeded or captured session: all that is left to refund, or `amount` of it; several refunds add up to at most what was taken. Under an Idempotency-Key a retry replays the first reply (and finds the refund after a crash).',
      security: merchantKey,
      requestParams: { path: sessionId, header: idempotent },
      requestBody: requestBody(checkoutBodies['POST /api/sessions/:id/refunds'], CreateRefundBody),
      responses: {
        '201': reply('The refund: succeeded, failed (nothing refunded), or pending while the service has not answered (reconciliation settles it)', Refund),
        ...errorResponses(checkoutAnswers.refundSession),
      },
    },
  },
  '/api/keys/roll': {
    post: {
      operationId: 'rollSecretKey',
      tags: ['Keys'],
      summary: 'Roll the secret key',
      description: 'A new secret key, working at once; the key that calls keeps working for `expire_current_in_seconds` (0 after a leak), and so do the dashboard sessions signed in with it: they end when it stops.',
      security: merchantKey,
      requestParams: { header: idempotent },
      requestBody: requestBody(checkoutBodies['POST /api/keys/roll'], RollSecretKeyBody),
      responses: {
        '201': reply('The new key (shown only here) and when the calling key stops working', RolledSecretKey),
        ...errorResponses(checkoutAnswers.rollSecretKey),
      },
    },
  },
  '/api/origin_verifications': {
    get: {
      operationId: 'listOriginVerifications',
      tags: ['Origin verification'],
      summary: "Each allowed origin's verification",
      description:
        "Platform mode signs Google Pay authJwts only for origins that proved the application controls them (docs/platform.md): each allowed origin with the file to publish (`file_url`), the line it must hold (`token`), and its checks' results. A page on an origin that is not verified gets `403 origin_not_verified` from the widget's routes.",
      security: merchantKey,
      responses: {
        '200': reply('Every allowed origin of the application, in its order', OriginVerificationList),
        ...errorResponses(checkoutAnswers.listOriginVerifications),
      },
    },
  },
  '/api/origin_verifications/verify': {
    post: {
      operationId: 'verifyOrigin',
      tags: ['Origin verification'],
      summary: 'Check an origin now',
      description:
        'Fetches the origin\'s file at once (in production: https, public addresses only, no redirect, 5 s, 4,096 bytes) and answers its verification, whether the check succeeded or not (`last_failure` says why). An origin checked less than 10 s ago is not fetched again: its last result is answered.',
      security: merchantKey,
      requestBody: requestBody(checkoutBodies['POST /api/origin_verifications/verify'], VerifyOriginBody),
      responses: {
        '200': reply("The origin's verification after the check", OriginVerification),
        ...errorResponses(checkoutAnswers.verifyOrigin),
      },
    },
  },
  ...quoteEndpointPaths,
  ...paymentMethodPaths,
  ...disputePaths,
  ...webhookPaths,
  ...testClockPaths,
  '/v3/apps/{appId}': {
    get: {
      operationId: 'getApp',
      tags: ['Apps API'],
      summary: 'Read an application record',
      description: 'One application record, as the apps API serves it (also under each of APPS_API_BASE_PATHS, e.g. /drive/v3/apps/{appId}); errors are in Google\'s shape (docs/apps-api.md).',
      security: [{ oauth2AccessToken: [] }],
      requestParams: {
        path: z.object({ appId: z.string().meta({ description: 'The application id' }) }),
        query: z.object({
          fields: z.string().optional().meta({ description: "A partial response, in Google's syntax (`id,name`, `checkout/merchantId`, `icons(size)`, `checkout/*`): only the fields named, the reply is then a PartialAppRecord" }),
          prettyPrint: z.enum(['true', 'false']).optional().meta({ description: 'Indent the reply' }),
          alt: z.literal('json').optional().meta({ description: 'The reply\'s format: JSON only' }),
          access_token: z.string().optional().meta({ description: 'The access token, when not sent in the Authorization header' }),
        }),
      },
      responses: {
        '200': reply('The application record (AppRecord); with `fields`, only the fields named (PartialAppRecord)', AppRecordReply),
        '400': reply('INVALID_ARGUMENT: a malformed id, an unknown or repeated parameter, a bad `fields` mask, or a request body (reason `bodyNotAllowed`: apps.get takes none; the connection then closes)', GoogleErrorBody),
        '401': reply('UNAUTHENTICATED', GoogleErrorBody),
        '403': reply('PERMISSION_DENIED', GoogleErrorBody),
        '404': reply('NOT_FOUND', GoogleErrorBody),
        '503': reply('UNAVAILABLE: the token issuer or the store is briefly unavailable; retry (after Retry-After, when given)', GoogleErrorBody),
      },
    },
  },
  '/sandbox/wallet/cards': {
    get: {
      operationId: 'listSandboxWalletCards',
      tags: ['Sandbox wallet'],
      summary: "The sandbox wallet's test cards",
      description: 'What the sandbox wallet\'s sheet offers (docs/test-cards.md), and the billing address every card pays with. Present only with the embedded sandbox; no credential (any origin).',
      security: [],
      responses: {
        '200': reply('The cards', WalletCardsReply),
        ...errorResponses(sandboxWalletAnswers.listSandboxWalletCards),
      },
    },
  },
  '/sandbox/wallet/tokens': {
    post: {
      operationId: 'createSandboxWalletToken',
      tags: ['Sandbox wallet'],
      summary: 'Pay with a test card, as Google Pay would',
      description: 'Plays Google: turns a test card (`card_id` of listSandboxWalletCards) and the session\'s PaymentDataRequest (its public view\'s `payment_data_request`) into the PaymentData the real wallet would return, with a real ECv2 token; send it to paySession. Present only with the embedded sandbox; no credential.',
      security: [],
      requestBody: requestBody(sandboxBodies.createSandboxWalletToken, WalletTokenRequest),
      responses: {
        '200': reply('The PaymentData', WalletTokenReply),
        ...errorResponses(sandboxWalletAnswers.createSandboxWalletToken),
      },
    },
  },
  '/sandbox/service/api/v1/charges': {
    post: {
      operationId: 'createCharge',
      tags: ['Sandbox service'],
      summary: 'Create a charge at the sandbox payment service',
      description: "The embedded sandbox payment service's charge API (present when no real service is configured), as the payment service's charge API specifies it: its error codes are the service's, not ours.",
      security: [{ serviceKey: [] }],
      requestParams: {
        header: z.object({
          'merchant-account': z.string().meta({ description: 'The merchant the charge is for' }),
          'idempotency-key': idempotencyKey.optional(),
        }),
      },
      requestBody: requestBody(sandboxBodies.createCharge, ChargeRequest),
      responses: {
        '201': reply('The charge: status succeeded, or failed for a declined card', Charge),
        '400': apiError(`${SANDBOX_SERVICE_BODY_REFUSALS}; invalid_wallet_token, token_already_used, unsupported_card_network, resource_missing (no such payment method) or invalid_authentication_session`),
        '401': apiError('unauthorized: a valid service key is required'),
        '403': apiError('gateway_merchant_mismatch: the wallet token was issued for another merchant'),
        '409': apiError('idempotency_key_reused or idempotency_key_in_use'),
        ...SANDBOX_SERVICE_ANSWERS,
        '503': apiError("issuer_unavailable: the card's issuer did not answer in time (the late issuer's test card, docs/test-cards.md): nothing was processed; the same request under the same Idempotency-Key is answered later"),
      },
    },
  },
  '/sandbox/service/api/v1/refunds': {
    post: {
      operationId: 'createRefund',
      tags: ['Sandbox service'],
      summary: 'Refund a charge at the sandbox payment service',
      description: "The embedded sandbox payment service's refund call, a convention of ours (docs/service-conventions.md): its error codes are the service's, not ours.",
      security: [{ serviceKey: [] }],
      requestParams: {
        header: z.object({
          'merchant-account': z.string().meta({ description: 'The merchant the refund is for' }),
          'idempotency-key': idempotencyKey.optional(),
        }),
      },
      requestBody: requestBody(sandboxBodies.createRefund, ServiceRefundRequest),
      responses: {
        '201': reply('The refund', ServiceRefund),
        '400': apiError(`${SANDBOX_SERVICE_BODY_REFUSALS}; amount_too_large: more than is left of the captured amount`),
        '401': apiError('unauthorized: a valid service key is required'),
        '404': apiError('resource_missing: no such charge for this merchant'),
        '409': apiError('invalid_state: the charge is not captured (a hold is released, not refunded); or idempotency_key_reused or idempotency_key_in_use'),
        ...SANDBOX_SERVICE_ANSWERS,
      },
    },
  },
};

const tags = [
  { name: 'Sessions', description: "The merchant's server (secret key): create checkout sessions, read them, capture or release holds" },
  { name: 'Widget', description: "The widget in the shopper's browser (the session's client secret): show the button, pay, finish 3-D Secure" },
  { name: 'Refunds', description: 'Refund a paid session, all or part (secret key)' },
  { name: 'Keys', description: "The application's secret key (secret key)" },
  { name: 'Origin verification', description: "Platform mode: each allowed origin's proof that the application controls it, before authJwts are signed for it (secret key; docs/platform.md)" },
  quoteEndpointTag,
  paymentMethodsTag,
  disputesTag,
  { name: 'Webhook endpoints', description: 'Where events are POSTed, signed (secret key; docs/webhooks.md)' },
  { name: 'Events', description: 'What happened to the application\'s sessions, refunds, kept cards and disputes, as delivered to webhook endpoints (secret key)' },
  testClocksTag,
  { name: 'Apps API', description: 'The application records, as Google\'s apps API serves them (OAuth 2.0 access token; docs/apps-api.md)' },
  { name: 'Sandbox wallet', description: "A stand-in for Google Pay's wallet, for tests and QA: present only with the embedded sandbox" },
  { name: 'Sandbox service', description: 'A stand-in for the payment service: present only when no real service is configured' },
];

export function openApiDocument(serverUrl: string): ReturnType<typeof createDocument> {
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Wallet Checkout',
      version: '0.1.0',
      description: `Drop-in Google Pay checkout. Amounts are in minor units; errors are {"error": {"code", "message"}}, each code always with the same status. ${READ_STATUS}`,
      // The document may be used freely to generate and ship clients of this API (docs/api.md, "The OpenAPI document").
      license: { name: 'MIT', identifier: 'MIT' },
      contact: { name: 'The operator of this server', url: serverUrl },
    },
    servers: [{ url: serverUrl, description: 'This server' }],
    tags,
    paths,
    webhooks: { ...webhookEvents, ...quoteEndpointWebhooks },
    components: {
      schemas: quoteAnswerComponent,
      securitySchemes: {
        merchantSecretKey: { type: 'http', scheme: 'bearer', description: "The application's secret key, sk_..." },
        clientSecret: { type: 'http', scheme: 'bearer', description: "The session's client secret, cs_..._secret_..." },
        sessionViewKey: { type: 'apiKey', in: 'query', name: 'view_key', description: "The session's view key: base64url (unpadded) of the SHA-256 of its client secret. Opens the session's public view only." },
        oauth2AccessToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An OAuth 2.0 access token with an apps scope' },
        serviceKey: { type: 'http', scheme: 'bearer', description: "The payment service's secret key" },
      },
    },
  });
}
