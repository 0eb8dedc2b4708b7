/**
 * Script-tag entry (dist/web/checkout.js, IIFE). Sets `window.WalletCheckout = { mount }`
 * and mounts a widget for every tag like:
 *   <div id="pay"></div>
 *   <script src="https://CHECKOUT_HOST/checkout.js" data-client-secret="cs_..._secret_..."
 *           data-target="#pay" data-button-type="buy" data-button-color="black"
 *           data-button-locale="en" data-button-radius="8" data-button-size-mode="fill"
 *           data-theme="dark" data-locale="fr" data-mode="iframe" nonce="..."
 *           data-session-view="{&quot;id&quot;: ...}" defer></script>
 * (data-session-view: the creation reply's `public_view`, as JSON, so no request precedes the button.)
 * apiBase is the origin of the tag's src; the tag's CSP nonce goes to everything the widget injects.
 */
import { parseJson } from '../../common/browser/builtins';
import { setChunkBase } from './chunks';
import { mount, setEntryDefaults } from './mount';
import type { Mount, MountOptions } from './types';

const current = document.currentScript as HTMLScriptElement | null;
// `.nonce`, not the attribute: a page under a header CSP blanks the attribute once the tag connects.
setEntryDefaults({ apiBase: resolve(current?.src, true), nonce: current?.nonce || undefined });
setChunkBase(resolve(current?.src));

/** `url` resolved against the page; `origin`: only its origin. */
function resolve(url: string | undefined, origin = false): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url, location.href);
    return origin ? u.origin : u.href;
  } catch {
    return undefined;
  }
}

/** Tags already mounted, shared by every copy of this bundle on the page. */
const MOUNTED = '__walletCheckoutMounted';

/**
 * The tag's data attributes passed on as they are: each value is checked where it is used (a
 * button's against Google's brand rules in button-options.ts; `theme` and `mode` are read as
 * `dark` and `iframe` or else the default), as it is when a page calls `mount` itself.
 */
const TEXT_OPTIONS = ['locale', 'buttonType', 'buttonColor', 'buttonLocale', 'buttonSizeMode', 'theme', 'mode'] as const satisfies readonly (keyof MountOptions)[];

function optionsFrom(script: HTMLScriptElement): MountOptions {
  const d = script.dataset;
  const radius = d.buttonRadius ? Number(d.buttonRadius) : Number.NaN;
  const o: MountOptions = { clientSecret: d.clientSecret ?? '' };
  for (const key of TEXT_OPTIONS) if (d[key]) (o as Record<keyof MountOptions, unknown>)[key] = d[key];
  // Without data-api-base: the origin this bundle came from (the entry default set above).
  const apiBase = resolve(d.apiBase);
  if (apiBase) o.apiBase = apiBase;
  if (script.nonce) o.nonce = script.nonce;
  if (Number.isFinite(radius)) o.buttonRadius = radius;
  if (d.sessionView) {
    try {
      o.sessionView = parseJson(d.sessionView) as object;
    } catch {
      console.error('WalletCheckout: data-session-view is not JSON; the widget asks the backend for the session instead (docs/embedding.md).');
    }
  }
  return o;
}

function mountTag(script: HTMLScriptElement): void {
  const tag = script as HTMLScriptElement & { [MOUNTED]?: boolean };
  if (tag[MOUNTED] || !script.dataset.clientSecret) return;
  const selector = script.dataset.target;
  let target: HTMLElement | null = null;
  try {
    target = selector ? document.querySelector<HTMLElement>(selector) : null;
  } catch {
    // invalid selector
  }
  if (!target) {
    if (document.readyState === 'loading') {
      document.addEventListener('DOMContentLoaded', () => mountTag(script), { once: true });
    } else {
      console.error(`WalletCheckout: no element matches data-target "${selector ?? ''}"`);
    }
    return;
  }
  tag[MOUNTED] = true;
  mount(target, optionsFrom(script));
}

function mountAll(): void {
  if (current?.dataset.clientSecret) mountTag(current);
  // Other tags loading this same bundle (several widgets, one script each).
  document.querySelectorAll<HTMLScriptElement>('script[data-client-secret][data-target]').forEach((s) => {
    if (s.src && (!current?.src || s.src === current.src)) mountTag(s);
  });
}

(window as unknown as { WalletCheckout: { mount: Mount } }).WalletCheckout = { mount };
mountAll();
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mountAll, { once: true });
