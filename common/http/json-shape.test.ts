/**
 * The shape scan (json-shape.ts) against the shape of the parsed value: for any JSON text,
 * the scan of its bytes finds the same depth, keys, values and string lengths as a walk of
 * what JSON.parse makes of it, so that a limit set at a body's own measure lets it through and
 * one below refuses it, naming that limit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type JsonShapeLimits, jsonShapeProblem } from './json-shape';

/** The measures of a parsed value, as the limits count them: strings by their bytes as JSON.stringify sends them. */
function measure(value: unknown): JsonShapeLimits {
  const measures = { depth: 0, keysPerObject: 0, keys: 0, stringBytes: 0, values: 0 };
  const stringBytes = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node === 'string') measures.stringBytes = Math.max(measures.stringBytes, stringBytes(node));
    if (typeof node !== 'object' || node === null) continue;
    measures.depth = Math.max(measures.depth, depth + 1);
    const children = Array.isArray(node) ? node : Object.values(node);
    measures.values += children.length;
    if (!Array.isArray(node)) {
      const keys = Object.keys(node);
      measures.keysPerObject = Math.max(measures.keysPerObject, keys.length);
      measures.keys += keys.length;
      for (const key of keys) measures.stringBytes = Math.max(measures.stringBytes, stringBytes(key));
    }
    for (const child of children) stack.push([child, depth + 1]);
  }
  return measures;
}

const bytesOf = (text: string) => Buffer.from(text);
/** JSON values whose keys are unique (JSON.parse keeps one of a repeated key; the scan counts each), unicode and escapes included. */
const values = fc.jsonValue({ maxDepth: 6 });

describe('the shape scan', () => {
  it('lets a body through at its own measures, and names each limit it goes one over', () => {
    fc.assert(
      fc.property(values, fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        const own = measure(JSON.parse(text));
        expect(jsonShapeProblem(bytesOf(text), own)).toBeUndefined();
        if (own.depth > 0) expect(jsonShapeProblem(bytesOf(text), { ...own, depth: own.depth - 1 })).toMatch(/nests deeper/);
        if (own.keysPerObject > 0) expect(jsonShapeProblem(bytesOf(text), { ...own, keysPerObject: own.keysPerObject - 1 })).toMatch(/an object in the body has more than/);
        if (own.keys > 0) expect(jsonShapeProblem(bytesOf(text), { ...own, keysPerObject: own.keys, keys: own.keys - 1 })).toMatch(/keys in all/);
        if (own.values > 0) expect(jsonShapeProblem(bytesOf(text), { ...own, values: own.values - 1 })).toMatch(/values in all/);
        if (own.stringBytes > 0) expect(jsonShapeProblem(bytesOf(text), { ...own, stringBytes: own.stringBytes - 1 })).toMatch(/longer than/);
      }),
      { numRuns: 500 },
    );
  });

  it('reads brackets, colons, commas and escaped quotes inside strings as text', () => {
    const text = '{"a[{":"]},:\\"[[[","b\\\\":"\\\\\\"{{{"}';
    expect(measure(JSON.parse(text))).toMatchObject({ depth: 1, keys: 2, values: 2 });
    expect(jsonShapeProblem(bytesOf(text), { depth: 1, keysPerObject: 2, keys: 2, stringBytes: 16, values: 2 })).toBeUndefined();
  });

  it('bounds text that is not JSON too: an unterminated string, unbalanced brackets', () => {
    const limits = { depth: 2, keysPerObject: 2, keys: 2, stringBytes: 4, values: 4 };
    expect(jsonShapeProblem(bytesOf('{"a":"xxxxx'), limits)).toMatch(/longer than 4 bytes/);
    expect(jsonShapeProblem(bytesOf(']]]]{[[}'), limits)).toMatch(/nests deeper than 2/);
    expect(jsonShapeProblem(bytesOf('"\\'), limits)).toBeUndefined();
  });
});
