/**
 * The contract fuzz's requests: every operation of the OpenAPI document, the valid requests its
 * schemas describe (schema-arbitrary.ts, and the examples the target knows: real ids, a minted
 * payment), the invalid variants of each (one thing broken: a wrong type, a missing or extra field,
 * huge and odd strings, NUL and unpaired surrogates, deep nesting, malformed JSON, bytes that are
 * not UTF-8, other content types, hostile path ids, bad parameters and headers, no or the wrong
 * credential), and the judge of whether a request, as sent, is one the document allows
 * (`requestViolations`, with Ajv on the document's own schemas): the server may refuse a valid
 * request (an unknown currency is a 400), but never accept an invalid one.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import fc from 'fast-check';
import { type JsonSchema, ODD_STRINGS, type SchemaRoot, arbitraryOf, schemaRoot } from './schema-arbitrary';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export interface Param {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  id: string;
  method: string;
  template: string;
  params: Param[];
  body: { required: boolean; schema: JsonSchema } | undefined;
  /** The security schemes that can authorize a call (any one of them); empty: no credential needed. */
  schemes: string[];
}

interface DocumentOperation {
  operationId?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  security?: Record<string, string[]>[];
}

/** Every operation of the document, in its order. */
export function operationsOf(document: { paths?: Record<string, Record<string, unknown> | undefined>; security?: Record<string, string[]>[] }): Operation[] {
  return Object.entries(document.paths ?? {}).flatMap(([template, item]) =>
    METHODS.filter((method) => item?.[method]).map((method) => {
      const spec = item![method] as DocumentOperation;
      const security = spec.security ?? document.security ?? [];
      const json = spec.requestBody?.content?.['application/json'];
      return {
        id: spec.operationId ?? `${method} ${template}`,
        method: method.toUpperCase(),
        template,
        params: (spec.parameters ?? [])
          .filter((param) => param.in === 'path' || param.in === 'query' || param.in === 'header')
          .map((param) => ({ name: param.name, in: param.in as Param['in'], required: param.in === 'path' || param.required === true, schema: param.schema ?? true })),
        body: spec.requestBody ? { required: spec.requestBody.required === true, schema: json?.schema ?? true } : undefined,
        schemes: security.flatMap((requirement) => Object.keys(requirement)),
      };
    }),
  );
}

/** A value the target fills in when it sends: one of its objects (`pool`, e.g. a paid session's id), or an Idempotency-Key no earlier request used. */
export type ParamValue = { value: string } | { pool: string; index: number } | { unique: true } | { raw: string };

export interface ParamEntry {
  name: string;
  in: Param['in'];
  value: ParamValue;
}

/** `valid`: the credential the operation needs (the target's current one); the others are what a stranger or a mistaken client sends. */
export type Credential = 'valid' | 'none' | 'garbage' | 'basic' | 'empty' | 'another';

export interface FuzzBody {
  text: string;
  /** How `text` becomes bytes: UTF-8; UTF-16LE (sent as charset=utf-16); or one byte a character (bytes that are not UTF-8). */
  encoding: 'utf-8' | 'utf-16le' | 'bytes';
}

export interface FuzzRequest {
  /** `valid`, or what was broken. */
  variant: string;
  params: ParamEntry[];
  credential: Credential;
  body: FuzzBody | undefined;
  /** Absent: no Content-Type header. */
  contentType: string | undefined;
}

/** A request the target knows a server can accept: real ids, a minted payment. */
export interface Example {
  params?: Record<string, ParamValue>;
  body?: unknown;
}

/** What the target knows about its objects, for the generator. */
export interface FuzzKnowledge {
  /** The pools a parameter's values may come from (`session.paid`, `event`, ...). */
  pools(operation: Operation, param: Param): string[];
  examples(operation: Operation): Example[];
  /** Values that mean something for a parameter (`fields=checkout/merchantId`, an allowed origin). */
  paramExamples(operation: Operation, param: Param): string[];
}

/** Header values that Node will send: visible ASCII, no leading or trailing space. */
const sendableHeader = (value: string) => /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value);

