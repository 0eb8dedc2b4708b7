/**
 * SQLite's counterpart of PostgreSQL's NOTIFY triggers (migration 0031): one
 * process owns the file, so the writes that make work (a delivery inserted or
 * made pending again, an attempt left pending) are seen as they are sent,
 * by a Kysely plugin on the store (or told by the synchronous transactions of
 * store/sync-statements.ts, which no plugin sees), and wake the workers in memory. A write
 * that is then rolled back only wakes a worker for nothing.
 */
import {
  ColumnNode,
  type Kysely,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  TableNode,
  type UnknownRow,
  ValueNode,
} from 'kysely';
import type { BackendDatabase } from './schema';
import type { WorkKind } from './work-notifications';

type Store = Kysely<BackendDatabase>;

const tableOf = (node: OperationNode | undefined): string | undefined => (node && TableNode.is(node) ? node.table.identifier.name : undefined);

function setsStatusPending(updates: readonly { column: OperationNode; value: OperationNode }[] | undefined): boolean {
  return (updates ?? []).some(({ column, value }) => ColumnNode.is(column) && column.column.name === 'status' && ValueNode.is(value) && value.value === 'pending');
}

/** The work a statement makes, if any. */
function workOf(node: RootOperationNode): WorkKind | undefined {
  if (node.kind === 'InsertQueryNode') return tableOf(node.into) === 'webhook_deliveries' ? 'webhooks' : undefined;
  if (node.kind !== 'UpdateQueryNode' || !setsStatusPending(node.updates)) return undefined;
  const table = tableOf(node.table);
  return table === 'webhook_deliveries' ? 'webhooks' : table === 'charge_attempts' ? 'reconcile' : undefined;
}

export class LocalWorkSignals implements KyselyPlugin {
  readonly #listeners = new Set<(kind: WorkKind) => void>();

  /** Calls `listener` after each statement that makes work; returns how to stop. */
  listen(listener: (kind: WorkKind) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Wakes the listeners of `kind` once the current turn ends, after the statement (or the synchronous
   * transaction, store/sync-statements.ts) that made the work: the woken worker's query then reads what it wrote.
   */
  signal(kind: WorkKind): void {
    if (this.#listeners.size > 0) setImmediate(() => this.#listeners.forEach((listener) => listener(kind)));
  }

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    const kind = this.#listeners.size > 0 ? workOf(node) : undefined;
    if (kind) this.signal(kind);
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

const signalsOfStores = new WeakMap<Store, LocalWorkSignals>();

/** The store with its signals (SQLite's openStore). */
export function withLocalWorkSignals(store: Store): Store {
  const signals = new LocalWorkSignals();
  const signalled = store.withPlugin(signals);
  signalsOfStores.set(signalled, signals);
  return signalled;
}

/** The in-memory signals of a SQLite store; undefined on PostgreSQL, whose work is notified (work-notifications.ts). */
export const localWorkSignals = (store: Store): LocalWorkSignals | undefined => signalsOfStores.get(store);
