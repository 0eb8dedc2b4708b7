/**
 * The OpenAPI 3.1 document of every public endpoint, generated from the zod
 * schemas that validate requests and type replies (server/contracts and the
 * apps API's records), so the document cannot drift from the code.
 */
import { z } from 'zod';
import { createDocument, type ZodOpenApiObject } from 'zod-openapi';
import { AppRecord } from '../app-lookup/app-record';
import { GoogleErrorBody } from '../app-lookup/google-errors';
import { ApiErrorBody, AuthenticateBody, CaptureSessionBody, Charge, ChargeRequest, CreatedSession, CreateRefundBody, CreateSessionBody, ListSessionsQuery, PayBody, PayReply, PublicSession, Refund, RolledSecretKey, RollSecretKeyBody, ServiceRefund, ServiceRefundRequest, Session, SessionList } from '../contracts';
import { apiError, idempotencyKey, json, reply, storeDown } from './parts';
import { webhookPaths, webhookSchemas } from './webhooks';

/** The widget's routes on a session whose expires_at has passed (docs/api.md, "Expiry"). */
const SESSION_EXPIRED = apiError('session_expired: the session expired unpaid; it never takes a payment again (the shopper starts again from the store)');

const sessionId = z.object({ id: z.string().meta({ description: 'The checkout session id (cs_...)' }) });

/** POST /api/sessions/{id}/capture and /release: the merchant's operations on a hold (docs/holds-and-3ds.md). */
function holdOperation(operation: 'capture' | 'release', summary: string, body?: z.ZodType): ZodOpenApiObject['paths'] {
  return {
    [`/api/sessions/{id}/${operation}`]: {
      post: {
        operationId: `${operation}Session`,
        summary,
        security: [{ merchantSecretKey: [] }],
        requestParams: { path: sessionId, header: z.object({ 'idempotency-key': idempotencyKey.optional() }) },
        ...(body ? { requestBody: { required: false, ...json(body) } } : {}),
        responses: {
          '200': reply(`The session after the ${operation}`, Session),
          '400': apiError('invalid_json or invalid_request'),
          '401': apiError('unauthenticated'),
          '404': apiError('not_found'),
          '409': apiError(`invalid_state: the session holds no authorized payment to ${operation}; ${operation === 'capture' ? 'hold_expired: the hold lapsed 7 days after it was placed; ' : ''}or idempotency_key_reused`),
          '503': storeDown(`service_unavailable: the service could not ${operation} the hold; retry with the same request`),
        },
      },
    },
  };
}

