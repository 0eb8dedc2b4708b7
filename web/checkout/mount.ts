/** mount(): one widget in a shadow root inside the merchant's element, or (iframe mode) a frame that holds it. */
import { BuiltinCustomEvent, detach } from '../../common/browser/builtins';
import { normalizeApiBase, parseClientSecret } from './api';
import { loadChunk } from './chunks';
import type { FrameContext, mountFrame } from './frame-host';
import { negotiateLocale } from './locales';
import { RESERVED_HEIGHT_PX } from './reserved-height';
import { enFirstPaint } from './en-first-paint';
import { errorAnnouncement } from './states';
import { CSS } from './styles';
import type { CheckoutHandle, Mount, MountOptions } from './types';
import { startCheckout } from './widget';
import type { CheckoutProps, CheckoutWidget } from './widget-props';

/** Set by each entry from how the bundle was loaded: its origin, and (script tag) its CSP nonce. */
let entryDefaults: { apiBase?: string; nonce?: string } = {};

export function setEntryDefaults(defaults: typeof entryDefaults): void {
  entryDefaults = { ...entryDefaults, ...defaults };
}

/**
 * The widget's locale: the option, else the nearest `lang` around the mount element, else the
 * browser's languages in order, the first the widget speaks (docs/embedding.md, "Languages").
 */
function localeOf(element: HTMLElement, options: MountOptions): string {
  return negotiateLocale([options.locale, element.closest('[lang]')?.getAttribute('lang'), ...navigator.languages, navigator.language]);
}

export const mount: Mount = (element, options) => {
  if (!(element instanceof HTMLElement)) throw new TypeError('WalletCheckout.mount: element must be an HTMLElement');
  if (!options || typeof options.clientSecret !== 'string' || !options.clientSecret) {
    throw new TypeError('WalletCheckout.mount: options.clientSecret is required');
  }

  if (options.mode === 'iframe') {
    const apiBase = normalizeApiBase(options.apiBase || entryDefaults.apiBase || location.origin);
    return mountFrameChunk(element, { nonce: entryDefaults.nonce, ...options }, { apiBase, localeFor: (o) => localeOf(element, o) });
  }

  const host = document.createElement('div');
  host.setAttribute('data-wallet-checkout', '');
  const shadow = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  const root = document.createElement('div');
  shadow.append(style, root);

  // The page's nonce lets a strict CSP (style-src 'nonce-...') accept the stylesheet.
  let current: MountOptions = { nonce: entryDefaults.nonce, ...options };
  if (current.nonce) style.nonce = current.nonce;
  style.textContent = CSS;
  element.appendChild(host);
  let mounted = true;

  let widget: { key: string; started: CheckoutWidget } | undefined;
  const draw = () => {
    const apiBase = normalizeApiBase(current.apiBase || entryDefaults.apiBase || location.origin);
    host.setAttribute('data-theme', current.theme === 'dark' ? 'dark' : 'light');
    const props: CheckoutProps = { target: element, options: current, locale: localeOf(element, current), apiBase, sessionId: parseClientSecret(current.clientSecret) };
    // A new secret or backend is a new checkout: fresh state.
    const key = `${apiBase} ${current.clientSecret}`;
    if (widget?.key === key) return widget.started.update(props);
    widget?.started.stop();
    widget = { key, started: startCheckout(props, root) };
  };
  draw();

  return {
    update(partial) {
      if (!mounted) return;
      current = { ...current, ...partial };
      draw();
    },
    unmount() {
      if (!mounted) return;
      mounted = false;
      widget?.started.stop();
      detach(host);
    },
  };
};

/**
 * Iframe mode's side on the merchant's page (frame-host.ts) is a chunk, so a page that embeds the
 * widget inline never carries it. The handle keeps what the page asks until the chunk is here; a
 * chunk that cannot be had is the `checkout:error` an unreachable backend would be (the frame
 * would not load either).
 */
function mountFrameChunk(element: HTMLElement, options: MountOptions, context: FrameContext): CheckoutHandle {
  let current = options;
  let frame: CheckoutHandle | undefined;
  let mounted = true;
  // The frame's place, taken at once at the widget's reserved height: the chunk and the frame fill it without moving the page.
  const box = document.createElement('div');
  box.style.height = `${RESERVED_HEIGHT_PX}px`;
  element.appendChild(box);
  (loadChunk('frame-host', options.nonce) as Promise<typeof mountFrame | undefined>)
    .then((mountFrame) => {
      if (!mountFrame) throw new Error('Wallet Checkout: the frame host chunk carried nothing');
      if (mounted) frame = mountFrame(element, box, current, context);
    })
    .catch((err: unknown) => {
      if (!mounted) return;
      detach(box);
      console.error(err instanceof Error ? err.message : err, '(no checkout frame on this page)');
      // In the first script's words: no other chunk is likely to come either.
      const announcement = errorAnnouncement(parseClientSecret(current.clientSecret), 'network_error', 'frame_unavailable', enFirstPaint);
      if (announcement) element.dispatchEvent(new BuiltinCustomEvent(announcement.name, { bubbles: true, composed: true, detail: announcement.detail }));
    });
  return {
    update(partial) {
      if (!mounted) return;
      if (frame) frame.update(partial);
      else current = { ...current, ...partial };
    },
    unmount() {
      if (!mounted) return;
      mounted = false;
      if (frame) frame.unmount();
      else detach(box);
    },
  };
}
