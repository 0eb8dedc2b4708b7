/**
 * The apps API document's eight scopes. `storage` is its stand-in for the product's
 * name (Drive's scopes, `drive` → `storage`); names are kept as the document writes them.
 */
const scopeNames = [
  'docs',
  'storage',
  'storage.appdata',
  'storage.apps.readonly',
  'storage.file',
  'storage.metadata',
  'storage.metadata.readonly',
  'storage.readonly',
] as const;

/**
 * The scopes that reach every file of a user, or every file's metadata: the
 * ones Google classes as restricted for Drive. Per-file and app-data access
 * (`storage.file`, `storage.appdata`) and `storage.apps.readonly` are not.
 */
const restrictedNames: ReadonlySet<string> = new Set(['docs', 'storage', 'storage.readonly', 'storage.metadata', 'storage.metadata.readonly']);

/** A scope name under `{scope_base}`; a full scope (with a scheme) is kept as given. */
export const scopeUrl = (scopeBase: string, name: string): string => (name.includes('://') ? name : `${scopeBase}/${name}`);

export interface ScopePolicy {
  /** All eight, as full scope strings: a token needs at least one. */
  accepted: readonly string[];
  /** The accepted scopes a client may use without a security assessment. */
  unrestricted: readonly string[];
  isRestricted(scope: string): boolean;
}

export function scopePolicy(scopeBase: string): ScopePolicy {
  const full = (names: readonly string[]) => names.map((name) => scopeUrl(scopeBase, name));
  const restricted = new Set(full([...restrictedNames]));
  return {
    accepted: full(scopeNames),
    unrestricted: full(scopeNames.filter((name) => !restrictedNames.has(name))),
    isRestricted: (scope) => restricted.has(scope),
  };
}