/** Percent-encodes every byte outside RFC 3986's unreserved set; an unpaired surrogate is sent as U+FFFD's bytes, as UTF-8 has no other. */
export const encodeSegment = (value: string): string =>
  [...Buffer.from(value, 'utf8')].map((byte) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/json;charset=UTF-8', 'Application/JSON'] as const;

function paramArbitrary(operation: Operation, param: Param, root: SchemaRoot, knowledge: FuzzKnowledge): fc.Arbitrary<ParamValue> {
  if (param.in === 'header' && param.name.toLowerCase() === 'idempotency-key') return fc.constant({ unique: true as const });
  const schemaValues = (arbitraryOf(param.schema, root) as fc.Arbitrary<unknown>)
    .map((value) => (typeof value === 'string' ? value : JSON.stringify(value)))
    .filter((value) => (param.in === 'header' ? sendableHeader(value) : param.in === 'path' ? value.length > 0 : true))
    .map((value): ParamValue => ({ value }));
  const choices: fc.WeightedArbitrary<ParamValue>[] = [{ weight: 1, arbitrary: schemaValues }];
  const pools = knowledge.pools(operation, param);
  if (pools.length > 0) choices.push({ weight: 6, arbitrary: fc.record({ pool: fc.constantFrom(...pools), index: fc.nat(1000) }) });
  const examples = knowledge.paramExamples(operation, param);
  if (examples.length > 0) choices.push({ weight: 4, arbitrary: fc.constantFrom(...examples).map((value) => ({ value })) });
  return fc.oneof(...choices);
}

/** A request the document allows (before the server's own rules: it may still be refused). */
export function validRequest(operation: Operation, root: SchemaRoot, knowledge: FuzzKnowledge): fc.Arbitrary<FuzzRequest> {
  const params = fc.tuple(
    ...operation.params.map((param) => {
      const value = paramArbitrary(operation, param, root, knowledge).map((v): ParamEntry[] => [{ name: param.name, in: param.in, value: v }]);
      return param.required ? value : fc.oneof(fc.constant([] as ParamEntry[]), value);
    }),
  ).map((lists) => lists.flat());
  const schemaBody = operation.body ? arbitraryOf(operation.body.schema, root) : fc.constant(undefined);
  const examples = knowledge.examples(operation);
  const exampleOrSchema = examples.length > 0 ? fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...examples) }, { weight: 1, arbitrary: schemaBody.map((body): Example => ({ body })) }) : schemaBody.map((body): Example => ({ body }));
  const bodyOptional = !operation.body?.required;
  return fc.record({ params, example: exampleOrSchema, withBody: bodyOptional ? fc.boolean() : fc.constant(true), contentType: fc.constantFrom(...JSON_TYPES) }).map(({ params, example, withBody, contentType }) => {
    const overridden = params.map((entry) => (example.params?.[entry.name] ? { ...entry, value: example.params[entry.name]! } : entry));
    for (const [name, value] of Object.entries(example.params ?? {})) {
      const param = operation.params.find((candidate) => candidate.name === name);
      if (param && !overridden.some((entry) => entry.name === name)) overridden.push({ name, in: param.in, value });
    }
    const body = operation.body && withBody && example.body !== undefined ? { text: JSON.stringify(example.body), encoding: 'utf-8' as const } : undefined;
    return { variant: 'valid', params: overridden, credential: 'valid' as const, body, contentType: body ? contentType : undefined };
  });
}

/** A placeholder where a mutation writes raw JSON text (deep nesting, a wide object): JSON.stringify writes it as `"\u0001FUZZ\u0001"`. */
const HOLE = '\u0001FUZZ\u0001';
const HOLE_TEXT = JSON.stringify(HOLE);

type JsonPath = (string | number)[];

/** Every place in a JSON value (the root first): where a mutation strikes. */
function locations(value: unknown, path: JsonPath = [], into: JsonPath[] = []): JsonPath[] {
  into.push(path);
  if (Array.isArray(value)) value.forEach((element, index) => locations(element, [...path, index], into));
  else if (value !== null && typeof value === 'object') for (const [key, field] of Object.entries(value)) locations(field, [...path, key], into);
  return into;
}

/** A copy of `value` with what is at `path` replaced (or, `remove`, deleted). */
function replaced(value: unknown, path: JsonPath, by: unknown, remove = false): unknown {
  if (path.length === 0) return by;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    if (remove && rest.length === 0) copy.splice(head as number, 1);
    else copy[head as number] = replaced(copy[head as number], rest, by, remove);
    return copy;
  }
  const copy = { ...(value as Record<string, unknown>) };
  if (remove && rest.length === 0) delete copy[head as string];
  else copy[head as string] = replaced(copy[head as string], rest, by, remove);
  return copy;
}

const at = (value: unknown, path: JsonPath): unknown => path.reduce<unknown>((node, key) => (node as Record<string | number, unknown> | undefined)?.[key], value);

