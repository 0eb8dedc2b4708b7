/**
 * SQLite's WAL checkpoints off the request path. With the default
 * `wal_autocheckpoint` (1000 pages) the commit that crosses the threshold
 * copies the WAL into the database file and fsyncs it, on the main thread:
 * 9 to 45 ms of a blocked event loop about 45 times per 1,000 pays
 * (docs/benchmarks.md). Here the request connection never checkpoints by
 * itself; a second connection in a worker thread runs PASSIVE checkpoints
 * (which never block a writer or a reader), asked for every
 * COMMITS_PER_CHECKPOINT commits. Durability is unchanged: with
 * synchronous=FULL a commit is durable once its frames are fsynced into the
 * WAL; a checkpoint only moves them into the database file later.
 *
 * The two threads share a few integers (SharedArrayBuffer): the main thread
 * adds a request and wakes the worker (Atomics.notify), the worker sleeps in
 * Atomics.wait between requests, so an idle instance runs nothing, not even a
 * timer, and the main thread handles no message events.
 */
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/**
 * Each checkpoint writes every page changed since the last one once, and
 * fsyncs the database file: the pages a stream of pays changes again and again
 * (the tails of the indexes ordered by time) are written once per checkpoint,
 * not once per commit. A pay writes about 33 pages in its two commits, so some
 * 2,100 pages per checkpoint. The worker's CPU per pay in the pay bench (its
 * thread's perf samples, when each pay also counted the empty commit of its
 * first read, since gone): 232 µs every 16 commits, 92 every 64, 47 every 128
 * (docs/benchmarks.md).
 */
export const COMMITS_PER_CHECKPOINT = 128;
/**
 * About four times what the worker is asked to checkpoint at a pay's pages per
 * commit, eight times SQLite's default: a WAL past it means the worker has fallen
 * behind (stalled, or its checkpoints never complete between the writes), and
 * the request connection checkpoints itself, as SQLite's own would have. It is
 * also the connection's `journal_size_limit`: when the WAL restarts, its file
 * is cut back to it, so the file's size past it is the WAL's own.
 */
export const WAL_LIMIT_PAGES = 8000;
/**
 * Passes a checkpoint may take to copy the frames committed while it ran: under a steady stream of
 * commits one pass of some 2,000 pages never finds the WAL still, the WAL never restarts, and it
 * grows to WAL_LIMIT_PAGES, where the request connection checkpoints on the loop. Each pass after
 * the first copies only what landed during the one before, and ends with an fsync of the database
 * file while more commits land: at 1,200 commits a second (scripts/bench/checkpoint-stream.ts) the
 * worker needed about 5 passes on average, and with at most 4 the request connection checkpointed
 * 1 to 4 times in 10 s, 7 to 36 ms each on the loop; with 16, not once in five runs.
 */
const PASSES_TO_COMPLETE = 16;
/** SQLite's own threshold, restored when the worker is gone. */
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;
/** How long closing waits for the worker to close its connection (its checkpoint under way finishes first). */
const CLOSE_WAIT_MS = 2_000;

/** Slots of the shared Int32Array. */
const REQUESTED = 0;
const STATE = 1;
const CHECKPOINTS = 2;
const FAILURES = 3;
const SLOTS = 4;

/** The worker's life: it opens its connection only if it gets from STARTING to RUNNING before a close. */
const STARTING = 0;
const RUNNING = 1;
const STOPPING = 2;
const CLOSED = 3;

/**
 * The worker, as plain CommonJS for `eval`: the server is bundled
 * (scripts/build-server.ts) and run through tsx in development, so a worker
 * file of its own would need a build entry and a loader; this needs neither.
 */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const state = new Int32Array(workerData.state);
