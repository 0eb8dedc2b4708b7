/**
 * The pay benchmark's probe of where a request's time goes inside a server under
 * test (figure 3's 200/s phase; tail.ts is its bench side). It is not part of
 * any server: the bench builds it to plain JavaScript and preloads it with
 * `node --import` into our backend, the two baselines and the stand-in
 * service, with BENCH_TAIL_PROBE_DIR set; without that variable it does
 * nothing. It records timings only, never a body, a header's value but the
 * bench's own sequence number, or a URL.
 *
 * SIGUSR2 opens a window (`<pid>-<n>-open` written in the directory) and,
 * sent again, closes it. Outside a window the probe is switched off (no
 * subscriber, no observer, no async context tracking, whose promise hook
 * would cost every promise), so the closed-loop rounds' CPU figures are the
 * servers' own. On closing, `<pid>-<n>.json` holds, for the
 * window, the event loop's delay (`monitorEventLoopDelay`), every collector
 * pause (PerformanceObserver 'gc'), every SQLite commit's time on the loop
 * (better-sqlite3 is synchronous: a commit's fsync, and a checkpoint that
 * follows it, block the loop), which of them checkpointed and any checkpoint
 * the request connection ran itself, and per request: its arrival (headers parsed),
 * the start and end of its call to the payment service (undici's diagnostics
 * channels; the end is the reply's body received), the reply's end (`res.end`,
 * the bytes handed to the socket), and its SQLite time before and after the call. Times are ms on
 * CLOCK_MONOTONIC, which the bench's own clock (process.hrtime) shares.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { renameSync, statSync, writeFileSync } from 'node:fs';
import { ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { type ProbedRequest, type ProbeWindow, SEQUENCE_HEADER } from './tail-window';

/** How often the event loop's delay is sampled. */
const DELAY_RESOLUTION_MS = 10;

const dir = process.env.BENCH_TAIL_PROBE_DIR;
if (dir) install(dir);

interface Statement {
  source: string;
  reader: boolean;
  database: { inTransaction: boolean; name: string };
}
type StatementMethod = (this: Statement, ...args: unknown[]) => unknown;
type StatementMethods = Record<'run' | 'get' | 'all', StatementMethod>;

