/**
 * Rows of a statement that joins several tables, so that one round trip brings what several reads
 * would: the joined tables' columns are selected as `prefix:column` (no column name has a colon),
 * which keeps them apart from the main table's and from each other's.
 */

/** The columns of `row` selected with `prefix`, under their own names. */
export function prefixedColumns(row: Record<string, unknown>, prefix: string): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row)) if (name.startsWith(`${prefix}:`)) columns[name.slice(prefix.length + 1)] = value;
  return columns;
}

/** The columns of `row` selected without a prefix: the main table's. */
export function unprefixedColumns(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).filter(([name]) => !name.includes(':')));
}
