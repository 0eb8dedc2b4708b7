/**
 * Checking the public session again and again, at a pace: polling a payment being confirmed, and
 * watching a hold until the merchant captures or releases it. Only the timing lives here; what an
 * answer means is the flow's decider's (flow-decide.ts), which says whether to check again.
 */
import type { PublicSession } from '../../contracts';
import type { Checked } from './flow-events';

export interface Pace {
  /** The wait before the first check, and after each the next wait. */
  first: number;
  next(delay: number): number;
  /** Each wait moved by up to this share either way, so the tabs a shared outage left confirming do not all check at once. */
  jitter?: number;
  /** At most this many checks, then none (the view stays as it is). */
  checks?: number;
  /** Not at all while the tab is hidden, and at once (the pace started over) when it is shown again. */
  whileVisible?: true;
}

/**
 * Confirming: after 1 s, then waits doubling to 8 s (each ±20%), for 40 checks, about five minutes.
 * Reconciliation settles an unknown outcome within seconds when the payment service answers
 * (docs/reliability.md); past that the service is down for longer than a shopper waits, the widget
 * keeps "confirming" and stops asking, the merchant's server learns the outcome by its webhook,
 * and a reload of the page checks again (docs/shopper-experience.md).
 */
export const POLLING: Pace = { first: 1000, next: (delay) => Math.min(delay * 2, 8000), jitter: 0.2, checks: 40 };
/**
 * A hold is captured or released whenever the merchant ships or cancels, often long after the
 * shopper left: checked soon after paying, then less and less often (at most once a minute per
 * open tab), not at all while the tab is hidden, and at once when it is shown again.
 */
export const HOLD_CHECKS: Pace = { first: 5_000, next: (delay) => Math.min(delay * 2, 60_000), whileVisible: true };

/** Starts checking; `answered` says whether to check again. Returns what stops it. */
export function watchSession(fetchSession: (signal: AbortSignal) => Promise<PublicSession>, pace: Pace, answered: (checked: Checked) => boolean): () => void {
  const ctl = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let delay = pace.first;
  let checks = 0;
  let checking = false;
  const wait = () => (pace.jitter ? delay * (1 - pace.jitter + 2 * pace.jitter * Math.random()) : delay);
  const check = async () => {
    clearTimeout(timer);
    if (checking || (pace.whileVisible && document.hidden)) return; // a hidden tab checks again when it is shown
    checking = true;
    checks++;
    let checked: Checked;
    try {
      checked = { session: await fetchSession(ctl.signal) };
    } catch (error) {
      checked = { error };
    } finally {
      checking = false;
    }
    if (ctl.signal.aborted || !answered(checked) || checks === pace.checks) return;
    delay = pace.next(delay);
    timer = setTimeout(check, wait());
  };
  const onVisibilityChange = () => {
    if (document.hidden) return;
    delay = pace.first;
    void check();
  };
  timer = setTimeout(check, wait());
  if (pace.whileVisible) document.addEventListener('visibilitychange', onVisibilityChange);
  return () => {
    ctl.abort();
    clearTimeout(timer);
    if (pace.whileVisible) document.removeEventListener('visibilitychange', onVisibilityChange);
  };
}
