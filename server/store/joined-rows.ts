/**
 * Rows of a statement that joins several tables, so that one round trip brings what several reads
 * would: the joined tables' columns are selected as `prefix:column` (no column name has a colon),
 * which keeps them apart from the main table's and from each other's.
 */

/** The columns of `row` selected with `prefix`, under their own names. */
export function prefixedColumns(row: Record<string, unknown>, prefix: string): Record<string, unknown> {
  // A loop over the keys, not Object.entries: a pair array per column made this a hot spot of every pay (docs/benchmarks.md).
  const start = `${prefix}:`;
  const columns: Record<string, unknown> = {};
  for (const name of Object.keys(row)) if (name.startsWith(start)) columns[name.slice(start.length)] = row[name];
  return columns;
}

/** The columns of `row` selected without a prefix: the main table's. */
export function unprefixedColumns(row: Record<string, unknown>): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  for (const name of Object.keys(row)) if (!name.includes(':')) columns[name] = row[name];
  return columns;
}
