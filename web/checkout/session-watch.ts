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
  /** Not at all while the tab is hidden, and at once (the pace started over) when it is shown again. */
  whileVisible?: true;
}

/** Confirming: every two seconds until the outcome is final. */
export const POLLING: Pace = { first: 2000, next: () => 2000 };
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
  let checking = false;
  const check = async () => {
    clearTimeout(timer);
    if (checking || (pace.whileVisible && document.hidden)) return; // a hidden tab checks again when it is shown
    checking = true;
    let checked: Checked;
    try {
      checked = { session: await fetchSession(ctl.signal) };
    } catch (error) {
      checked = { error };
    } finally {
      checking = false;
    }
    if (ctl.signal.aborted || !answered(checked)) return;
    delay = pace.next(delay);
    timer = setTimeout(check, delay);
  };
  const onVisibilityChange = () => {
    if (document.hidden) return;
    delay = pace.first;
    void check();
  };
  timer = setTimeout(check, delay);
  if (pace.whileVisible) document.addEventListener('visibilitychange', onVisibilityChange);
  return () => {
    ctl.abort();
    clearTimeout(timer);
    if (pace.whileVisible) document.removeEventListener('visibilitychange', onVisibilityChange);
  };
}
