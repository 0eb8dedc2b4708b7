/**
 * Iframe mode on the merchant's page (docs/embedding.md): instead of the
 * widget, one sandboxed frame from the checkout's origin (GET /frame), which
 * runs the widget and the wallet's script there. The client secret goes to it
 * by postMessage, addressed to the checkout's origin only (never in its URL,
 * so it stays out of logs and Referer); the frame relays the widget's events,
 * which are dispatched on the mount element as the inline widget would, and
 * its layout, which sizes the frame.
 */
import { BuiltinCustomEvent, detach } from '../../common/browser/builtins';
import { type FrameOptions, frameMessageOf, type HostMessage } from './frame-messages';
import type { CheckoutHandle, MountOptions } from './types';

/** Scripts and its own origin's storage and calls; the wallet's popup and the 3-D Secure challenge's form. Nothing may navigate the merchant's page. */
const FRAME_SANDBOX = 'allow-scripts allow-same-origin allow-popups allow-forms';

/** Above everything on the page, as the inline widget's dialogs are. */
const TOP_LAYER_Z_INDEX = '2147483647';

/** Sets inline styles one by one, not with Object.assign: this runs on the merchant's page, whose built-ins are its own (docs/embedding.md, "The page's built-ins"). */
function setStyles(element: HTMLElement, styles: Record<string, string>): void {
  for (const name in styles) (element.style as unknown as Record<string, string>)[name] = styles[name] as string;
}

export interface FrameContext {
  /** The checkout's base URL (normalized): the frame is its `/frame`. */
  apiBase: string;
  /** The widget's language for these options, as the host page would resolve it (the frame cannot see the page's `lang`). */
  localeFor(options: MountOptions): string;
}

/**
 * `box`: the frame's place in `element`, which the first script took at the widget's reserved height before this
 * chunk came (mount.ts), so that neither the chunk nor the frame's first report moves the page below it. It keeps
 * the widget's place while a dialog takes the frame to the whole viewport.
 */
export function mountFrame(element: HTMLElement, box: HTMLDivElement, options: MountOptions, context: FrameContext): CheckoutHandle {
  const checkoutOrigin = new URL(context.apiBase).origin;
  box.setAttribute('data-wallet-checkout-frame-box', '');
  setStyles(box, { position: 'relative' });
  const frame = document.createElement('iframe');
  frame.setAttribute('data-wallet-checkout-frame', '');
  frame.setAttribute('sandbox', FRAME_SANDBOX);
  frame.allow = 'payment';
  frame.title = 'Checkout';
  // colorScheme: the frame's own (light): a frame whose scheme differs from its element's is painted opaque, not transparent.
  setStyles(frame, { display: 'block', position: 'absolute', left: '0', top: '0', width: '100%', height: '100%', border: '0', colorScheme: 'normal' });
  frame.src = `${context.apiBase}/frame`;
  box.append(frame);

  let current = options;
  let loaded = false;
  const frameOptions = (o: MountOptions): FrameOptions => {
    const { apiBase: _apiBase, nonce: _nonce, mode: _mode, ...rest } = o;
    return { ...rest, locale: context.localeFor(o) };
  };
  const send = (message: HostMessage) => frame.contentWindow?.postMessage(message, checkoutOrigin);

  const onMessage = (event: MessageEvent) => {
    const message = frameMessageOf(event, frame.contentWindow, checkoutOrigin);
    if (!message) return;
    if (message.type === 'wallet-checkout:event') {
      element.dispatchEvent(new BuiltinCustomEvent(message.name, { bubbles: true, composed: true, detail: message.detail }));
      return;
    }
    box.style.height = `${message.height}px`;
    // Over the viewport, the frame keeps its place in layout and is moved by a transform: a frame moved in layout to
    // the viewport's corner and back would be a layout shift of the page each time (the shopper's clicks in the frame
    // do not excuse it as the page's own would), and a transform moves nothing in layout.
    const { left, top } = box.getBoundingClientRect();
    setStyles(
      frame,
      message.overlay
        ? { position: 'fixed', left: `${left}px`, top: `${top}px`, width: '100vw', height: '100vh', transform: `translate(${-left}px, ${-top}px)`, zIndex: TOP_LAYER_Z_INDEX }
        : { position: 'absolute', left: '0', top: '0', width: '100%', height: '100%', transform: '', zIndex: '' },
    );
  };
  window.addEventListener('message', onMessage);
  // A (re)loaded frame is a new document, waiting for its init message.
  frame.addEventListener('load', () => {
    loaded = true;
    send({ type: 'wallet-checkout:init', options: frameOptions(current) });
  });

  let mounted = true;
  return {
    update(partial) {
      if (!mounted) return;
      current = { ...current, ...partial, apiBase: current.apiBase, mode: 'iframe' };
      if (loaded) send({ type: 'wallet-checkout:update', options: frameOptions(current) });
    },
    unmount() {
      if (!mounted) return;
      mounted = false;
      window.removeEventListener('message', onMessage);
      detach(box);
    },
  };
}
