/**
 * Statements whose text does not depend on their data, built and compiled by Kysely once per store
 * instead of once per call: the hot statements of a payment (docs/benchmarks.md, "Compiled once").
 * A statement is built with a marker in the place of each value; each run fills the markers' places
 * in the compiled parameters with its own values. The statement still runs through the store's
 * executor, so its plugins see every run (SQLite's work signals, store/local-work-signals.ts) and
 * its transaction, connection and error reporting are the caller's, as for any other statement.
 *
 * Only for statements whose text is the same whatever the values: no value decides a clause, a
 * column list or the length of an `IN` list (those would be compiled with the first call's shape).
 * A marker is opaque to the plugins: a value they read (a status set to `pending`) stays a literal.
 */
import { type Compilable, createQueryId, type DialectAdapter, type Kysely, type OperationNodeSource, type RootOperationNode } from 'kysely';

/** Where one of a run's values goes. */
class Marker {
  constructor(readonly name: string) {}
}

interface Compiled {
  /** The statement before the store's plugins: each run passes it through them. */
  node: RootOperationNode;
  sql: string;
  parameters: readonly unknown[];
}

/** Each run's values, one marker for each in `build`. */
type Values = Record<string, unknown>;

/**
 * A statement compiled on its first run on each store engine (`build` gets a marker for each of the
 * run's values, typed as the value), then run with each call's values: its rows.
 */
export function compiledOnce<DB, V extends Values, Row>(build: (db: Kysely<DB>, values: V) => Compilable<Row> & OperationNodeSource) {
  // Keyed by the store's adapter, shared by its transactions: each store compiles for its own engine.
  const compiled = new WeakMap<DialectAdapter, Compiled>();
  const markers = new Proxy({} as V, { get: (_, name) => new Marker(String(name)) });
  return async (db: Kysely<DB>, values: V): Promise<Row[]> => {
    const executor = db.getExecutor();
    let statement = compiled.get(executor.adapter);
    if (!statement) {
      const node = build(db.withoutPlugins(), markers).toOperationNode() as RootOperationNode;
      statement = { node, ...executor.compileQuery(node, createQueryId()) };
      compiled.set(executor.adapter, statement);
    }
    const queryId = createQueryId();
    const node = executor.transformQuery(statement.node, queryId);
    // A plugin that rewrites the statement (none of the store's does) gets it compiled as rewritten.
    const { sql, parameters } = node === statement.node ? statement : executor.compileQuery(node, queryId);
    const filled = parameters.map((parameter) => (parameter instanceof Marker ? values[parameter.name] : parameter));
    const { rows } = await db.executeQuery<Row>({ query: node, queryId, sql, parameters: filled });
    return rows;
  };
}
