/**
 * The mount's calls to the backend and the wallet, as glue: one load of the session (the page's
 * view, or the backend's) and the wallet its button needs, and the check of a carried view. What
 * each answer means is the mount's decisions' (mount-decide.ts); widget.ts owns the state. The
 * seams pass positional functions, as this ships in the first script, where the property names
 * of an object of callbacks would be paid before the button shows.
 */
import type { PublicSession } from '../../contracts';
import { whenIdle } from './chunks';
import type { PaymentFlow } from './flow-host';
import type { CheckAnswer } from './mount-decide';

/**
 * After `loading`, with `taken` (the page's view) or what `fetchSession` answers: a session past
 * its start is placed by the payment flow (`loadFlow`), then the wallet is asked for
 * (`walletReady`). `got` hears the session (`draw`: drawn at once, the summary while the flow
 * comes or a paid session's outcome); `failed` what went wrong (`flowUnavailable`: the flow's code
 * could not be had), `walletAnswered` whether the wallet is here. Nothing is heard once `signal` is
 * aborted (a newer load, `stop`).
 */
export async function loadSession(
  signal: AbortSignal,
  taken: PublicSession | null,
  fetchSession: () => Promise<PublicSession>,
  loadFlow: () => Promise<PaymentFlow>,
  walletReady: (session: PublicSession) => Promise<boolean>,
  got: (session: PublicSession, draw: boolean) => void,
  failed: (err: unknown, flowUnavailable?: true) => void,
  walletAnswered: (ready: boolean) => void,
) {
  let s: PublicSession;
  try {
    s = taken ?? (await fetchSession());
  } catch (err) {
    if (!signal.aborted) failed(err);
    return;
  }
  if (signal.aborted) return;
  // A session past its start (a reload after an attempt) is placed by the payment flow, which knows its statuses.
  const resumes = s.status !== 'open';
  got(s, resumes);
  if (resumes) {
    let resumed: PaymentFlow;
    try {
      resumed = await loadFlow();
    } catch (err) {
      if (!signal.aborted) failed(err, true);
      return;
    }
    if (signal.aborted) return;
    // Paid: no button needed.
    if (!resumed.resume(s)) {
      got(s, true);
      return;
    }
  }
  const ready = await walletReady(s);
  if (!signal.aborted) walletAnswered(ready);
}

/** Once the page is idle, the backend's status of a carried session: `answered` hears it, or what the call threw. Returns what cancels it. */
export function checkCarried(fetchSession: (signal: AbortSignal) => Promise<PublicSession>, answered: (answer: CheckAnswer) => void): AbortController {
  const ctl = new AbortController();
  whenIdle(() => {
    if (!ctl.signal.aborted)
      void fetchSession(ctl.signal).then(
        ({ status }) => answered({ status }),
        (error: unknown) => ctl.signal.aborted || answered({ error }),
      );
  });
  return ctl;
}
