/**
 * Statements built and compiled by Kysely once per store and shape of their input instead of once
 * per call: the hot statements of a payment (docs/benchmarks.md, "Compiled once" and "Synchronous
 * transactions on SQLite"). A statement is built with a marker in the place of each value of its
 * input; each run fills the markers' places in the compiled parameters with its own values.
 * `compiledOnce` runs it through the store's executor, so its plugins see every run and its
 * transaction, connection and error reporting are the caller's, as for any other statement; SQLite's
 * synchronous transactions run the same compiled text through better-sqlite3 (sync-statements.ts).
 *
 * A shape is what decides the text: the input's keys (a move's changed columns), the lengths of its
 * arrays (an `IN` list), which of its values are null, undefined or a boolean (a builder may choose a
 * clause by them: `IS NULL`, a column left out), and which SQL expressions it carries. Every other
 * value (a string, a number) is a marker, so a builder may use those as values only, never to pick a
 * clause or name a column. A marker is opaque to the plugins: a value they read (a status set to
 * `pending`, store/local-work-signals.ts) is seen only by a statement built per call.
 */
import { type Compilable, createQueryId, type DialectAdapter, isOperationNodeSource, type Kysely, type OperationNodeSource, type RootOperationNode } from 'kysely';

/** Where the value at one place of a run's input goes in the compiled parameters. */
class Marker {
  constructor(readonly leaf: number) {}
}

/** Past this many shapes of one statement on one store (a runaway of null patterns), a shape is compiled at each run, not kept. */
const MAX_SHAPES = 64;

export interface CompiledShape {
  /** The statement before the store's plugins. */
  node: RootOperationNode;
  sql: string;
  /** The compiled parameters, a marker where a run's value goes. */
  parameters: readonly unknown[];
}

const expressionIds = new WeakMap<object, number>();
let lastExpressionId = 0;
function expressionId(expression: object): number {
  let id = expressionIds.get(expression);
  if (id === undefined) expressionIds.set(expression, (id = ++lastExpressionId));
  return id;
}

const isPlainObject = (value: object): value is Record<string, unknown> => Object.getPrototypeOf(value) === Object.prototype;

/**
 * One walk of a run's input: its shape, and its values appended to `leaves` in walk order. It builds
 * nothing but the key: a run whose shape is known (all but the first few) needs no more.
 */
function shapeOfInput(value: unknown, leaves: unknown[]): string {
  if (value === null || value === undefined || typeof value === 'boolean') return String(value);
  if (typeof value === 'object') {
    if (Array.isArray(value)) {
      let shape = `[${value.length}`;
      for (const item of value) shape += `\0${shapeOfInput(item, leaves)}`;
      return shape;
    }
    if (isOperationNodeSource(value)) return `x${expressionId(value)}`;
    if (isPlainObject(value)) {
      let shape = '{';
      for (const key of Object.keys(value)) shape += `\0.${key}\0${shapeOfInput(value[key], leaves)}`;
      return `${shape}\0}`;
    }
  }
  leaves.push(value);
  return '?';
}

/** The input as a new shape's builder sees it: a marker in the place of each value, numbered in shapeOfInput's order from `markers.next`. */
function marked(value: unknown, markers: { next: number }): unknown {
  if (value === null || value === undefined || typeof value === 'boolean') return value;
  if (typeof value === 'object') {
    if (Array.isArray(value)) return value.map((item) => marked(item, markers));
    if (isOperationNodeSource(value)) return value;
    if (isPlainObject(value)) return Object.fromEntries(Object.keys(value).map((key) => [key, marked(value[key], markers)]));
  }
  return new Marker(markers.next++);
}

/** `parameters` as compiled, each marker replaced by its value among a run's `leaves`. */
export const filled = (parameters: readonly unknown[], leaves: readonly unknown[]): unknown[] =>
  parameters.map((parameter) => (parameter instanceof Marker ? leaves[parameter.leaf] : parameter));

/** A statement's builder: Kysely's, on the store it is given, from a run's input. */
export type StatementBuilder<DB, Input, Row> = (db: Kysely<DB>, input: Input) => Compilable<Row> & OperationNodeSource;

/**
 * `build`'s statements, compiled on the first run of each shape on each store (`extra` keeps what a
 * runner adds to a shape: SQLite's prepared statement): a run's shape and its values, for `filled`.
 */
export function shapesOf<DB, Input, Row, Extra>(build: StatementBuilder<DB, Input, Row>, extra: (db: Kysely<DB>, compiled: CompiledShape) => Extra) {
  // Keyed by the store's adapter, shared by its copies with plugins and its transactions: each store compiles for its own engine.
  const shapesOfStores = new WeakMap<DialectAdapter, Map<string, CompiledShape & Extra>>();
  return (db: Kysely<DB>, input: Input): { shape: CompiledShape & Extra; leaves: unknown[] } => {
    const leaves: unknown[] = [];
    const key = shapeOfInput(input, leaves);
    const executor = db.getExecutor();
    let shapes = shapesOfStores.get(executor.adapter);
    if (!shapes) shapesOfStores.set(executor.adapter, (shapes = new Map()));
    let shape = shapes.get(key);
    if (!shape) {
      const node = build(db.withoutPlugins(), marked(input, { next: 0 }) as Input).toOperationNode() as RootOperationNode;
      const compiled = { node, ...executor.compileQuery(node, createQueryId()) };
      shape = { ...compiled, ...extra(db, compiled) };
      if (shapes.size < MAX_SHAPES) shapes.set(key, shape);
    }
    return { shape, leaves };
  };
}

/** `build`'s statement run through Kysely (on either engine), compiled once per store and shape: its rows. */
export function compiledOnce<DB, Input, Row>(build: StatementBuilder<DB, Input, Row>) {
  const shapeOf = shapesOf(build, () => ({}));
  return async (db: Kysely<DB>, input: Input): Promise<Row[]> => {
    const { shape, leaves } = shapeOf(db, input);
    const executor = db.getExecutor();
    const queryId = createQueryId();
    const node = executor.transformQuery(shape.node, queryId);
    // A plugin that rewrites the statement (none of the store's does) gets it compiled as rewritten, its markers filled alike.
    const { sql, parameters } = node === shape.node ? shape : executor.compileQuery(node, queryId);
    const { rows } = await db.executeQuery<Row>({ query: node, queryId, sql, parameters: filled(parameters, leaves) });
    return rows;
  };
}
