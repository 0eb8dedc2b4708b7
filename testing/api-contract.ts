/**
 * The API contract: the replies our servers sent during a test file, held
 * against the OpenAPI document with an OpenAPI 3.1 validator
 * (@hyperjump/json-schema's OpenAPI 3.1 dialect). A reply breaks it when its
 * route is under /api/ but not in the document (a 404 from no route at all
 * excepted, and the edge's 400 body_not_allowed to a body sent where no route takes one), its status is not declared for its operation, its JSON body is
 * not valid against the declared schema, or its error code is not one its
 * route declares (RouteAnswers) with the status ERROR_CODES gives it; for an
 * operation described by hand (the sandbox service's), one its response's
 * description names.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BASIC } from '@hyperjump/json-schema/experimental';
import { type Validator, validate } from '@hyperjump/json-schema/openapi-3-1';
import { checkoutAnswers } from '../server/checkout/routes';
import { ERROR_CODES, isErrorCode, type RouteAnswers } from '../contracts/error-codes';
import { openApiDocument } from '../server/openapi';
import { sandboxWalletAnswers } from '../server/openapi/document';
import { webhookAnswers } from '../server/webhooks/routes';
import type { RecordedReply } from './contract-recorder';

/** Our API's namespace: every route under it must be in the document. */
const PUBLIC_API_PREFIX = '/api/';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

const answersByOperation: Record<string, RouteAnswers> = { ...checkoutAnswers, ...webhookAnswers, ...sandboxWalletAnswers };

interface DocumentOperation {
  operationId?: string;
  responses: Record<string, { description?: string; content?: Record<string, unknown> } | undefined>;
}
interface Operation {
  method: string;
  template: string;
  matches: RegExp;
  spec: DocumentOperation;
}

/** JSON pointer segment, as a URI fragment: `~` and `/` escaped, then percent-encoded. */
const segment = (s: string) => encodeURIComponent(s.replaceAll('~', '~0').replaceAll('/', '~1'));

function operationsOf(paths: Record<string, Record<string, unknown> | undefined>): Operation[] {
  return Object.entries(paths).flatMap(([template, item]) =>
    METHODS.filter((method) => item?.[method]).map((method) => ({
      method,
      template,
      matches: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      spec: item![method] as DocumentOperation,
    })),
  );
}

const parsedBody = (text: string | undefined): unknown => {
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
};

