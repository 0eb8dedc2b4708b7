/**
 * The bank's 3-D Secure challenge, opened in the box the view drew for it: the dialog's chunk
 * (challenge-dialog.ts) is loaded, and what happens in it (done, closed, blocked by the page's
 * CSP, or its code not to be had) is told to the payment flow as events.
 */
import type { openChallenge } from './challenge-dialog';
import { CHALLENGE_BLOCKED, CHALLENGE_DONE, CHALLENGE_UNAVAILABLE, type FlowEvent } from './flow-events';
import type { FlowHost } from './flow-host';
import { en } from './locales/en';

/** Opens the current view's challenge in `box`; returns what closes it. */
export function openChallengeIn(box: HTMLElement, host: FlowHost, tell: (event: FlowEvent) => void): () => void {
  const url = host.view().outcome?.challenge_url;
  let closed = false;
  let close: (() => void) | undefined;
  // Its code could not be had (the network, or a chunk that did not match its hash): as a network error, nothing charged.
  const unavailable = () => void (closed || tell({ on: CHALLENGE_UNAVAILABLE }));
  if (url) {
    (host.loadChunk('challenge') as Promise<typeof openChallenge | undefined>).then((open) => {
      if (closed) return;
      if (!open) return unavailable();
      close = open(box, {
        url,
        t: host.words() ?? en,
        nonce: host.nonce,
        onDone: () => tell({ on: CHALLENGE_DONE, cancel: false }),
        onCancel: () => tell({ on: CHALLENGE_DONE, cancel: true }),
        onBlocked: (origin) => tell({ on: CHALLENGE_BLOCKED, origin }),
      });
    }, unavailable);
  }
  return () => {
    closed = true;
    close?.();
  };
}
