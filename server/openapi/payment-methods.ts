/** The payment methods API's part of the OpenAPI document: the cards kept for the application's customers (docs/saved-cards.md). */
import { z } from 'zod';
import type { ZodOpenApiObject } from 'zod-openapi';
import { ChargePaymentMethodBody, EmptyBody, ListPaymentMethodsQuery, PaymentMethod, PaymentMethodList, Session } from '../../contracts';
import { paymentMethodAnswers, paymentMethodBodies } from '../payment-methods/routes';
import { errorResponses, idempotencyKey, reply, requestBody } from './parts';

const secretKey = [{ merchantSecretKey: [] }];
const TAG = 'Payment methods';
const paymentMethodId = z.object({ paymentMethodId: z.string().meta({ description: 'The payment method id (pm_...)' }) });

export const paymentMethodsTag = {
  name: TAG,
  description: "The cards kept for the application's customers by the payments that saved them, and the charges made on them without the shopper (secret key; docs/saved-cards.md)",
};

export const paymentMethodPaths: ZodOpenApiObject['paths'] = {
  '/api/payment_methods': {
    get: {
      operationId: 'listPaymentMethods',
      tags: [TAG],
      summary: 'List the kept cards',
      description: 'Newest first, a page at a time (`starting_after`: the last id of the previous page), detached ones included; `customer` keeps one customer\'s.',
      security: secretKey,
      requestParams: { query: ListPaymentMethodsQuery },
      responses: {
        '200': reply('One page; has_more says whether another follows', PaymentMethodList),
        ...errorResponses(paymentMethodAnswers.listPaymentMethods),
      },
    },
  },
  '/api/payment_methods/{paymentMethodId}': {
    get: {
      operationId: 'getPaymentMethod',
      tags: [TAG],
      summary: 'Read a kept card',
      description: 'Its card (network, last four, expiry), the agreement the shopper gave, its status.',
      security: secretKey,
      requestParams: { path: paymentMethodId },
      responses: {
        '200': reply('The payment method', PaymentMethod),
        ...errorResponses(paymentMethodAnswers.getPaymentMethod),
      },
    },
  },
  '/api/payment_methods/{paymentMethodId}/detach': {
    post: {
      operationId: 'detachPaymentMethod',
      tags: [TAG],
      summary: 'Detach a kept card, for good',
      description:
        'The card is never charged through this payment method again (`payment_method.detached`); the payment service forgets it. Saving the card again (a new session) makes a new payment method. Detaching it again answers it as it is. No body, or `{}`.',
      security: secretKey,
      requestParams: { path: paymentMethodId, header: z.object({ 'idempotency-key': idempotencyKey.optional() }) },
      requestBody: requestBody(paymentMethodBodies['POST /api/payment_methods/:paymentMethodId/detach'], EmptyBody),
      responses: {
        '200': reply('The payment method, detached', PaymentMethod),
        ...errorResponses(paymentMethodAnswers.detachPaymentMethod),
      },
    },
  },
  '/api/payment_methods/{paymentMethodId}/charges': {
    post: {
      operationId: 'chargePaymentMethod',
      tags: [TAG],
      summary: 'Charge a kept card without the shopper',
      description:
        "A merchant-initiated charge, made as a checkout session of intent `merchant_initiated` (its events, refunds and listing are a session's). Refused before the payment service when the card is kept for another customer, detached, expired, or the shopper's agreement does not cover the reason (and, for a subscription or a reload, the amount and currency). The Idempotency-Key is required: a retry under it is the same charge, however the first request ended.",
      security: secretKey,
      requestParams: { path: paymentMethodId, header: z.object({ 'idempotency-key': idempotencyKey }) },
      requestBody: requestBody(paymentMethodBodies['POST /api/payment_methods/:paymentMethodId/charges'], ChargePaymentMethodBody),
      responses: {
        '201': reply(
          "The session: `succeeded`, `declined` (the issuer's `outcome.failure_code`: `authentication_required` or `expired_card` want the shopper back, docs/saved-cards.md), `failed` (the service refused it, nothing charged) or `pending` (its outcome is being confirmed: read the session, or wait for its event)",
          Session,
        ),
        ...errorResponses(paymentMethodAnswers.chargePaymentMethod),
      },
    },
  },
};
