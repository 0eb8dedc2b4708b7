/**
 * Fault injection for the sandbox's charge and refund endpoints: the failures a real
 * payment service and the network between us produce (slowness, timeouts,
 * 5xx, dropped connections, a charge made whose reply never arrives), so the
 * backend's handling of an unknown outcome can be tested. Asked for per
 * request (`Sandbox-Fault: <kind>`) or by rate (a FaultPlan). See
 * docs/service-conventions.md, "Fault injection".
 */
import type { Request } from 'express';
import { z } from 'zod';
import { err, ok } from '../common/result';
import type { Result } from '../common/result';
import { httpError } from '../common/http/errors';
import type { HttpError } from '../common/http/errors';

export const faultKinds = ['latency', 'timeout', 'error', 'reset', 'lost_reply'] as const;
export const FaultKind = z.enum(faultKinds);
export type FaultKind = z.infer<typeof FaultKind>;

/**
 * Omitted fields take defaults, so `{"rate": 0}` turns injection off. The
 * default timeout outlasts the backend's default SERVICE_TIMEOUT_MS (10 s),
 * so the client gives up first, as the fault intends.
 */
export const FaultPlan = z.strictObject({
  /** The share of charge and refund requests that meet a fault, 0 to 1. */
  rate: z.number().min(0).max(1),
  /** One is picked uniformly for each faulted request. */
  kinds: z.array(FaultKind).min(1).default([...faultKinds]),
  latencyMs: z.number().int().min(0).max(60_000).default(1_000),
  timeoutMs: z.number().int().min(0).max(600_000).default(15_000),
});
export type FaultPlan = z.infer<typeof FaultPlan>;
/** A plan as a caller may write it, defaults left out. */
export type FaultPlanInput = z.input<typeof FaultPlan>;

const FAULT_HEADER = 'sandbox-fault';

export interface Faults {
  plan(): FaultPlan;
  /** Validates, so an in-process caller gets the same refusals as PUT /service/faults. */
  setPlan(plan: FaultPlanInput): void;
  /** The request's fault: its Sandbox-Fault header, else a roll against the plan; undefined for none. */
  pick(req: Request): Result<FaultKind | undefined, HttpError>;
  /**
   * Runs `work` after the delay `kind` calls for (none for other kinds).
   * Tracked until it settles, so closing the sandbox can let held charges commit.
   */
  delayed<T>(kind: FaultKind | undefined, work: () => Promise<T>): Promise<T>;
  /** Ends every delay now and waits for the work behind them: a held charge is committed, not lost, at shutdown. */
  drain(): Promise<void>;
}

export function createFaults(initial: FaultPlanInput = { rate: 0 }): Faults {
  let plan = FaultPlan.parse(initial);
  const wakers = new Set<() => void>();
  const inFlight = new Set<Promise<void>>();

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      wakers.add(wake);
    });

  const delayOf = (kind: FaultKind | undefined) => (kind === 'latency' ? plan.latencyMs : kind === 'timeout' ? plan.timeoutMs : 0);

  return {
    plan: () => plan,
    setPlan(next) {
      plan = FaultPlan.parse(next);
    },
    pick(req) {
      const asked = req.get(FAULT_HEADER);
      if (asked !== undefined) {
        const kind = FaultKind.safeParse(asked);
        return kind.success ? ok(kind.data) : err(httpError(400, 'invalid_request', `the Sandbox-Fault header must be one of ${faultKinds.join(', ')}`));
      }
      if (Math.random() >= plan.rate) return ok(undefined);
      return ok(plan.kinds[Math.floor(Math.random() * plan.kinds.length)]);
    },
    delayed(kind, work) {
      const ms = delayOf(kind);
      if (ms === 0) return work();
      const running = wait(ms).then(work);
      // The caller gets the work's error through `running`; this copy only marks when it settled.
      const settled = () => {
        inFlight.delete(tracked);
      };
      const tracked: Promise<void> = running.then(settled, settled);
      inFlight.add(tracked);
      return running;
    },
    async drain() {
      for (const wake of [...wakers]) wake();
      await Promise.all([...inFlight]);
    },
  };
}
