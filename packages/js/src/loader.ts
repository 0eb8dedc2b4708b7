/**
 * `loadWalletCheckout({ host, nonce })`: the widget's bundle of the one release this package was
 * built against, injected as a classic script with its SRI hash and `crossorigin`, so that the
 * browser runs it only if its bytes are that release's. Once per bundle URL however often, and
 * however concurrently, it is called; and by any number of copies of this package on one page
 * (its ES module and CommonJS builds, two bundles of an app), which share the loads through the
 * window. A failed load is forgotten, so that a later call tries again.
 */
import { diagnose, WalletCheckoutLoadError } from './load-error';
import type { LoadWalletCheckout, PinnedBundle, WalletCheckoutApi } from './types';

const LOADS = '__walletCheckoutLoads';

type PageWindow = Window & { [LOADS]?: Map<string, Promise<WalletCheckoutApi>>; WalletCheckout?: Partial<WalletCheckoutApi> };

/** The bundle's URL on `host`; an error value when `host` is no http(s) URL. */
function bundleUrl(host: string, file: string): string | WalletCheckoutLoadError {
  try {
    const url = new URL(file, host);
    if (url.protocol === 'https:' || url.protocol === 'http:') return url.href;
  } catch {
    // not a URL: the error below
  }
  return new WalletCheckoutLoadError('invalid_host', String(host), `host must be the checkout host's http(s) origin, e.g. https://checkout.example.com; got ${JSON.stringify(host)}.`);
}

function inject(win: PageWindow, url: string, bundle: PinnedBundle, nonce: string | undefined): Promise<WalletCheckoutApi> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.integrity = bundle.integrity;
    script.crossOrigin = 'anonymous';
    script.async = true;
    if (nonce) script.nonce = nonce;
    script.addEventListener('load', () => {
      // Read as the script has just run, before any other copy of the bundle could replace it.
      const api = win.WalletCheckout;
      if (typeof api?.mount === 'function') resolve(api as WalletCheckoutApi);
      else reject(new WalletCheckoutLoadError('bundle_invalid', url, `${url} ran but defined no WalletCheckout.mount.`));
    });
    script.addEventListener('error', () => {
      script.remove();
      void diagnose(url, bundle).then(reject);
    });
    document.head.appendChild(script);
  });
}

export function createLoader(bundle: PinnedBundle): LoadWalletCheckout {
  return (options) => {
    // Server rendering, a worker: no page to load into, and neither global is touched.
    if (typeof window === 'undefined' || typeof document === 'undefined') return Promise.resolve(null);
    const url = bundleUrl(options.host, bundle.file);
    if (typeof url !== 'string') return Promise.reject(url);
    const win = window as PageWindow;
    const loads = (win[LOADS] ??= new Map());
    let load = loads.get(url);
    if (!load) {
      load = inject(win, url, bundle, options.nonce);
      loads.set(url, load);
      load.catch(() => loads.delete(url));
    }
    return load;
  };
}
