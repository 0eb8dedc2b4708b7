/**
 * The shape a JSON body may have, checked on its raw bytes in one linear pass
 * before JSON.parse and before anything walks the parsed value: how deep it
 * nests, how many keys an object has and the body has in all, how long a
 * string is. A body of any shape then costs one scan of its bytes (a
 * `[[[[...` ten thousand deep used to overflow the stack of a recursive walk
 * and kill the process, before authentication). docs/api.md, "Bodies".
 *
 * Bytes, not characters: every byte that means something to JSON's structure
 * is ASCII, and no byte of a multi-byte UTF-8 sequence is, so the scan needs no
 * decoding. A text that is not JSON is not judged here: JSON.parse refuses it
 * after (the scan only makes sure that refusing it, or parsing it, is cheap).
 */

export interface JsonShapeLimits {
  /** Nesting: `{}` and `[]` inside one another, the outermost counting 1. */
  depth: number;
  /** Keys of any one object. */
  keysPerObject: number;
  /** Keys of all the objects of the body. */
  keys: number;
  /** Bytes of any one string (a key or a value) as sent, its escapes included. */
  stringBytes: number;
  /** Values in arrays and objects, all of them: array elements and object members. */
  values: number;
}

/** Far above any body the API takes (its deepest, a PaymentDataRequest in the sandbox wallet's, nests 7). */
export const JSON_SHAPE_LIMITS: JsonShapeLimits = { depth: 32, keysPerObject: 256, keys: 4096, stringBytes: 16_384, values: 16_384 };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;
const SPACE = 0x20;
const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * The first limit `body` goes over, as a message naming the limit (never any of
 * the body's text); undefined when it keeps to all of them. Outside strings,
 * byte by byte; a string is crossed in one native search for its closing quote
 * (a quote is the string's end unless an odd run of backslashes escapes it).
 */
export function jsonShapeProblem(body: Uint8Array, limits: JsonShapeLimits = JSON_SHAPE_LIMITS): string | undefined {
  const { depth: maxDepth, keysPerObject, keys: maxKeys, stringBytes, values: maxValues } = limits;
  // Whether each open container is an object, and its keys so far: depth is bounded, so are these.
  const isObject = new Uint8Array(maxDepth + 1);
  const keysOf = new Uint32Array(maxDepth + 1);
  const bytes = body instanceof Buffer ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const length = bytes.length;
  let depth = 0;
  let keys = 0;
  let values = 0;
  // Just after `[` or `{`: the next byte that is not blank is the first value, unless it closes the container.
  let opened = false;
  const tooManyValues = `the body has more than ${maxValues} values in all (array elements and object members)`;
  for (let i = 0; i < length; i++) {
    const byte = bytes[i]!;
    if (opened && byte !== SPACE && byte !== LINE_FEED && byte !== CARRIAGE_RETURN && byte !== TAB) {
      opened = false;
      if (byte !== CLOSE_OBJECT && byte !== CLOSE_ARRAY && ++values > maxValues) return tooManyValues;
    }
    if (byte === QUOTE) {
      const start = i;
      let end = bytes.indexOf(QUOTE, i + 1);
      while (end !== -1 && escaped(bytes, end, start)) end = bytes.indexOf(QUOTE, end + 1);
      // Unterminated: not JSON (JSON.parse will say), but as long a string all the same.
      const stop = end === -1 ? length : end;
      if (stop - start - 1 > stringBytes) return `a string in the body is longer than ${stringBytes} bytes`;
      i = stop;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (++depth > maxDepth) return `the body nests deeper than ${maxDepth} levels`;
      isObject[depth] = byte === OPEN_OBJECT ? 1 : 0;
      keysOf[depth] = 0;
      opened = true;
    } else if (byte === COMMA) {
      // Outside a string, a comma comes before one more value.
      if (depth > 0 && ++values > maxValues) return tooManyValues;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      // Unbalanced: not JSON, which JSON.parse will say.
      if (depth > 0) depth--;
    } else if (byte === COLON && depth > 0 && isObject[depth] === 1) {
      // Outside a string, a colon follows a key: one more key of the object it is in.
      if (++keysOf[depth]! > keysPerObject) return `an object in the body has more than ${keysPerObject} keys`;
      if (++keys > maxKeys) return `the body has more than ${maxKeys} keys in all`;
    }
  }
  return undefined;
}

/** Whether the quote at `at` is escaped: an odd run of backslashes before it, inside the string opened at `start`. */
function escaped(bytes: Uint8Array, at: number, start: number): boolean {
  let backslashes = 0;
  for (let i = at - 1; i > start && bytes[i] === BACKSLASH; i--) backslashes++;
  return backslashes % 2 === 1;
}
