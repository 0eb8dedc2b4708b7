/** The disputes API's part of the OpenAPI document: the application's disputes and their evidence (docs/disputes.md). */
import { z } from 'zod';
import type { ZodOpenApiObject } from 'zod-openapi';
import { Dispute, DisputeList, ListDisputesQuery, SubmitDisputeEvidenceBody } from '../../contracts';
import { disputeAnswers, disputeBodies } from '../disputes/routes';
import { errorResponses, idempotencyKey, reply, requestBody } from './parts';

const secretKey = [{ merchantSecretKey: [] }];
const TAG = 'Disputes';
const disputeId = z.object({ disputeId: z.string().meta({ description: 'The dispute id (dp_...)' }) });

export const disputesTag = {
  name: TAG,
  description: "The disputes of the application's payments, opened by the cardholders' banks, and the evidence that answers them (secret key; docs/disputes.md)",
};

export const disputePaths: ZodOpenApiObject['paths'] = {
  '/api/disputes': {
    get: {
      operationId: 'listDisputes',
      tags: [TAG],
      summary: 'List the disputes',
      description: 'Newest first, a page at a time (`starting_after`: the last id of the previous page); `status` keeps the disputes in one status.',
      security: secretKey,
      requestParams: { query: ListDisputesQuery },
      responses: {
        '200': reply('One page; has_more says whether another follows', DisputeList),
        ...errorResponses(disputeAnswers.listDisputes),
      },
    },
  },
  '/api/disputes/{disputeId}': {
    get: {
      operationId: 'getDispute',
      tags: [TAG],
      summary: 'Read a dispute',
      description: 'Its payment (`session_id`), amount, reason, status, the date its evidence is due by, and the evidence submitted.',
      security: secretKey,
      requestParams: { path: disputeId },
      responses: {
        '200': reply('The dispute', Dispute),
        ...errorResponses(disputeAnswers.getDispute),
      },
    },
  },
  '/api/disputes/{disputeId}/evidence': {
    post: {
      operationId: 'submitDisputeEvidence',
      tags: [TAG],
      summary: "Submit a dispute's evidence",
      description:
        "Once, before `evidence_due_by`: the merchant's explanation, and for an express checkout the shopper gave a shipping address in, the carrier and tracking number. The server attaches the payment's billing address check and the card issuer's address verification. The dispute goes `under_review` (`dispute.updated`); the issuer's decision closes it `won` or `lost` (`dispute.closed`).",
      security: secretKey,
      requestParams: { path: disputeId, header: z.object({ 'idempotency-key': idempotencyKey.optional() }) },
      requestBody: requestBody(disputeBodies['POST /api/disputes/:disputeId/evidence'], SubmitDisputeEvidenceBody),
      responses: {
        '200': reply('The dispute, under review, with its evidence', Dispute),
        ...errorResponses(disputeAnswers.submitDisputeEvidence),
      },
    },
  },
};
