/**
 * fast-check arbitraries of the values a JSON Schema (2020-12, as the OpenAPI 3.1 document holds
 * them) accepts: the contract fuzz's valid requests. The subset the document uses: `$ref` into the
 * document, `const`, `enum`, `oneOf`/`anyOf`/`allOf`, `type` (one or a list), strings with
 * `minLength`/`maxLength`/`pattern`/`format`, numbers and integers with their bounds, arrays with
 * `items`/`minItems`/`maxItems`, objects with `properties`/`required`. No extra properties are
 * added to objects (the invalid variants do that, requests.ts). Values are what a schema allows,
 * not what the server accepts: a currency of random letters is valid by the document and refused
 * by the server (a 4xx, which the fuzz allows).
 */
import fc from 'fast-check';

export type JsonSchema = { [keyword: string]: unknown } | boolean;

/** The document the schemas' `$ref`s point into (`#/components/schemas/...`). */
export interface SchemaRoot {
  resolve(ref: string): JsonSchema;
}

export function schemaRoot(document: unknown): SchemaRoot {
  return {
    resolve(ref) {
      if (!ref.startsWith('#/')) throw new Error(`only references into the document are followed, not ${ref}`);
      let node: unknown = document;
      for (const part of ref.slice(2).split('/')) {
        const key = decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~');
        node = (node as Record<string, unknown> | undefined)?.[key];
      }
      if (node === undefined) throw new Error(`${ref} is not in the document`);
      return node as JsonSchema;
    },
  };
}

/** Strings of every kind a client may send: ASCII, any Unicode (astral, combining), and the odd ones. */
export const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  '\ud83d',
  '\u202eevil',
  '\ufeff',
  '\r\n',
  '😀',
  'ﬀ',
  'é',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  '../../etc/passwd',
  '%00',
  '%2F',
  '${7*7}',
  '__proto__',
  'constructor',
  'null',
  '-1',
  '1e309',
] as const;

const anyString = (minLength: number, maxLength: number): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength, maxLength }) },
    { weight: 2, arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme' }) },
    { weight: 1, arbitrary: fc.string({ minLength, maxLength, unit: 'binary' }) },
    { weight: 1, arbitrary: fc.constantFrom(...ODD_STRINGS).filter((s) => s.length >= minLength && s.length <= maxLength) },
  );

/** Generated strings are kept short; the invalid variants send the long ones. */
const MAX_GENERATED_LENGTH = 40;

/** Values for the `format`s the document uses, as a client would send them (an annotation in 2020-12, not an assertion). */
const formats: Record<string, fc.Arbitrary<string>> = {
  // Loopback only: a URL the fuzz registers may one day be posted to (the fuzz's server never delivers, see target.ts).
  uri: fc.tuple(fc.constantFrom('http://127.0.0.1:9', 'https://127.0.0.1:9', 'http://[::1]:9', 'http://localhost:9'), fc.stringMatching(/^(\/[a-z0-9_-]{0,12}){0,3}$/)).map(([origin, path]) => `${origin}${path}`),
  'date-time': fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString()),
  email: fc.emailAddress(),
};

function stringArbitrary(schema: Record<string, unknown>): fc.Arbitrary<string> {
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : Number.MAX_SAFE_INTEGER;
  const fits = (s: string) => s.length >= minLength && s.length <= maxLength;
  if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
  const format = typeof schema.format === 'string' ? formats[schema.format] : undefined;
  if (format) return format.filter(fits);
  return anyString(minLength, Math.max(minLength, Math.min(maxLength, MAX_GENERATED_LENGTH)));
}

function numberArbitrary(schema: Record<string, unknown>, integer: boolean): fc.Arbitrary<number> {
  const bound = (keyword: string) => (typeof schema[keyword] === 'number' ? (schema[keyword] as number) : undefined);
  let min = bound('minimum') ?? -Number.MAX_SAFE_INTEGER;
  let max = bound('maximum') ?? Number.MAX_SAFE_INTEGER;
  const exclusiveMin = bound('exclusiveMinimum');
  const exclusiveMax = bound('exclusiveMaximum');
  if (integer) {
    if (exclusiveMin !== undefined) min = Math.max(min, Math.floor(exclusiveMin) + 1);
    if (exclusiveMax !== undefined) max = Math.min(max, Math.ceil(exclusiveMax) - 1);
    min = Math.max(Math.ceil(min), -Number.MAX_SAFE_INTEGER);
    max = Math.min(Math.floor(max), Number.MAX_SAFE_INTEGER);
    // Small values are the ones a server takes (an amount of 2400, a limit of 10): most of them are small.
    const small = fc.integer({ min: Math.max(min, -1000), max: Math.min(max, 100_000) });
    return min <= max && Math.max(min, -1000) <= Math.min(max, 100_000) ? fc.oneof({ weight: 3, arbitrary: small }, { weight: 1, arbitrary: fc.integer({ min, max }) }) : fc.integer({ min, max });
  }
  return fc.double({ min, max, minExcluded: false, maxExcluded: false, noNaN: true, noDefaultInfinity: true }).filter((n) => (exclusiveMin === undefined || n > exclusiveMin) && (exclusiveMax === undefined || n < exclusiveMax));
}

/** Nesting deeper than this stops adding optional fields (recursive schemas end). */
const MAX_DEPTH = 8;

export function arbitraryOf(schema: JsonSchema, root: SchemaRoot, depth = 0): fc.Arbitrary<unknown> {
  if (schema === true) return fc.jsonValue({ maxDepth: 2 });
  if (schema === false) throw new Error('no value is valid against the schema `false`');
  if (typeof schema.$ref === 'string') return arbitraryOf(merge(root.resolve(schema.$ref), schema), root, depth);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches)) {
      const { [keyword]: _branches, ...rest } = schema;
      return fc.oneof(...branches.map((branch) => arbitraryOf(merge(branch as JsonSchema, rest), root, depth)));
    }
  }
  if (Array.isArray(schema.allOf)) {
    const { allOf, ...rest } = schema;
    return arbitraryOf((allOf as JsonSchema[]).reduce<JsonSchema>((all, part) => merge(part, all), rest), root, depth);
  }
  const type = schema.type;
  if (Array.isArray(type)) return fc.oneof(...type.map((one) => arbitraryOf({ ...schema, type: one }, root, depth)));
  switch (type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const maxLength = Math.max(minLength, Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : 4, 4));
      return fc.array(arbitraryOf((schema.items as JsonSchema | undefined) ?? true, root, depth + 1), { minLength, maxLength });
    }
    case 'object':
      return objectArbitrary(schema, root, depth);
    default:
      if (schema.properties) return objectArbitrary(schema, root, depth);
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectArbitrary(schema: Record<string, unknown>, root: SchemaRoot, depth: number): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const names = Object.keys(properties).filter((name) => required.has(name) || depth < MAX_DEPTH);
  const model = Object.fromEntries(names.map((name) => [name, arbitraryOf(properties[name]!, root, depth + 1)]));
  return fc.record(model, { requiredKeys: names.filter((name) => required.has(name)) });
}

/** A referenced schema with the keywords beside its `$ref` (2020-12 applies both). */
function merge(base: JsonSchema, extra: JsonSchema): JsonSchema {
  if (typeof base === 'boolean' || typeof extra === 'boolean') return base;
  const { $ref: _ref, description: _description, ...keywords } = extra;
  return { ...base, ...keywords };
}
