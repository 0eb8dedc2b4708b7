/**
 * What a host page does to the built-ins' JSON, for the unit tests of the browser code (the widget,
 * the sandbox wallet): Prototype.js 1.6's way, a `toJSON` on the Array, String, Number and Date
 * prototypes that returns a string of JSON (so the browser's JSON.stringify quotes arrays), and its
 * `Object.toJSON` that they call; with `objectPrototype`, what Prototype never did but a page may: a
 * `toJSON` and an enumerable property on Object.prototype. Written for these tests, not taken from
 * Prototype; e2e/support/prototype-1.6.js is the fuller reproduction the browser tests load.
 *
 * `withPagePrototypes` patches, runs `run`, and puts every property back as it was before it
 * returns (or throws), so nothing of the patches outlives the call, least of all the test runner's
 * own code.
 */
type Patch = [target: object, name: string, value: unknown];

function toJsonLikePrototype(value: unknown): string | undefined {
  if (value === undefined || typeof value === 'function') return undefined;
  if (typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  const own = (value as { toJSON?: () => string }).toJSON;
  if (typeof own === 'function') return own.call(value);
  const members: string[] = [];
  for (const key in value as object) {
    const json = toJsonLikePrototype((value as Record<string, unknown>)[key]);
    if (json !== undefined) members.push(`"${key}": ${json}`);
  }
  return `{${members.join(', ')}}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

function patches(objectPrototype: boolean): Patch[] {
  const list: Patch[] = [
    [Object, 'toJSON', toJsonLikePrototype],
    [
      Array.prototype,
      'toJSON',
      function (this: unknown[]) {
        const members: string[] = [];
        for (const item of this) {
          const json = toJsonLikePrototype(item);
          if (json !== undefined) members.push(json);
        }
        return `[${members.join(', ')}]`;
      },
    ],
    [
      String.prototype,
      'toJSON',
      function (this: string) {
        return `"${String(this).replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\x00-\x1f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
      },
    ],
    [
      Number.prototype,
      'toJSON',
      function (this: number) {
        return Number.isFinite(Number(this)) ? String(this) : 'null';
      },
    ],
    [
      Date.prototype,
      'toJSON',
      function (this: Date) {
        return `"${this.getUTCFullYear()}-${pad(this.getUTCMonth() + 1)}-${pad(this.getUTCDate())}T${pad(this.getUTCHours())}:${pad(this.getUTCMinutes())}:${pad(this.getUTCSeconds())}Z"`;
      },
    ],
  ];
  if (objectPrototype) {
    list.push(
      [Object.prototype, 'toJSON', () => "the page's"],
      [Object.prototype, 'pageAddition', 'from the page'],
    );
  }
  return list;
}

export function withPagePrototypes<T>(run: () => T, options: { objectPrototype?: boolean } = {}): T {
  const applied: { target: object; name: string; before: PropertyDescriptor | undefined }[] = [];
  try {
    for (const [target, name, value] of patches(options.objectPrototype ?? false)) {
      applied.push({ target, name, before: Object.getOwnPropertyDescriptor(target, name) });
      // Assigned, as the page's scripts do: enumerable, so that for-in sees it too.
      (target as Record<string, unknown>)[name] = value;
    }
    return run();
  } finally {
    for (const { target, name, before } of applied.reverse()) {
      if (before) Object.defineProperty(target, name, before);
      else delete (target as Record<string, unknown>)[name];
    }
  }
}