const [REQUESTED, STATE, CHECKPOINTS, FAILURES] = [${REQUESTED}, ${STATE}, ${CHECKPOINTS}, ${FAILURES}];
try {
  if (Atomics.compareExchange(state, STATE, ${STARTING}, ${RUNNING}) === ${STARTING}) {
    const db = new Database(workerData.file, { fileMustExist: true });
    try {
      let seen = 0;
      for (;;) {
        Atomics.wait(state, REQUESTED, seen);
        if (Atomics.load(state, STATE) !== ${RUNNING}) break;
        seen = Atomics.load(state, REQUESTED);
        try {
          // A WAL restarts (its next write starts again at its first frame) only if every frame was copied when that write
          // begins. A pass copies the frames there were when it began (its \`log\`): the commits that land during it are
          // copied by another, each shorter than the last, until a pass finds no frame more than the one before.
          let frames = -1;
          for (let pass = 0; pass < ${PASSES_TO_COMPLETE}; pass++) {
            const [result] = db.pragma('wal_checkpoint(PASSIVE)');
            if (result.busy !== 0 || result.log === frames) break;
            frames = result.log;
            Atomics.add(state, CHECKPOINTS, 1);
          }
        } catch {
          // A full disk or an I/O error: the frames stay in the WAL, the next request tries again.
          Atomics.add(state, FAILURES, 1);
        }
      }
    } finally {
      db.close();
    }
  }
} finally {
  Atomics.store(state, STATE, ${CLOSED});
  Atomics.notify(state, STATE);
}
`;

export interface CheckpointCounts {
  /** Checkpoints the worker ran. */
  byWorker: number;
  /** Checkpoints the request connection ran because the worker had fallen behind or was gone. */
  byConnection: number;
  /** Checkpoints that failed in the worker (a full disk): their frames stayed in the WAL. */
  failed: number;
}

interface Checkpointer {
  state: Int32Array;
  worker: Worker;
  byConnection: number;
  /** The worker exited before the connection closed: SQLite's own automatic checkpoint is back. */
  gone: boolean;
}

const checkpointers = new WeakMap<Database.Database, Checkpointer>();

/** How the connection's checkpoints went; undefined for a connection without a worker (in memory, read-only). */
export function checkpointCounts(sqlite: Database.Database): CheckpointCounts | undefined {
  const checkpointer = checkpointers.get(sqlite);
  return checkpointer && { byWorker: Atomics.load(checkpointer.state, CHECKPOINTS), byConnection: checkpointer.byConnection, failed: Atomics.load(checkpointer.state, FAILURES) };
}

/** The worker, for a test that stops it. */
export const checkpointWorker = (sqlite: Database.Database): Worker | undefined => checkpointers.get(sqlite)?.worker;

type StatementMethod = (this: Database.Statement, ...args: unknown[]) => unknown;
interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

/**
 * Moves `sqlite`'s checkpoints to a worker. A connection in memory or
 * read-only has no WAL of its own to checkpoint and gets none. The worker is
 * unref'd, so a process that never closes the store (a CLI, a test) still
 * exits; closing the connection stops it first, so that the request
 * connection is the last one open and SQLite's own close runs the final
 * checkpoint and removes the WAL.
 */
export function checkpointInWorker(sqlite: Database.Database): void {
  if (sqlite.memory || sqlite.readonly) return;
  const state = new Int32Array(new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT));
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file: sqlite.name, state: state.buffer } });
  worker.unref();
  const checkpointer: Checkpointer = { state, worker, byConnection: 0, gone: false };
  checkpointers.set(sqlite, checkpointer);
  const walLimitBytes = WAL_LIMIT_PAGES * (sqlite.pragma('page_size', { simple: true }) as number);
  sqlite.pragma('wal_autocheckpoint = 0');
  sqlite.pragma(`journal_size_limit = ${walLimitBytes}`);

  worker.on('error', () => undefined);
  worker.on('exit', () => {
    if (!sqlite.open || Atomics.load(state, STATE) === STOPPING) return;
    checkpointer.gone = true;
    sqlite.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
    warnOnce('the checkpoint worker stopped: SQLite checkpoints in the commits again');
  });

  const { prepare, close } = sqlite;
  // Prepared apart from the counting below: it is no commit.
  const checkpointHere = prepare.call(sqlite, 'PRAGMA wal_checkpoint(PASSIVE)') as Database.Statement<[], CheckpointResult>;
  const wal = `${sqlite.name}-wal`;
  let commits = 0;
  const committed = () => {
    if (checkpointer.gone || ++commits % COMMITS_PER_CHECKPOINT !== 0) return;
    if ((statSync(wal, { throwIfNoEntry: false })?.size ?? 0) <= walLimitBytes) {
      Atomics.add(state, REQUESTED, 1);
      Atomics.notify(state, REQUESTED);
      return;
    }
    // Between two commits nothing else writes, so this one completes (unless the worker's is still under way: then the next try), and the next write restarts the WAL.
    const result = checkpointHere.get();
    if (!result || result.busy !== 0) return;
    checkpointer.byConnection++;
    warnOnce(`the checkpoint worker fell behind (WAL of ${result.log} pages): the request connection checkpointed`);
  };

  // A commit is a statement after which no transaction is open: COMMIT, or a write outside a transaction. The store keeps its statements, so each writer is wrapped once.
  // Kysely and the pay bench's floor run every statement through prepare(); better-sqlite3's own transaction() and exec() do not, and the store uses neither.
  sqlite.prepare = function preparedCounted(this: Database.Database, ...args: Parameters<typeof prepare>) {
    const statement = prepare.apply(this, args);
    if (!statement.reader || !statement.readonly) {
      for (const method of ['run', 'all', 'get'] as const) {
        // Looked up on each call, not kept: the pay bench's probe times the prototype's methods.
        const counted: StatementMethod = function counted(...callArgs) {
          const result = (Object.getPrototypeOf(this) as Record<typeof method, StatementMethod>)[method].apply(this, callArgs);
          if (!sqlite.inTransaction) committed();
          return result;
        };
        // Configurable: the store's statement cache wraps them again (database.ts, withFastRows).
        Object.defineProperty(statement, method, { value: counted, configurable: true });
      }
    }
    return statement;
  } as typeof prepare;
  sqlite.close = function closedWithWorker(this: Database.Database) {
    stopWorker(state);
    return close.call(this);
  };
}

/** Asks the worker to close its connection and waits (bounded) until it has. */
function stopWorker(state: Int32Array): void {
  if (Atomics.compareExchange(state, STATE, STARTING, CLOSED) === STARTING) return;
  if (Atomics.compareExchange(state, STATE, RUNNING, STOPPING) !== RUNNING) return;
  Atomics.add(state, REQUESTED, 1);
  Atomics.notify(state, REQUESTED);
  for (const deadline = Date.now() + CLOSE_WAIT_MS; Atomics.load(state, STATE) !== CLOSED && Date.now() < deadline; ) {
    Atomics.wait(state, STATE, STOPPING, deadline - Date.now());
  }
}

let warned = false;
/** Once per process: a store that checkpoints on the request path says so, without flooding the log. */
function warnOnce(message: string): void {
  if (warned) return;
  warned = true;
  process.emitWarning(message, { code: 'WALLET_CHECKOUT_SQLITE_CHECKPOINT' });
}