const WRONG_TYPED = [null, true, false, 0, -1, 1.5, -0.000001, 1e308, 99999999999999999999, '', 'x', '1', [], [1], {}, { a: 1 }] as const;

/** Deeply nested JSON text: arrays or objects, `depth` levels. */
const nested = (kind: 'array' | 'object', depth: number) => (kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
const wide = (width: number) => `{${Array.from({ length: width }, (_, i) => `"k${i}":${i}`).join(',')}}`;

interface Mutation {
  what: string;
  apply(request: FuzzRequest, baseBody: unknown): FuzzRequest;
}

const withText = (request: FuzzRequest, what: string, text: string, encoding: FuzzBody['encoding'] = 'utf-8'): FuzzRequest => ({
  ...request,
  variant: what,
  body: { text, encoding },
  contentType: request.contentType ?? 'application/json',
});

/** A mutation at one place of the JSON body (the request's, or `{}` where it sends none). */
function bodyMutation(): fc.Arbitrary<Mutation> {
  const place = fc.nat();
  const pick = (body: unknown, index: number) => {
    const all = locations(body);
    return all[index % all.length]!;
  };
  const strike = (what: string, index: number, make: (body: unknown, path: JsonPath) => string): Mutation => ({
    what,
    apply: (request, body) => {
      const path = pick(body, index);
      return withText(request, `body: ${what} at ${path.length ? path.join('.') : '(root)'}`, make(body, path));
    },
  });
  const rawAt = (body: unknown, path: JsonPath, raw: string) => JSON.stringify(replaced(body, path, HOLE)).replace(HOLE_TEXT, () => raw);
  return fc.oneof(
    fc.tuple(place, fc.constantFrom(...WRONG_TYPED)).map(([index, by]) => strike(`wrong type (${JSON.stringify(by)})`, index, (body, path) => JSON.stringify(replaced(body, path, by)))),
    place.map((index) =>
      strike('missing field', index, (body, path) => {
        const target = path.length > 0 ? path : (locations(body)[1] ?? []);
        return target.length > 0 ? JSON.stringify(replaced(body, target, undefined, true)) : '{}';
      }),
    ),
    fc.tuple(place, fc.constantFrom('extra', '__proto__', 'constructor', 'amount', 'x'.repeat(300), '', '\u0000')).map(([index, key]) =>
      strike(`extra field ${JSON.stringify(key.slice(0, 20))}`, index, (body, path) => {
        const target = [...path];
        while (target.length > 0 && (typeof at(body, target) !== 'object' || at(body, target) === null || Array.isArray(at(body, target)))) target.pop();
        // Written as text: an own "__proto__" key survives JSON.parse, not an object literal.
        const object = at(body, target) as Record<string, unknown>;
        const members = [...Object.entries(object).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`), `${JSON.stringify(key)}:{"polluted":true}`];
        return rawAt(body, target, `{${members.join(',')}}`);
      }),
    ),
    fc.tuple(place, fc.constantFrom(5_000, 70_000, 300_000, 1_100_000), fc.constantFrom('a', 'é', '😀', '\u0000')).map(([index, length, char]) =>
      strike(`a string of ${length} ${JSON.stringify(char)}`, index, (body, path) => rawAt(body, path, JSON.stringify(char.repeat(Math.ceil(length / char.length))))),
    ),
    fc.tuple(place, fc.constantFrom(...ODD_STRINGS)).map(([index, odd]) => strike(`the string ${JSON.stringify(odd)}`, index, (body, path) => JSON.stringify(replaced(body, path, odd)))),
    fc.tuple(place, fc.constantFrom('array' as const, 'object' as const), fc.constantFrom(64, 1_000, 5_000, 10_000, 20_000)).map(([index, kind, depth]) =>
      strike(`${kind}s nested ${depth} deep`, index, (body, path) => rawAt(body, path, nested(kind, depth))),
    ),
    fc.tuple(place, fc.constantFrom(1_000, 30_000)).map(([index, width]) => strike(`an object of ${width} keys`, index, (body, path) => rawAt(body, path, wide(width)))),
  );
}

/** Bodies that are not JSON, or not the JSON a body is. */
const MALFORMED: readonly [string, (text: string) => string][] = [
  ['truncated', (text) => text.slice(0, Math.max(1, Math.floor(text.length / 2)))],
  ['trailing garbage', (text) => `${text}garbage`],
  ['two documents', (text) => `${text}${text}`],
  ['single quotes', (text) => text.replaceAll('"', "'")],
  ['a trailing comma', (text) => text.replace(/\}$/, ',}')],
  ['a comment', (text) => `/* x */${text}`],
  ['NaN', () => '{"amount":NaN}'],
  ['a lone bracket', () => '{'],
  ['whitespace only', () => ' \n\t '],
  ['null', () => 'null'],
  ['a number', () => '1'],
  ['a string', () => '"x"'],
  ['true', () => 'true'],
  ['an array', (text) => `[${text}]`],
  ['a NUL byte outside a string', (text) => `${text}\u0000`],
];

function malformedBody(): fc.Arbitrary<Mutation> {
  return fc.constantFrom(...MALFORMED).map(([what, make]) => ({
    what,
    apply: (request, body) => withText(request, `body: ${what}`, make(JSON.stringify(body ?? {}))),
  }));
}

/** Bytes that are not UTF-8 inside the JSON: a lone continuation byte, an overlong NUL, a surrogate's CESU-8 bytes, Latin-1. */
function notUtf8(): fc.Arbitrary<Mutation> {
  return fc.constantFrom(['a 0xFF byte', '\xff'], ['an overlong NUL (C0 80)', '\xc0\x80'], ['a surrogate as UTF-8 (ED A0 80)', '\xed\xa0\x80'], ['Latin-1 é (E9)', '\xe9']).map(([what, bytes]) => ({
    what,
    apply: (request, body) => {
      const text = Buffer.from(JSON.stringify(body ?? {}), 'utf8').toString('latin1');
      const quote = text.indexOf('":"');
      const spliced = quote >= 0 ? `${text.slice(0, quote + 3)}${bytes}${text.slice(quote + 3)}` : `{"x":"${bytes}"}`;
      return withText(request, `body: ${what}`, spliced, 'bytes');
    },
  }));
}

const OTHER_TYPES = [
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'application/merge-patch+json',
  'application/vnd.api+json',
  'application/xml',
  'application/jsonx',
  'application/json; charset=iso-8859-1',
  'application/json; charset=utf-8; charset=utf-16',
  '*/*',
  'json',
] as const;

function contentTypeMutation(): fc.Arbitrary<Mutation> {
  return fc.oneof(
    fc.constantFrom(...OTHER_TYPES, undefined).map((type) => ({
      what: `Content-Type ${type ?? '(none)'}`,
      apply: (request: FuzzRequest, body: unknown) => ({
        ...request,
        variant: `Content-Type ${type ?? '(none)'}`,
        body: request.body ?? { text: JSON.stringify(body ?? {}), encoding: 'utf-8' as const },
        contentType: type,
      }),
    })),
    fc.constant({
      what: 'UTF-16',
      apply: (request: FuzzRequest, body: unknown) => ({ ...request, variant: 'body: UTF-16 (charset=utf-16)', body: { text: request.body?.text ?? JSON.stringify(body ?? {}), encoding: 'utf-16le' as const }, contentType: 'application/json; charset=utf-16' }),
    }),
  );
}

/** Path ids a stranger tries: traversal, encodings that do not decode, NUL, the wrong kind of id, a very long one. */
const HOSTILE_SEGMENTS = ['..', '.', '%2e%2e', '%2F', '..%2F..%2Fopenapi.json', '%00', '%ff', '%', '%zz', '%ED%A0%80', '%F0%9F%98%80', '__proto__', 'constructor', '%20', 'null', '-1', '0', `cs_${'A'.repeat(22)}`, `cs_${'A'.repeat(21)}%00`, `we_${'b'.repeat(22)}`, `evt_${'c'.repeat(22)}`, `app_${'d'.repeat(22)}`, 'a'.repeat(10_000), `cs_${'x'.repeat(3000)}`] as const;

function pathMutation(operation: Operation): fc.Arbitrary<Mutation> {
  const pathParams = operation.params.filter((param) => param.in === 'path');
  const otherPools = ['session', 'webhook_endpoint', 'event', 'app', 'charge'];
  return fc.tuple(fc.constantFrom(...pathParams), fc.oneof(fc.constantFrom(...HOSTILE_SEGMENTS).map((raw): ParamValue => ({ raw })), fc.record({ pool: fc.constantFrom(...otherPools), index: fc.nat(1000) }))).map(([param, value]) => ({
    what: `path ${param.name}`,
    apply: (request) => ({
      ...request,
      variant: `path ${param.name}: ${'raw' in value ? value.raw.slice(0, 40) : `a ${(value as { pool: string }).pool} id`}`,
      params: [...request.params.filter((entry) => entry.name !== param.name), { name: param.name, in: 'path', value }],
    }),
  }));
}

function queryOrHeaderMutation(operation: Operation): fc.Arbitrary<Mutation> {
  const params = operation.params.filter((param) => param.in !== 'path');
  // At most 8,000 characters: past 16 KiB of headers (the URL included) Node answers 431 itself, before any route, a limit of the transport the document does not describe.
  const badValues = fc.oneof(
    fc.constantFrom('', ' ', '0', '-1', '101', '1e3', '9'.repeat(30), 'true', 'TRUE', 'null', 'x'.repeat(300), 'x'.repeat(8_000), 'cs_short', 'evt_short', 'é', '%00', '*', 'a,b', 'checkout/nope', 'icons(size', '__proto__', 'media', 'proto'),
    fc.string({ maxLength: 12 }),
  );
  const headerSafe = (value: string) => value.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
  return fc.tuple(fc.constantFrom(...params), fc.constantFrom('bad value' as const, 'given twice' as const, 'left out' as const, 'unknown beside it' as const), badValues).map(([param, how, bad]) => ({
    what: `${param.in} ${param.name}: ${how}`,
    apply: (request) => {
      const others = request.params.filter((entry) => entry.name !== param.name);
      const current = request.params.filter((entry) => entry.name === param.name);
      const value = param.in === 'header' ? headerSafe(bad) : bad;
      const variant = `${param.in} ${param.name}: ${how}${how === 'bad value' ? ` ${JSON.stringify(value.slice(0, 40))}${value.length > 40 ? `... (${value.length})` : ''}` : ''}`;
      switch (how) {
        case 'bad value':
          return { ...request, variant, params: [...others, { name: param.name, in: param.in, value: { value } }] };
        case 'given twice':
          return { ...request, variant, params: [...others, ...(current.length ? current : [{ name: param.name, in: param.in, value: { value: 'a' } }]), { name: param.name, in: param.in, value: { value } }] };
        case 'left out':
          return { ...request, variant, params: others };
        case 'unknown beside it':
          return { ...request, variant: `${param.in} fuzz_unknown beside ${param.name}`, params: [...request.params, { name: 'fuzz_unknown', in: param.in, value: { value: param.in === 'header' ? headerSafe(bad) || 'x' : bad } }] };
      }
    },
  }));
}

function credentialMutation(): fc.Arbitrary<Mutation> {
  return fc.constantFrom<Credential>('none', 'garbage', 'basic', 'empty', 'another').map((credential) => ({
    what: `credential ${credential}`,
    apply: (request) => ({ ...request, variant: `credential: ${credential}`, credential }),
  }));
}

/** A valid request with one thing broken (which may leave it valid: `requestViolations` judges). */
export function invalidRequest(operation: Operation, root: SchemaRoot, knowledge: FuzzKnowledge): fc.Arbitrary<FuzzRequest> {
  const mutations: fc.WeightedArbitrary<Mutation>[] = [
    { weight: 6, arbitrary: bodyMutation() },
    { weight: 2, arbitrary: malformedBody() },
    { weight: 1, arbitrary: notUtf8() },
    { weight: operation.body ? 3 : 1, arbitrary: contentTypeMutation() },
  ];
  if (operation.params.some((param) => param.in === 'path')) mutations.push({ weight: 3, arbitrary: pathMutation(operation) });
  if (operation.params.some((param) => param.in !== 'path')) mutations.push({ weight: 3, arbitrary: queryOrHeaderMutation(operation) });
  if (operation.schemes.length > 0) mutations.push({ weight: 2, arbitrary: credentialMutation() });
  return fc.tuple(validRequest(operation, root, knowledge), fc.oneof(...mutations)).map(([request, mutation]) => {
    let baseBody: unknown = {};
    try {
      baseBody = request.body ? (JSON.parse(request.body.text) as unknown) : {};
    } catch {
      baseBody = {};
    }
    return mutation.apply(request, baseBody);
  });
}

/** Valid requests and their invalid variants, a third and two thirds. */
export function requestArbitrary(operation: Operation, root: SchemaRoot, knowledge: FuzzKnowledge): fc.Arbitrary<FuzzRequest> {
  return fc.oneof({ weight: 1, arbitrary: validRequest(operation, root, knowledge) }, { weight: 2, arbitrary: invalidRequest(operation, root, knowledge) });
}

/** A request as it went on the wire, for the judge. */
export interface SentRequest {
  /** Each path parameter's value, percent-decoded; undefined when it does not decode. */
  pathValues: Record<string, string | undefined>;
  query: [string, string][];
  /** Lower-case names. */
  headers: Record<string, string>;
  /** Whether what was sent authorizes the call by one of its schemes (a valid credential in the header, or an `access_token` parameter carrying one). */
  authorized: boolean;
  body: Buffer | undefined;
}

/** The document's schemas compiled with Ajv: `format` as an annotation (JSON Schema 2020-12's default), lengths in UTF-16 units as the server counts them. */
export class RequestJudge {
  // `unicode: false` (deprecated in Ajv 8, still honoured): zod counts UTF-16 units, and so does the judge. Its warning is all the logger would say.
  private readonly ajv = new Ajv2020({ strict: false, validateFormats: false, unicode: false, validateSchema: false, allErrors: false, logger: false });
  private readonly compiled = new Map<string, ValidateFunction>();
  readonly root: SchemaRoot;

  constructor(document: unknown) {
    this.ajv.addSchema(document as object, 'document');
    this.root = schemaRoot(document);
  }

  private validator(operation: Operation, where: string[]): ValidateFunction {
    const key = `${operation.method} ${operation.template} ${where.join(' ')}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      const pointer = ['paths', operation.template, operation.method.toLowerCase(), ...where].map((part) => encodeURIComponent(part.replaceAll('~', '~0').replaceAll('/', '~1'))).join('/');
      validate = this.ajv.compile({ $ref: `document#/${pointer}` });
      this.compiled.set(key, validate);
    }
    return validate;
  }

  private problem(validate: ValidateFunction, value: unknown): string | undefined {
    if (validate(value)) return undefined;
    const error = validate.errors?.[0];
    return error ? `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}` : 'is invalid';
  }

  /** What makes the request one the document does not allow; empty when it allows it. */
  requestViolations(operation: Operation, sent: SentRequest, document: { paths?: Record<string, Record<string, unknown> | undefined> }): string[] {
    const violations: string[] = [];
    if (operation.schemes.length > 0 && !sent.authorized) violations.push(`no credential of ${operation.schemes.join(' or ')}`);
    const spec = document.paths?.[operation.template]?.[operation.method.toLowerCase()] as DocumentOperation;
    (spec.parameters ?? []).forEach((param, index) => {
      const values =
        param.in === 'path'
          ? [sent.pathValues[param.name]]
          : param.in === 'query'
            ? sent.query.filter(([name]) => name === param.name).map(([, value]) => value)
            : param.in === 'header' && sent.headers[param.name.toLowerCase()] !== undefined
              ? [sent.headers[param.name.toLowerCase()]]
              : [];
      if (param.in === 'path' && values[0] === undefined) violations.push(`path ${param.name} does not decode`);
      else if (values.length === 0) {
        if (param.required || param.in === 'path') violations.push(`${param.in} ${param.name} is required`);
      } else if (values.length > 1) violations.push(`${param.in} ${param.name} is given ${values.length} times`);
      else {
        const problem = this.problem(this.validator(operation, ['parameters', String(index), 'schema']), values[0]);
        if (problem) violations.push(`${param.in} ${param.name}: ${problem}`);
      }
    });
    const body = sent.body && sent.body.length > 0 ? sent.body : undefined;
    if (!operation.body) {
      if (body) violations.push('a body, where the operation takes none');
      return violations;
    }
    if (!body) {
      if (operation.body.required) violations.push('no body, where one is required');
      return violations;
    }
    const type = sent.headers['content-type'];
    if (!isJsonUtf8(type)) violations.push(`Content-Type ${type ?? '(none)'} is not UTF-8 application/json`);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(body);
    } catch {
      violations.push('the body is not UTF-8');
      return violations;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      violations.push('the body is not JSON');
      return violations;
    }
    const problem = this.problem(this.validator(operation, ['requestBody', 'content', 'application/json', 'schema']), value);
    if (problem) violations.push(`body ${problem}`);
    return violations;
  }
}

/** `application/json`, with no parameter but `charset=utf-8` (RFC 8259: JSON between systems is UTF-8). */
export function isJsonUtf8(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const [type, ...parameters] = contentType.split(';').map((part) => part.trim().toLowerCase());
  if (type !== 'application/json') return false;
  return parameters.every((parameter) => /^charset="?utf-8"?$/.test(parameter)) && parameters.length <= 1;
}