function errorCodeOf(body: unknown): string | undefined {
  const code = (body as { error?: { code?: unknown } } | null)?.error?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Which operation a request was for: given by a caller that knows (a path with `..` in it, which URL parsing would resolve away). */
export interface OperationRef {
  method: string;
  template: string;
}

export interface ContractChecker {
  /** What is wrong with one reply, by the document: nothing when it is described. */
  check(reply: RecordedReply, operation?: OperationRef): Promise<string[]>;
  /** The document's temporary copy is removed. */
  close(): void;
}

/**
 * The check of replies, one at a time, against one copy of the document and its compiled
 * validators (about a second to set up, then about a millisecond a reply): the per-file check
 * below and the contract fuzz (server/openapi/contract-fuzz.test.ts) both use it.
 */
export function contractChecker(): ContractChecker {
  const document = openApiDocument('http://127.0.0.1');
  const directory = mkdtempSync(join(tmpdir(), 'wallet-checkout-contract-'));
  // The validator reads an OpenAPI document by its URI; ".openapi.json" tells it which kind of document it is.
  const file = join(directory, 'api.openapi.json');
  writeFileSync(file, JSON.stringify(document));
  const documentUri = pathToFileURL(file).href;
  const operations = operationsOf((document.paths ?? {}) as Record<string, Record<string, unknown> | undefined>);
  const validators = new Map<string, Promise<Validator>>();
  const validatorOf = (uri: string) => validators.get(uri) ?? validators.set(uri, validate(uri)).get(uri)!;

  async function check(reply: RecordedReply, ref?: OperationRef): Promise<string[]> {
    const violations: string[] = [];
    if (reply.method === 'OPTIONS' || reply.method === 'HEAD') return violations;
    const pathname = ref ? undefined : new URL(reply.url).pathname;
    const said = `${reply.method} ${pathname ?? ref!.template} answered ${reply.status}`;
    const operation = ref
      ? operations.find((candidate) => candidate.method === ref.method.toLowerCase() && candidate.template === ref.template)
      : operations.find((candidate) => candidate.method === reply.method.toLowerCase() && candidate.matches.test(pathname!));
    if (!operation) {
      // No route at all: a 404, or, for a request that carries a body, the edge's refusal before any routing (common/http/body.ts).
      const noRoute = reply.status === 404 || (reply.status === 400 && errorCodeOf(parsedBody(reply.body)) === 'body_not_allowed');
      if (pathname?.startsWith(PUBLIC_API_PREFIX) && !noRoute) violations.push(`${said}: the route is not in the OpenAPI document`);
      if (ref) violations.push(`${said}: ${ref.method} ${ref.template} is not in the OpenAPI document`);
      return violations;
    }
    const status = String(reply.status);
    const declared = operation.spec.responses[status];
    if (!declared) {
      violations.push(`${said}: ${operation.method.toUpperCase()} ${operation.template} declares no ${status} (${reply.body?.slice(0, 200) ?? reply.contentType})`);
      return violations;
    }
    if (!declared.content?.['application/json']) return violations;
    if (reply.body === undefined) {
      violations.push(`${said}: the document declares a JSON body, the reply is ${reply.contentType ?? 'without a content type'}`);
      return violations;
    }
    let body: Parameters<Validator>[0];
    try {
      body = JSON.parse(reply.body) as Parameters<Validator>[0];
    } catch {
      violations.push(`${said}: the body is not JSON: ${reply.body.slice(0, 200)}`);
      return violations;
    }
    const pointer = ['paths', operation.template, operation.method, 'responses', status, 'content', 'application/json', 'schema'].map(segment).join('/');
    const output = (await validatorOf(`${documentUri}#/${pointer}`))(body, BASIC);
    if (!output.valid) {
      const where = (output.errors ?? []).map((error) => `${error.instanceLocation} (${error.absoluteKeywordLocation.replace(documentUri, '')})`).slice(0, 5);
      violations.push(`${said}: the body is not valid against the document: ${where.join('; ')}; body ${reply.body.slice(0, 300)}`);
    }
    const answers = operation.spec.operationId ? answersByOperation[operation.spec.operationId] : undefined;
    const code = errorCodeOf(body);
    if (answers && code !== undefined) {
      if (!isErrorCode(code) || !answers.includes(code)) violations.push(`${said}: ${operation.spec.operationId} does not declare the code ${code}`);
      else if (ERROR_CODES[code].status !== reply.status) violations.push(`${said}: ${code} is ${ERROR_CODES[code].status} in ERROR_CODES`);
    } else if (code !== undefined && !namesCode(declared.description, code)) {
      // An operation described by hand (the sandbox service's): its codes are the ones its response's description names.
      violations.push(`${said}: ${operation.spec.operationId ?? operation.template} does not declare the code ${code} for ${status} (its description: ${declared.description ?? 'none'})`);
    }
    return violations;
  }

  return { check, close: () => rmSync(directory, { recursive: true, force: true }) };
}

/** Whether a response's description names an error code as a word of its own (`invalid_request, amount_too_large: ...`). */
const namesCode = (description: string | undefined, code: string): boolean =>
  description !== undefined && new RegExp(`(^|[^a-z0-9_])${code.replace(/[^a-z0-9_]/gi, '\\$&')}($|[^a-z0-9_])`).test(description);

export async function contractViolations(replies: readonly RecordedReply[]): Promise<string[]> {
  const checker = contractChecker();
  try {
    const violations: string[] = [];
    for (const reply of replies) violations.push(...(await checker.check(reply)));
    return violations;
  } finally {
    checker.close();
  }
}
