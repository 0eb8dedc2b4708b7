/**
 * The API contract: the replies our servers sent during a test file, held
 * against the OpenAPI document with an OpenAPI 3.1 validator
 * (@hyperjump/json-schema's OpenAPI 3.1 dialect). A reply breaks it when its
 * route is under /api/ but not in the document (a 404 from no route at all
 * excepted, and the edge's 400 body_not_allowed to a body sent where no route takes one), its status is not declared for its operation, its JSON body is
 * not valid against the declared schema, or its error code is not one its
 * route declares (RouteAnswers) with the status ERROR_CODES gives it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BASIC } from '@hyperjump/json-schema/experimental';
import { type Validator, validate } from '@hyperjump/json-schema/openapi-3-1';
import { checkoutAnswers } from '../checkout/routes';
import { ERROR_CODES, isErrorCode, type RouteAnswers } from '../http/errors';
import { openApiDocument } from '../openapi';
import { sandboxWalletAnswers } from '../openapi/document';
import { webhookAnswers } from '../webhooks/routes';
import type { RecordedReply } from './contract-recorder';

/** Our API's namespace: every route under it must be in the document. */
const PUBLIC_API_PREFIX = '/api/';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

const answersByOperation: Record<string, RouteAnswers> = { ...checkoutAnswers, ...webhookAnswers, ...sandboxWalletAnswers };

interface DocumentOperation {
  operationId?: string;
  responses: Record<string, { content?: Record<string, unknown> } | undefined>;
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

export async function contractViolations(replies: readonly RecordedReply[]): Promise<string[]> {
  const document = openApiDocument('http://127.0.0.1');
  const directory = mkdtempSync(join(tmpdir(), 'wallet-checkout-contract-'));
  // The validator reads an OpenAPI document by its URI; ".openapi.json" tells it which kind of document it is.
  const file = join(directory, 'api.openapi.json');
  writeFileSync(file, JSON.stringify(document));
  const documentUri = pathToFileURL(file).href;
  const operations = operationsOf((document.paths ?? {}) as Record<string, Record<string, unknown> | undefined>);
  const violations: string[] = [];
  const validators = new Map<string, Promise<Validator>>();
  const validatorOf = (uri: string) => validators.get(uri) ?? validators.set(uri, validate(uri)).get(uri)!;
  try {
    for (const reply of replies) {
      if (reply.method === 'OPTIONS' || reply.method === 'HEAD') continue;
      const { pathname } = new URL(reply.url);
      const said = `${reply.method} ${pathname} answered ${reply.status}`;
      const operation = operations.find((candidate) => candidate.method === reply.method.toLowerCase() && candidate.matches.test(pathname));
      if (!operation) {
        // No route at all: a 404, or, for a request that carries a body, the edge's refusal before any routing (server/http/body.ts).
        const noRoute = reply.status === 404 || (reply.status === 400 && errorCodeOf(parsedBody(reply.body)) === 'body_not_allowed');
        if (pathname.startsWith(PUBLIC_API_PREFIX) && !noRoute) violations.push(`${said}: the route is not in the OpenAPI document`);
        continue;
      }
      const status = String(reply.status);
      const declared = operation.spec.responses[status];
      if (!declared) {
        violations.push(`${said}: ${operation.method.toUpperCase()} ${operation.template} declares no ${status} (${reply.body?.slice(0, 200) ?? reply.contentType})`);
        continue;
      }
      if (!declared.content?.['application/json']) continue;
      if (reply.body === undefined) {
        violations.push(`${said}: the document declares a JSON body, the reply is ${reply.contentType ?? 'without a content type'}`);
        continue;
      }
      const body = JSON.parse(reply.body) as Parameters<Validator>[0];
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
      }
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  return violations;
}