const paths: ZodOpenApiObject['paths'] = {
  '/api/sessions': {
    post: {
      operationId: 'createSession',
      summary: 'Create a checkout session',
      security: [{ merchantSecretKey: [] }],
      requestParams: { header: z.object({ 'idempotency-key': idempotencyKey.optional() }) },
      requestBody: { required: true, ...json(CreateSessionBody) },
      responses: {
        '201': reply('The session, with its client secret (shown only here)', CreatedSession),
        '400': apiError('invalid_json or invalid_request'),
        '401': apiError('unauthenticated: a valid secret key is required'),
        '409': apiError('idempotency_key_reused or idempotency_key_in_use'),
        '503': storeDown(),
      },
    },
    get: {
      operationId: 'listSessions',
      summary: "The application's sessions, newest first, a page at a time (starting_after: the last id of the previous page)",
      security: [{ merchantSecretKey: [] }],
      requestParams: { query: ListSessionsQuery },
      responses: {
        '200': reply('One page; has_more says whether another follows', SessionList),
        '400': apiError('invalid_request, naming the parameter (starting_after must be one of this application\'s sessions)'),
        '401': apiError('unauthenticated: a valid secret key is required'),
        '503': storeDown(),
      },
    },
  },
  '/api/sessions/{id}': {
    get: {
      operationId: 'getSession',
      summary: "The session's state and payment outcome, for the merchant's server",
      security: [{ merchantSecretKey: [] }],
      requestParams: { path: sessionId },
      responses: {
        '200': reply('The session', Session),
        '401': apiError('unauthenticated'),
        '404': apiError("not_found, including another application's session"),
        '503': storeDown(),
      },
    },
  },
  '/api/sessions/{id}/public': {
    get: {
      operationId: 'getPublicSession',
      summary: "The widget's view: amount, merchant name and the Google Pay request",
      security: [{ clientSecret: [] }],
      requestParams: { path: sessionId },
      responses: {
        '200': reply('The public view of the session', PublicSession),
        '401': apiError('unauthenticated: a valid client secret for this session is required'),
        '403': apiError("origin_not_allowed: the page's origin is not one of the app's"),
        '410': SESSION_EXPIRED,
        '503': storeDown('direct_key_not_registered (direct mode: the app has no registered key, docs/direct-mode.md)'),
      },
    },
  },
  '/api/sessions/{id}/pay': {
    post: {
      operationId: 'paySession',
      summary: 'Pay the session with the PaymentData Google Pay returned',
      security: [{ clientSecret: [] }],
      requestParams: { path: sessionId },
      requestBody: { required: true, ...json(PayBody) },
      responses: {
        '200': reply('The outcome (succeeded, declined, failed or pending) and the session', PayReply),
        '400': apiError('invalid_json, invalid_request or invalid_payment_token'),
        '401': apiError('unauthenticated'),
        '403': apiError('origin_not_allowed'),
        '409': apiError('payment_in_progress, session_completed, or replayed_token (direct mode: the token was already used)'),
        '410': SESSION_EXPIRED,
        '413': apiError('payload_too_large'),
        '503': storeDown('root_keys_unavailable, direct_key_not_registered or direct_mode_unavailable (direct mode)'),
      },
    },
  },
  '/api/sessions/{id}/authenticate': {
    post: {
      operationId: 'authenticateSession',
      summary: 'The shopper finished (or, with cancel, abandoned) the 3-D Secure challenge: the payment goes on or is declined',
      security: [{ clientSecret: [] }],
      requestParams: { path: sessionId },
      requestBody: { required: true, ...json(AuthenticateBody) },
      responses: {
        '200': reply('The outcome after authentication, and the session', PayReply),
        '400': apiError('invalid_json or invalid_request'),
        '401': apiError('unauthenticated'),
        '403': apiError('origin_not_allowed'),
        '409': apiError('authentication_pending, or no authentication to complete (session_completed, payment_in_progress, invalid_state)'),
        '410': SESSION_EXPIRED,
        '503': storeDown('service_unavailable: the authentication could not be confirmed; retry'),
      },
    },
  },
  ...holdOperation('capture', 'Capture a hold, all of it or `amount` of it', CaptureSessionBody),
  ...holdOperation('release', 'Release a hold: nothing is charged'),
  '/api/sessions/{id}/refunds': {
    post: {
      operationId: 'refundSession',
      summary: 'Refund a succeeded or captured session: all that is left to refund, or `amount` of it; several refunds add up to at most what was taken',
      security: [{ merchantSecretKey: [] }],
      requestParams: { path: sessionId, header: z.object({ 'idempotency-key': idempotencyKey.optional() }) },
      requestBody: { required: false, ...json(CreateRefundBody) },
      responses: {
        '201': reply('The refund: succeeded, failed (nothing refunded), or pending while the service has not answered (reconciliation settles it)', Refund),
        '400': apiError('invalid_json or invalid_request'),
        '401': apiError('unauthenticated'),
        '404': apiError('not_found'),
        '409': apiError('invalid_state: the session took no money (an uncaptured hold is released instead); amount_exceeds_refundable: more than is left to refund; or idempotency_key_reused or idempotency_key_in_use'),
        '503': storeDown(),
      },
    },
  },
  '/api/keys/roll': {
    post: {
      operationId: 'rollSecretKey',
      summary: 'A new secret key, working at once; the key that calls keeps working for expire_current_in_seconds',
      security: [{ merchantSecretKey: [] }],
      requestParams: { header: z.object({ 'idempotency-key': idempotencyKey.optional() }) },
      requestBody: { required: false, ...json(RollSecretKeyBody) },
      responses: {
        '201': reply('The new key (shown only here) and when the calling key stops working', RolledSecretKey),
        '400': apiError('invalid_json or invalid_request'),
        '401': apiError('unauthenticated: a valid, unexpired secret key is required'),
        '409': apiError('idempotency_key_reused or idempotency_key_in_use'),
        '503': storeDown(),
      },
    },
  },
  ...webhookPaths,
  '/v3/apps/{appId}': {
    get: {
      operationId: 'getApp',
      summary: 'One application record (also served under each of APPS_API_BASE_PATHS, e.g. /drive/v3/apps/{appId})',
      security: [{ oauth2AccessToken: [] }],
      requestParams: {
        path: z.object({ appId: z.string() }),
        query: z.object({
          fields: z.string().optional().meta({ description: 'A partial response: only the fields named (the reply is then a subset of the record)' }),
          prettyPrint: z.enum(['true', 'false']).optional(),
          alt: z.literal('json').optional(),
          access_token: z.string().optional().meta({ description: 'The access token, when not sent in the Authorization header' }),
        }),
      },
      responses: {
        '200': reply('The application record', AppRecord),
        '400': reply('INVALID_ARGUMENT', GoogleErrorBody),
        '401': reply('UNAUTHENTICATED', GoogleErrorBody),
        '403': reply('PERMISSION_DENIED', GoogleErrorBody),
        '404': reply('NOT_FOUND', GoogleErrorBody),
        '503': reply('UNAVAILABLE: the token issuer or the store is briefly unavailable; retry (after Retry-After, when given)', GoogleErrorBody),
      },
    },
  },
  '/sandbox/service/api/v1/charges': {
    post: {
      operationId: 'createCharge',
      summary: "The embedded sandbox payment service's charge API (present when no real service is configured)",
      security: [{ serviceKey: [] }],
      requestParams: {
        header: z.object({
          'merchant-account': z.string().meta({ description: 'The merchant the charge is for' }),
          'idempotency-key': idempotencyKey.optional(),
        }),
      },
      requestBody: { required: true, ...json(ChargeRequest) },
      responses: {
        '201': reply('The charge: status succeeded, or failed for a declined card', Charge),
        '400': apiError('invalid_request, invalid_token, token_already_used, ...'),
        '401': apiError('unauthenticated: a valid service key is required'),
        '409': apiError('idempotency_key_reused or idempotency_key_in_use'),
      },
    },
  },
  '/sandbox/service/api/v1/refunds': {
    post: {
      operationId: 'createRefund',
      summary: "The embedded sandbox payment service's refund call, a convention of ours (docs/service-conventions.md)",
      security: [{ serviceKey: [] }],
      requestParams: {
        header: z.object({
          'merchant-account': z.string().meta({ description: 'The merchant the refund is for' }),
          'idempotency-key': idempotencyKey.optional(),
        }),
      },
      requestBody: { required: true, ...json(ServiceRefundRequest) },
      responses: {
        '201': reply('The refund', ServiceRefund),
        '400': apiError('invalid_request, or amount_too_large: more than is left of the captured amount'),
        '401': apiError('unauthenticated: a valid service key is required'),
        '404': apiError('resource_missing: no such charge for this merchant'),
        '409': apiError('invalid_state: the charge is not captured (a hold is released, not refunded); or idempotency_key_reused or idempotency_key_in_use'),
      },
    },
  },
};

export function openApiDocument(serverUrl: string): ReturnType<typeof createDocument> {
  return createDocument({
    openapi: '3.1.0',
    info: { title: 'Wallet Checkout', version: '0.1.0', description: 'Drop-in Google Pay checkout. Amounts are in minor units; errors are {"error": {"code", "message"}}.' },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      securitySchemes: {
        merchantSecretKey: { type: 'http', scheme: 'bearer', description: "The application's secret key, sk_..." },
        clientSecret: { type: 'http', scheme: 'bearer', description: "The session's client secret, cs_..._secret_..." },
        oauth2AccessToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An OAuth 2.0 access token with an apps scope' },
        serviceKey: { type: 'http', scheme: 'bearer', description: "The payment service's secret key" },
      },
      schemas: { ApiErrorBody, GoogleErrorBody, Session, SessionList, CreatedSession, Refund, RolledSecretKey, PublicSession, PayReply, AppRecord, ChargeRequest, Charge, ServiceRefund, ...webhookSchemas },
    },
  });
}
