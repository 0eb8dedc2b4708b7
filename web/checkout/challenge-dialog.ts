/**
 * The bank's 3-D Secure challenge (a chunk of its own, chunks.ts: challenge-opener.ts, in the payment flow, opens it), in a modal dialog over the merchant's page:
 * the challenge page (served by the payment service) in a frame, and a Cancel
 * button. A native <dialog> opened with showModal() sits in the top layer, so
 * the widget's containment cannot clip it; it keeps focus inside while open
 * (the page behind is inert), closes on Escape like Cancel (while focus is in
 * the dialog rather than in the bank's frame, whose keys are its own), and
 * gives focus back to where it was when it closes.
 *
 * The challenge page reports its result with postMessage; only a message from
 * that frame, from the challenge URL's origin, counts, and even then it only
 * says "ask the backend": the outcome itself comes from the service.
 *
 * A page whose CSP leaves the challenge's origin out of `frame-src` gets an
 * error page in the frame, whose `load` fires all the same; the browser tells
 * the document instead, with a `securitypolicyviolation` event (Chromium,
 * Firefox, Safari), which is how the dialog knows the shopper sees nothing.
 * No timer: the bank's page owes us no "I'm here" message, and a slow bank is
 * not a blocked one.
 */
import type { ChallengeMessage } from '../../contracts';
import type { Messages } from './locales';

/** The contract's message type, checked by the compiler without importing the contracts' code. */
const MESSAGE_TYPE: ChallengeMessage['type'] = 'wallet-checkout:challenge';

const CSS = `
.challenge { box-sizing: border-box; width: min(460px, calc(100vw - 32px)); max-height: calc(100vh - 32px); padding: 16px;
  border: 1px solid var(--_border); border-radius: var(--wc-radius, 12px); background: var(--_surface); color: var(--_text);
  font: inherit; font-family: var(--wc-font, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif); }
.challenge[open] { display: flex; flex-direction: column; gap: 12px; }
.challenge::backdrop { background: rgb(0 0 0 / 0.55); }
.challenge h2 { margin: 0; font-size: 16px; }
.challenge iframe { width: 100%; height: min(380px, calc(100vh - 160px)); border: 1px solid var(--_border); border-radius: 8px; background: #fff; }
.challenge .cancel { align-self: flex-end; font: inherit; font-weight: 600; cursor: pointer; padding: 8px 16px; border-radius: 8px;
  border: 1px solid var(--_border); background: transparent; color: var(--_accent); }
`;

export interface ChallengeDialogProps {
  url: string;
  t: Messages;
  /** The page's CSP nonce, for the dialog's stylesheet. */
  nonce: string | undefined;
  /** The challenge page says it is over (completed, failed or expired). */
  onDone(): void;
  /** The shopper closed the dialog. */
  onCancel(): void;
  /** The page's CSP refused to frame the challenge (`origin`: what its `frame-src` lacks). */
  onBlocked(origin: string): void;
}

/** The origin of a violation's blocked URL, or null (`inline`, `eval`, or no URL). */
function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * Opens the dialog in `host` (inside the widget's shadow root); returns what closes it. Plain DOM,
 * not Preact, so that the chunk shares nothing with the bundle that loads it.
 */
export function openChallenge(host: HTMLElement, { url, t, nonce, onDone, onCancel, onBlocked }: ChallengeDialogProps): () => void {
  const origin = new URL(url).origin;
  const dialog = document.createElement('dialog');
  dialog.className = 'challenge';
  dialog.tabIndex = -1;
  dialog.dataset.testid = 'challenge';
  dialog.setAttribute('aria-labelledby', 'wc-challenge-title');
  const style = document.createElement('style');
  if (nonce) style.nonce = nonce;
  style.textContent = CSS;
  const title = document.createElement('h2');
  title.id = 'wc-challenge-title';
  title.textContent = t.challenge.title;
  const frame = document.createElement('iframe');
  frame.title = t.challenge.frame;
  frame.dataset.testid = 'challenge-frame';
  frame.src = url;
  const cancel = document.createElement('button');
  cancel.type = 'button';
  cancel.className = 'cancel';
  cancel.dataset.testid = 'challenge-cancel';
  cancel.textContent = t.challenge.cancel;
  cancel.addEventListener('click', () => onCancel());
  dialog.addEventListener('cancel', (event) => {
    // Escape: our Cancel, so the backend hears of it; the dialog closes when the widget moves on.
    event.preventDefault();
    onCancel();
  });

  // Listening before the frame is inserted, so the browser cannot report it first
  // (violation events are queued as tasks, never fired synchronously).
  const onViolation = (event: SecurityPolicyViolationEvent) => {
    // Report-only policies block nothing.
    if (event.disposition !== 'enforce' || event.effectiveDirective !== 'frame-src' || originOf(event.blockedURI) !== origin) return;
    onBlocked(origin);
  };
  let reported = false;
  const onMessage = (event: MessageEvent) => {
    if (reported || event.origin !== origin || event.source !== frame.contentWindow) return;
    if ((event.data as Partial<ChallengeMessage> | null)?.type !== MESSAGE_TYPE) return;
    reported = true;
    onDone();
  };
  document.addEventListener('securitypolicyviolation', onViolation);
  window.addEventListener('message', onMessage);

  dialog.append(style, title, frame, cancel);
  host.append(dialog);
  dialog.showModal();
  // On the dialog itself, so its name is read first and Escape reaches it; Tab goes on into the frame.
  dialog.focus();
  return () => {
    document.removeEventListener('securitypolicyviolation', onViolation);
    window.removeEventListener('message', onMessage);
    dialog.close();
    dialog.remove();
  };
}
