/**
 * The built-ins the widget and the sandbox wallet call, as they were before the host page could
 * change them, and JSON written without asking the page's prototypes (docs/embedding.md, "The
 * page's built-ins"). Both run in the merchant's page, whose scripts share every built-in with them:
 * Prototype.js 1.6 (old Magento and osCommerce stores) puts a `toJSON` on Array, String, Number and
 * Date, which the browser's JSON.stringify calls, so that `[1]` is sent as the string `"[1]"`; other
 * pages wrap or replace `fetch`, `JSON`, `CustomEvent` or `Promise`, before or after our scripts.
 *
 * - **Taken once per page**, by the first of our scripts to run (the first script, the sandbox
 *   wallet, a chunk, another copy of the bundle), and kept in one window property that every later
 *   one reads: a chunk that arrives after the page replaced `fetch` still calls the one the first
 *   script found. Each is taken by the first copy that knows it, so copies of two versions on one
 *   page complete each other's.
 * - **`toJson` reads no `toJSON`**: capturing JSON.stringify is not enough, since it asks each object
 *   for a `toJSON` at call time, and Prototype defines them before our script runs. It walks our own
 *   plain data itself and hands JSON.stringify primitives only, of which it asks nothing.
 * - **Responses are read with `response.json()`**, which parses with the engine's own JSON, not the
 *   page's global.
 * What a page replaced before our first script ran is what is taken: a script in the page's realm has
 * no other copy. What Prototype replaces that early is either not read (its `toJSON`s), not called
 * (its Array.from, bind, entries, reduce) or answers as the browser's does for our calls (its
 * Object.keys and array methods); element.remove(), which it makes throw on an element with no parent,
 * is `detach` here. Iframe mode runs the payment in a realm of its own.
 */

interface Builtins {
  fetch: typeof fetch;
  CustomEvent: typeof CustomEvent;
  Promise: PromiseConstructor;
  parse: (text: string) => unknown;
  stringify: (value: unknown) => string | undefined;
  hasOwn: (object: object, key: PropertyKey) => boolean;
  isArray: (value: unknown) => value is readonly unknown[];
  subtle: SubtleCrypto | undefined;
}

/** The window property every copy of our scripts shares (its name is part of what copies agree on). */
const SHARED = '__walletCheckoutBuiltins';
const page = globalThis as unknown as { [SHARED]?: Partial<Builtins>; fetch: typeof fetch; CustomEvent: typeof CustomEvent; Promise: PromiseConstructor };
// No prototype, so nothing the page adds to Object.prototype is read as one of ours.
const taken = (page[SHARED] ??= { __proto__: null } as unknown as Partial<Builtins>);

/** `fetch`, called as a plain function (the browser's needs no `this`). */
export const builtinFetch = (taken.fetch ??= page.fetch);
export const BuiltinCustomEvent = (taken.CustomEvent ??= page.CustomEvent);
export const BuiltinPromise = (taken.Promise ??= page.Promise);
/** JSON.parse, for text that is not a response's body (a tag's attribute). */
export const parseJson = (taken.parse ??= JSON.parse);
const stringify = (taken.stringify ??= JSON.stringify);
/** Object.hasOwn and Array.isArray, for what reads data off the page (iframe mode's messages on the merchant's page). */
export const hasOwn = (taken.hasOwn ??= Object.hasOwn);
export const isArray = (taken.isArray ??= Array.isArray);
/** WebCrypto's digests (the widget's view key, web/checkout/api.ts); undefined outside a secure context, where the browser has none. */
export const builtinSubtle = (taken.subtle ??= (globalThis.crypto as Crypto | undefined)?.subtle);

/**
 * Takes `node` out of its parent, if it has one. Not `node.remove()`: Prototype.js replaces it on
 * every HTML element with one that throws on an element with no parent, which an element of ours is
 * once the page has emptied the one it gave us.
 */
export const detach = (node: Node): void => void node.parentNode?.removeChild(node);

/**
 * `JSON.stringify(value)`, byte for byte, for our own plain data: objects, arrays, strings, finite
 * numbers, booleans, null; `undefined` and functions left out (or `null` in an array) as it leaves
 * them. No `toJSON` is read, inherited or own, so not for Dates. Arrays by index and objects by their
 * own enumerable keys, in JSON.stringify's order (for-in lists own keys first, in that order), with no
 * method of the page's Array or Object; strings and numbers by JSON.stringify itself, which reads a
 * `toJSON` of objects only (ECMA-262, SerializeJSONProperty).
 */
export function toJson(value: object): string;
export function toJson(value: unknown): string | undefined;
export function toJson(value: unknown): string | undefined {
  // A function is an object, whose toJSON JSON.stringify would read: left out here, as it leaves one out without.
  if (typeof value === 'function') return undefined;
  if (typeof value !== 'object' || value === null) return stringify(value);
  let json = '';
  if (isArray(value)) {
    for (let i = 0; i < value.length; i++) json += (i ? ',' : '') + (toJson(value[i]) ?? 'null');
    return `[${json}]`;
  }
  for (const key in value) {
    const member = hasOwn(value, key) ? toJson((value as Record<string, unknown>)[key]) : undefined;
    if (member !== undefined) json += `${json ? ',' : ''}${stringify(key)}:${member}`;
  }
  return `{${json}}`;
}
