/**
 * Text we can store and hand back: PostgreSQL's text cannot hold NUL (the
 * driver's error was a 500 before authentication), and an unpaired UTF-16
 * surrogate has no UTF-8 encoding, so it would come back changed. Every JSON
 * body and every path id is checked with this one rule at the edge. Plain
 * code, no zod: the widget's bundle may import it.
 */

/** A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSTORABLE_TEXT_MESSAGE = 'text must not contain NUL characters or unpaired surrogates';

export const isStorableText = (text: string): boolean => !UNSTORABLE.test(text);

/** The path (keys and indexes) of the first string, or object key, in a JSON value that is not storable text; undefined when all are. */
export function unstorableTextPath(value: unknown, path: (string | number)[] = []): (string | number)[] | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : path;
  if (Array.isArray(value)) {
    for (const [index, element] of value.entries()) {
      const found = unstorableTextPath(element, [...path, index]);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, field] of Object.entries(value)) {
    // The key itself is named by its position only: it is the unstorable text.
    if (!isStorableText(key)) return [...path, '(a key)'];
    const found = unstorableTextPath(field, [...path, key]);
    if (found) return found;
  }
  return undefined;
}
