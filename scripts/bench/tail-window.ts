/**
 * What the pay benchmark's probe (tail-probe.ts, inside each server under test)
 * hands the bench (tail.ts) for one window: the shape of its file, and the
 * header the bench's paced sender numbers requests with so that the two sides
 * of a request can be joined.
 */

/** The request header the bench's paced sender numbers its requests with. */
export const SEQUENCE_HEADER = 'x-bench-seq';

export interface ProbedRequest {
  /** The sender's sequence number, when the request carried one. */
  seq?: number;
  arrivedMs: number;
  serviceStartMs?: number;
  serviceEndMs?: number;
  /** When the handler ended the reply (`res.end`). */
  finishedMs?: number;
  sqliteBeforeMs: number;
  sqliteAfterMs: number;
}

export interface ProbeWindow {
  pid: number;
  openedMs: number;
  closedMs: number;
  eventLoopDelayMs: { p50: number; p99: number; max: number; mean: number };
  /** [start ms, duration ms, kind as perf_hooks.constants.NODE_PERFORMANCE_GC_*] */
  gc: [number, number, number][];
  /** Each commit's time on the loop: a COMMIT statement, or a write in autocommit mode. */
  commitsMs: number[];
  /** Checkpoints on the loop: commits that ran SQLite's automatic one (the database file was written during the commit), and the request connection's own `PRAGMA wal_checkpoint` when its worker fell behind (common/store/checkpointer.ts). */
  checkpointsMs: number[];
  requests: ProbedRequest[];
}
