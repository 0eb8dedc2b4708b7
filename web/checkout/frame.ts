/**
 * The checkout frame's script (dist/web/checkout-frame.js, run by GET /frame):
 * iframe mode's inside (frame-host.ts is the page's side). Waits for the
 * embedding page's init message, then mounts the widget against this frame's
 * own origin. The page's origin is the init message's `event.origin`, which
 * the browser sets: every call names it to the backend, which refuses a page
 * its app does not allow as it refuses an `Origin`, and events and layout are
 * posted to that origin only, so no other page ever reads them.
 */
import { setEmbedderOrigin } from './api';
import { CHECKOUT_EVENT_NAMES, type FrameMessage, hostMessageOf } from './frame-messages';
import { setChunkBase } from './chunks';
import { mount, setEntryDefaults } from './mount';
import type { CheckoutHandle } from './types';

const container = document.getElementById('checkout');
const script = document.currentScript as HTMLScriptElement | null;
setEntryDefaults({ apiBase: location.origin, nonce: script?.nonce || undefined });
setChunkBase(script?.src);

let host: { origin: string; handle: CheckoutHandle } | undefined;

function post(message: FrameMessage): void {
  if (host) window.parent.postMessage(message, host.origin);
}

/**
 * Reports the widget's height, and whether a dialog is open: the wallet's
 * sheet (which a wallet adds to the body) or the 3-D Secure challenge (a modal
 * <dialog> in the widget's shadow root). While one is, the page gives the
 * frame the whole viewport, as the inline widget's dialogs have.
 */
function reportLayout(widget: HTMLElement): void {
  const shadow = widget.querySelector('[data-wallet-checkout]')?.shadowRoot;
  let last = '';
  const report = () => {
    const height = Math.ceil(widget.getBoundingClientRect().height);
    const overlay = [...document.body.children].some((child) => child !== widget && child.tagName !== 'SCRIPT' && child.checkVisibility({ visibilityProperty: true })) || !!shadow?.querySelector('dialog[open]');
    if (`${height} ${overlay}` === last) return;
    last = `${height} ${overlay}`;
    post({ type: 'wallet-checkout:layout', height, overlay });
  };
  new ResizeObserver(report).observe(widget);
  const changes = new MutationObserver(report);
  changes.observe(document.body, { childList: true });
  if (shadow) changes.observe(shadow, { subtree: true, childList: true, attributes: true, attributeFilter: ['open'] });
  report();
}

if (container && window.parent !== window) {
  for (const name of CHECKOUT_EVENT_NAMES) {
    container.addEventListener(name, (event) => post({ type: 'wallet-checkout:event', name, detail: (event as CustomEvent).detail } as FrameMessage));
  }
  window.addEventListener('message', (event) => {
    const message = hostMessageOf(event, window.parent, host?.origin);
    if (!message) return;
    if (message.type === 'wallet-checkout:update') return host?.handle.update(message.options);
    setEmbedderOrigin(event.origin);
    host = { origin: event.origin, handle: mount(container, message.options) };
    reportLayout(container);
  });
}
