/** The building blocks of the OpenAPI document's paths, shared by its parts (document.ts, webhooks.ts). */
import { z } from 'zod';
import type { ZodOpenApiResponsesObject } from 'zod-openapi';
import { ApiErrorBody } from '../../contracts';
import { type BodyRule, KB } from '../../common/http/body';
import { ERROR_CODES, type RouteAnswers } from '../../contracts/error-codes';
import { JSON_SHAPE_LIMITS } from '../../common/http/json-shape';

export const json = <T extends z.ZodType>(schema: T) => ({ content: { 'application/json': { schema } } });
export const reply = <T extends z.ZodType>(description: string, schema: T) => ({ description, ...json(schema) });

/**
 * An operation's request body, from the rule the edge reads it by (common/http/body.ts): required or
 * not, and its limits in its description. `application/json` is its only content: anything else,
 * and any charset but utf-8, is answered 415 (declared with the route's other answers).
 */
export function requestBody<T extends z.ZodType>(rule: BodyRule, schema: T) {
  const { depth, keysPerObject, keys, stringBytes, values } = JSON_SHAPE_LIMITS;
  const optional = rule.body === 'required' ? '' : ' Optional: no body at all (and then no Content-Type) is `{}`.';
  return {
    required: rule.body === 'required',
    description:
      `A JSON object, as UTF-8 \`application/json\` only (another type, a \`+json\` type, another charset, a compressed body, or a body without a Content-Type: \`415\`). ` +
      `At most ${rule.limit / KB} kB (\`413\`), nesting at most ${depth} deep, at most ${keysPerObject} keys an object and ${keys} in all, ${values} values in all (array elements and object members), strings at most ${stringBytes} bytes (\`400 invalid_request\`).${optional}`,
    ...json(schema),
  };
}

/** An error reply described by hand: only the sandbox service's, whose codes are the payment service's, not ours. */
export const apiError = (description: string) => reply(description, ApiErrorBody);

const retryAfter = z.string().meta({ description: 'Seconds to wait before sending the request again' });

/**
 * A route's error responses, one per status, from the codes it declares
 * (RouteAnswers, next to the route) and the status the server sends for each
 * (ERROR_CODES): each response names its codes and what they mean, and says
 * Retry-After where the server sends it (429 from a limiter, 503 while the store is down).
 */
export function errorResponses(answers: RouteAnswers): ZodOpenApiResponsesObject {
  const codesByStatus = new Map<number, Set<keyof typeof ERROR_CODES>>();
  for (const code of answers) {
    const { status } = ERROR_CODES[code];
    codesByStatus.set(status, (codesByStatus.get(status) ?? new Set()).add(code));
  }
  const statuses = [...codesByStatus.keys()].sort((a, b) => a - b);
  return Object.fromEntries(
    statuses.map((status) => {
      const codes = [...codesByStatus.get(status)!];
      const description = codes.map((code) => `\`${code}\`: ${ERROR_CODES[code].meaning}`).join('; ');
      const retries = codes.includes('rate_limited') || codes.includes('store_unavailable');
      return [String(status), { description, ...(retries ? { headers: z.object({ 'retry-after': retryAfter.optional() }) } : {}), ...json(ApiErrorBody) }];
    }),
  );
}

export const idempotencyKey = z.string().min(1).max(255).meta({ description: 'Makes a retry of this request return the first reply instead of acting twice' });
