/**
 * Rows of a statement that joins several tables, so that one round trip brings what several reads
 * would: the joined tables' columns are selected as `prefix:column` (no column name has a colon),
 * which keeps them apart from the main table's and from each other's.
 */

/** The columns of `row` selected with `prefix`, under their own names. */
export const prefixedColumns = (row: Record<string, unknown>, prefix: string): Record<string, unknown> => copierOf(row, `${prefix}:`)(row);

/** The columns of `row` selected without a prefix: the main table's. */
export const unprefixedColumns = (row: Record<string, unknown>): Record<string, unknown> => copierOf(row, '')(row);

type Copy = (row: Record<string, unknown>) => Record<string, unknown>;

/**
 * Copies made for the rows of one list of column names: each builds its object as one literal, its
 * columns read by constant names. A loop over the keys, setting each column by a name it computed,
 * took some 8 µs for a row of 76 columns against 0.4 (docs/benchmarks.md, "Our code, function by function").
 */
interface Copier {
  names: readonly string[];
  copy: Copy;
}

/** By prefix ('' for the main table's columns), the copiers of the statements seen: a few each. */
const copiers = new Map<string, Copier[]>();
/** More lists of names than this under one prefix are copied by a loop, not compiled: no sequence of statements grows the cache. */
const MAX_COPIERS = 16;

function copierOf(row: Record<string, unknown>, prefix: string): Copy {
  const names = Object.keys(row);
  const known = copiers.get(prefix) ?? [];
  const found = known.find((copier) => sameNames(copier.names, names));
  if (found) return found.copy;
  const columns = copiedColumns(names, prefix);
  if (known.length >= MAX_COPIERS) return (source) => Object.fromEntries(columns.map(([to, from]) => [to, source[from]]));
  const copy = new Function('row', `return {${columns.map(([to, from]) => `${JSON.stringify(to)}: row[${JSON.stringify(from)}]`).join(', ')}};`) as Copy;
  copiers.set(prefix, [...known, { names, copy }]);
  return copy;
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The columns a copy takes from rows of `names`, as [its name in the copy, its name in the row]: those with
 * `prefix`, or with the prefix '' those with none. The names are SQLite's or PostgreSQL's, quoted by JSON.stringify.
 */
function copiedColumns(names: readonly string[], prefix: string): [to: string, from: string][] {
  const columns: [string, string][] = [];
  for (const name of names) {
    const taken = prefix === '' ? !name.includes(':') : name.startsWith(prefix);
    if (!taken) continue;
    const to = name.slice(prefix.length);
    // In an object literal this name would set the prototype instead of a property.
    if (to === '__proto__') throw new Error(`a column named ${JSON.stringify(name)} cannot be copied`);
    columns.push([to, name]);
  }
  return columns;
}
