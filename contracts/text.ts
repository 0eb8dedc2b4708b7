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

/** What any unstorable text contains: one search, cheap on the text nearly all requests carry. */
const SUSPECT = /[\u0000\uD800-\uDFFF]/;

export const isStorableText = (text: string): boolean => !SUSPECT.test(text) || !UNSTORABLE.test(text);

/**
 * The path (keys and indexes) of the first string, or object key, in a JSON value that is not
 * storable text; undefined when all are. A loop over an explicit stack of the containers it is
 * in, never a recursion: a value nested thousands deep (a query, a parsed token, a body the
 * edge would refuse) cannot overflow the call stack. Depth first, in the value's own order, so
 * that the first fault found is the first one in the text.
 */
export function unstorableTextPath(value: unknown): (string | number)[] | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : [];
  if (typeof value !== 'object' || value === null) return undefined;
  interface Frame {
    container: Record<string, unknown> | unknown[];
    /** An object's keys; undefined for an array. */
    keys: string[] | undefined;
    /** The next child's position. */
    next: number;
  }
  const frameOf = (container: object): Frame => ({ container: container as Frame['container'], keys: Array.isArray(container) ? undefined : Object.keys(container), next: 0 });
  const stack: Frame[] = [frameOf(value)];
  // The path to the child each frame is at.
  const pathTo = (): (string | number)[] => stack.map((frame) => (frame.keys ? frame.keys[frame.next - 1]! : frame.next - 1));
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const { container, keys } = frame;
    const size = keys ? keys.length : (container as unknown[]).length;
    if (frame.next >= size) {
      stack.pop();
      continue;
    }
    const position = frame.next++;
    let child: unknown;
    if (keys) {
      const key = keys[position]!;
      // The key itself is named by its position only: it is the unstorable text.
      if (!isStorableText(key)) return [...pathTo().slice(0, -1), '(a key)'];
      child = (container as Record<string, unknown>)[key];
    } else {
      child = (container as unknown[])[position];
    }
    if (typeof child === 'string') {
      if (!isStorableText(child)) return pathTo();
    } else if (typeof child === 'object' && child !== null) {
      stack.push(frameOf(child));
    }
  }
  return undefined;
}
