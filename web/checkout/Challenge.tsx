/**
 * Where the bank's 3-D Secure dialog opens in the widget. The dialog itself
 * (challenge-dialog.ts) is a chunk (chunks.ts), fetched when the page is idle
 * (`prefetchChunk('challenge')`, Checkout.tsx) so that a shopper who meets a
 * challenge never waits for its code; if it cannot be had, `onUnavailable`.
 */
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { ChallengeDialogProps, openChallenge } from './challenge-dialog';
import { loadChunk } from './chunks';

export interface ChallengeProps extends ChallengeDialogProps {
  /** The dialog's code could not be loaded (the network, or a chunk that did not match its hash). */
  onUnavailable(): void;
}

const loadDialog = (nonce: string | undefined) => loadChunk('challenge', nonce) as Promise<typeof openChallenge | undefined>;

export function Challenge(props: ChallengeProps) {
  const host = useRef<HTMLDivElement>(null);
  // The callbacks of the latest render, so the dialog is opened once per challenge.
  const latest = useRef(props);
  latest.current = props;

  useLayoutEffect(() => {
    let close: (() => void) | undefined;
    let closed = false;
    loadDialog(props.nonce).then(
      (open) => {
        if (closed || !host.current) return;
        if (!open) return latest.current.onUnavailable();
        close = open(host.current, {
          url: props.url,
          t: props.t,
          nonce: props.nonce,
          onDone: () => latest.current.onDone(),
          onCancel: () => latest.current.onCancel(),
          onBlocked: (origin) => latest.current.onBlocked(origin),
        });
      },
      () => closed || latest.current.onUnavailable(),
    );
    return () => {
      closed = true;
      close?.();
    };
  }, [props.url]);

  return <div ref={host} />;
}
