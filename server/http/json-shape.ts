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
}

/** Far above any body the API takes (its deepest, a PaymentDataRequest in the sandbox wallet's, nests 7). */
export const JSON_SHAPE_LIMITS: JsonShapeLimits = { depth: 32, keysPerObject: 256, keys: 4096, stringBytes: 16_384 };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;

/**
 * The first limit `body` goes over, as a message naming the limit (never any of
 * the body's text); undefined when it keeps to all of them.
 */
export function jsonShapeProblem(body: Uint8Array, limits: JsonShapeLimits = JSON_SHAPE_LIMITS): string | undefined {
  // Whether each open container is an object, and its keys so far: depth is bounded, so are these.
  const isObject = new Uint8Array(limits.depth + 1);
  const keysOf = new Uint32Array(limits.depth + 1);
  let depth = 0;
  let keys = 0;
  let stringStart = -1;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i]!;
    if (stringStart >= 0) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) {
        if (i - stringStart - 1 > limits.stringBytes) return `a string in the body is longer than ${limits.stringBytes} bytes`;
        stringStart = -1;
      }
      continue;
    }
    switch (byte) {
      case QUOTE:
        stringStart = i;
        break;
      case OPEN_OBJECT:
      case OPEN_ARRAY:
        if (++depth > limits.depth) return `the body nests deeper than ${limits.depth} levels`;
        isObject[depth] = byte === OPEN_OBJECT ? 1 : 0;
        keysOf[depth] = 0;
        break;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        // Unbalanced: not JSON, which JSON.parse will say.
        if (depth > 0) depth--;
        break;
      case COLON:
        // Outside a string, a colon follows a key: one more key of the object it is in.
        if (depth > 0 && isObject[depth] === 1) {
          if (++keysOf[depth]! > limits.keysPerObject) return `an object in the body has more than ${limits.keysPerObject} keys`;
          if (++keys > limits.keys) return `the body has more than ${limits.keys} keys in all`;
        }
        break;
    }
  }
  // An unterminated string: not JSON either, but its length is still bounded.
  if (stringStart >= 0 && body.length - stringStart - 1 > limits.stringBytes) return `a string in the body is longer than ${limits.stringBytes} bytes`;
  return undefined;
}
