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

/**
 * The path (keys and indexes) of the first string, or object key, in a JSON value that is not
 * storable text; undefined when all are. A loop over an explicit stack, never a recursion: a
 * value nested thousands deep (a body the edge would refuse, a query, a parsed token) cannot
 * overflow the call stack. Depth first, in the value's own order, so that the first fault found
 * is the first one in the text.
 */
export function unstorableTextPath(value: unknown): (string | number)[] | undefined {
  interface Step {
    value: unknown;
    key: string | number | undefined;
    parent: Step | undefined;
    /** The key is an object's (text to check), not an array's index. */
    named?: boolean;
  }
  const pathOf = (step: Step | undefined, last?: string): (string | number)[] => {
    const path: (string | number)[] = last === undefined ? [] : [last];
    for (let at = step; at?.key !== undefined; at = at.parent) path.push(at.key);
    return path.reverse();
  };
  const stack: Step[] = [{ value, key: undefined, parent: undefined }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    // The key itself is named by its position only: it is the unstorable text.
    if (step.named && !isStorableText(step.key as string)) return pathOf(step.parent, '(a key)');
    const current = step.value;
    if (typeof current === 'string') {
      if (!isStorableText(current)) return pathOf(step);
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) stack.push({ value: current[index], key: index, parent: step });
      continue;
    }
    const keys = Object.keys(current);
    for (let index = keys.length - 1; index >= 0; index--) stack.push({ value: (current as Record<string, unknown>)[keys[index]!], key: keys[index]!, parent: step, named: true });
  }
  return undefined;
}