function install(outDir: string): void {
  // performance.now() and process.hrtime read the same clock: one offset turns the first into the second.
  const monotonicAtZero = Number(process.hrtime.bigint()) / 1e6 - performance.now();
  const now = () => performance.now() + monotonicAtZero;
  const current = new AsyncLocalStorage<ProbedRequest>();
  const byResponse = new WeakMap<object, ProbedRequest>();
  const byServiceCall = new WeakMap<object, ProbedRequest>();
  const delay = monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS });
  let windowIndex = 0;
  let window: ProbeWindow | undefined;

  const channels: Record<string, (message: unknown) => void> = {
    'http.server.request.start'(message) {
      const { request, response } = message as { request: { headers: Record<string, string | string[] | undefined> }; response: object };
      const seq = Number(request.headers[SEQUENCE_HEADER]);
      const record: ProbedRequest = { arrivedMs: now(), sqliteBeforeMs: 0, sqliteAfterMs: 0, ...(Number.isInteger(seq) && { seq }) };
      byResponse.set(response, record);
      // Published just before the server emits 'request': the handler, and the service call it makes, run in this context.
      current.enterWith(record);
    },
    'undici:request:create'(message) {
      const record = current.getStore();
      if (!record || record.serviceStartMs !== undefined) return;
      record.serviceStartMs = now();
      byServiceCall.set((message as { request: object }).request, record);
    },
    'undici:request:trailers'(message) {
      const record = byServiceCall.get((message as { request: object }).request);
      if (record) record.serviceEndMs = now();
    },
  };
  const collector = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window?.gc.push([entry.startTime + monotonicAtZero, entry.duration, (entry as PerformanceEntry & { detail: { kind: number } }).detail.kind]);
  });
  // In WAL mode only a checkpoint writes the database file: a commit during which its mtime moved ran one. Read
  // before and after each commit, not since the last one: a checkpoint worker (common/store/checkpointer.ts)
  // writes the file between commits, off the loop.
  // And only if the connection checkpoints in its commits at all (`wal_autocheckpoint` not 0): otherwise the write
  // during the commit was the worker's. Read only then, on a statement of the probe's own, untimed.
  const databaseWritten = (file: string): bigint | undefined => (file === ':memory:' || file === '' ? undefined : statSync(file, { bigint: true }).mtimeNs);
  const autocheckpointStatements = new WeakMap<object, object>();
  const checkpointsInCommits = (database: Statement['database']): boolean => {
    let statement = autocheckpointStatements.get(database);
    if (!statement) {
      statement = (Object.getPrototypeOf(database) as { prepare(this: object, sql: string): object }).prepare.call(database, 'PRAGMA wal_autocheckpoint');
      autocheckpointStatements.set(database, statement);
    }
    return (untimed.get.call(statement as Statement) as { wal_autocheckpoint: number }).wal_autocheckpoint !== 0;
  };
  // A write outside a transaction commits on its own; a BEGIN (also a write outside one, to better-sqlite3) or a ROLLBACK commits nothing.
  const endsTransaction = /^\s*(commit|end)\b/i;
  const opensOrUndoes = /^\s*(begin|rollback|savepoint)\b/i;
  // The request connection's own checkpoint when the worker falls behind: a statement of its own, on the loop.
  const checkpointStatement = /^\s*pragma\s+wal_checkpoint/i;
  const statements = sqliteStatements();
  const untimed: StatementMethods = { run: statements.run, get: statements.get, all: statements.all };
  const timed = (original: StatementMethod): StatementMethod =>
    function timedStatement(this: Statement, ...args: unknown[]) {
      const committing = window !== undefined && (endsTransaction.test(this.source) || (!this.reader && !this.database.inTransaction && !opensOrUndoes.test(this.source)));
      const writtenBefore = committing ? databaseWritten(this.database.name) : undefined;
      const start = now();
      try {
        return original.apply(this, args);
      } finally {
        const ms = now() - start;
        const record = current.getStore();
        // Work a request left behind (a worker it woke) is not the request's.
        if (record && record.finishedMs === undefined) {
          if (record.serviceStartMs === undefined) record.sqliteBeforeMs += ms;
          else record.sqliteAfterMs += ms;
        }
        if (window && committing) {
          window.commitsMs.push(ms);
          if (writtenBefore !== undefined && databaseWritten(this.database.name) !== writtenBefore && checkpointsInCommits(this.database)) window.checkpointsMs.push(ms);
        }
        if (window && checkpointStatement.test(this.source)) window.checkpointsMs.push(ms);
      }
    };

  // The reply's end, when the handler hands it to the socket: the 'finish' event (and its channel) waits for the write's callback, a turn of a busy loop later.
  const { end } = ServerResponse.prototype;
  const endTimed = function endTimed(this: ServerResponse, ...args: unknown[]) {
    const record = byResponse.get(this);
    if (record && record.finishedMs === undefined) {
      record.finishedMs = now();
      window?.requests.push(record);
    }
    return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as typeof end;

  const open = (): string => {
    window = { pid: process.pid, openedMs: now(), closedMs: 0, eventLoopDelayMs: { p50: 0, p99: 0, max: 0, mean: 0 }, gc: [], commitsMs: [], checkpointsMs: [], requests: [] };
    for (const [name, listener] of Object.entries(channels)) subscribe(name, listener);
    collector.observe({ entryTypes: ['gc'] });
    ServerResponse.prototype.end = endTimed;
    for (const method of ['run', 'get', 'all'] as const) statements[method] = timed(untimed[method]);
    delay.reset();
    delay.enable();
    return '';
  };
  const close = (closing: ProbeWindow): string => {
    window = undefined;
    delay.disable();
    Object.assign(statements, untimed);
    collector.disconnect();
    ServerResponse.prototype.end = end;
    for (const [name, listener] of Object.entries(channels)) unsubscribe(name, listener);
    current.disable();
    // The histogram holds the whole interval between its timer's turns: the delay is what exceeds the timer's own period.
    const ms = (ns: number) => Math.max(0, ns / 1e6 - DELAY_RESOLUTION_MS);
    closing.closedMs = now();
    closing.eventLoopDelayMs = { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max), mean: ms(delay.mean) };
    return JSON.stringify(closing);
  };

  process.on('SIGUSR2', () => {
    const base = join(outDir, `${process.pid}-${windowIndex}`);
    if (!window) {
      writeFileSync(`${base}-open`, open());
      return;
    }
    windowIndex++;
    // Written whole, then renamed: the bench never reads half a file.
    writeFileSync(`${base}.json.part`, close(window));
    renameSync(`${base}.json.part`, `${base}.json`);
  });
}

/**
 * The methods of better-sqlite3's statements, where the server loads it from
 * (the repository's node_modules; one prototype for every statement), for the
 * window to time. A server that never opens SQLite loads it here for nothing.
 */
function sqliteStatements(): StatementMethods {
  const Database = createRequire(join(process.cwd(), 'package.json'))('better-sqlite3') as new (file: string) => { prepare(sql: string): object; close(): void };
  const probe = new Database(':memory:');
  const prototype = Object.getPrototypeOf(probe.prepare('select 1')) as StatementMethods;
  probe.close();
  return prototype;
}
