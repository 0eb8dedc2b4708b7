/**
 * Partial responses, in the syntax of Google's `fields` parameter:
 *   a,b        several fields          a/b      a sub-field
 *   a(b,c)     sub-fields of a         *        every field at that level
 * A selection inside an array applies to each element. Names are checked
 * against the resource's schema, so a misspelt field is a 400, not a silent {}.
 */
import { z } from 'zod';
import { type Result, err, ok } from '../../common/result';
import type { LookupFailure } from './google-errors';

/** Each selected field: true for all of it, or a selection within it. */
export type Selection = Map<string, Selection | true>;

/** The fields of an object schema, looking through arrays and optionals; undefined for a leaf. */
function fieldsOf(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return fieldsOf(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodArray) return fieldsOf(schema.element as z.ZodType);
  if (schema instanceof z.ZodObject) return schema.shape as Record<string, z.ZodType>;
  return undefined;
}

function merge(into: Selection, name: string, selected: Selection | true): void {
  const existing = into.get(name);
  if (existing === undefined || selected === true) into.set(name, selected);
  else if (existing !== true) for (const [child, sub] of selected) merge(existing, child, sub);
}

/** Recursive descent over `expression`; each step returns what is wrong, or undefined. */
function parser(expression: string) {
  let at = 0;
  const name = (): string | undefined => {
    const match = /^(\*|[A-Za-z_][A-Za-z0-9_]*)/.exec(expression.slice(at));
    at += match?.[0].length ?? 0;
    return match?.[0];
  };

  function field(into: Selection, schema: z.ZodType, parent: string): string | undefined {
    const fields = fieldsOf(schema);
    if (!fields) return `${parent} has no sub-fields`;
    const key = name();
    if (key === undefined) return `expected a field name at position ${at + 1}`;
    if (key === '*') {
      for (const each of Object.keys(fields)) merge(into, each, true);
      return undefined;
    }
    // Own fields only: `constructor` or `__proto__` are found on every object, and are not the resource's.
    const child = Object.hasOwn(fields, key) ? fields[key] : undefined;
    if (!child) return `${key} is not a field`;
    const nested: Selection = new Map();
    if (expression[at] === '/') {
      at += 1;
      const problem = field(nested, child, key);
      if (problem) return problem;
    } else if (expression[at] === '(') {
      at += 1;
      const problem = list(nested, child, key) ?? (expression[at] === ')' ? undefined : `expected ")" at position ${at + 1}`);
      if (problem) return problem;
      at += 1;
    }
    merge(into, key, nested.size > 0 ? nested : true);
    return undefined;
  }

  function list(into: Selection, schema: z.ZodType, parent: string): string | undefined {
    let problem = field(into, schema, parent);
    while (!problem && expression[at] === ',') {
      at += 1;
      problem = field(into, schema, parent);
    }
    return problem;
  }

  return (schema: z.ZodType): Result<Selection, string> => {
    const selection: Selection = new Map();
    const problem = list(selection, schema, '') ?? (at === expression.length ? undefined : `unexpected "${expression[at]}" at position ${at + 1}`);
    return problem ? err(problem) : ok(selection);
  };
}

export function parseFields(expression: string, schema: z.ZodType): Result<Selection, LookupFailure> {
  const parsed = parser(expression)(schema);
  return parsed.ok ? parsed : err({ code: 'invalid_parameter', message: `Invalid field selection: ${parsed.error}`, location: { name: 'fields', type: 'parameter' } });
}

/** The selected part of a value that matches the schema the selection was parsed against. */
export function applySelection(value: unknown, selection: Selection): unknown {
  if (Array.isArray(value)) return value.map((element) => applySelection(element, selection));
  if (typeof value !== 'object' || value === null) return value;
  const picked: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const selected = selection.get(key);
    if (selected !== undefined) picked[key] = selected === true ? field : applySelection(field, selected);
  }
  return picked;
}
