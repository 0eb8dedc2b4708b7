/**
 * Why the bundle did not load. A script's `error` event says nothing of its cause, so after one the
 * loader fetches the bundle itself (CORS, as the script was) and tells a host that no longer serves
 * this release, bytes that do not match the pinned hash, an unreachable host, and a script the page
 * refused to run though its bytes are right (the page's CSP).
 */
import type { PinnedBundle } from './types';

export type LoadErrorCode = 'invalid_host' | 'bundle_unreachable' | 'bundle_not_served' | 'bundle_integrity_mismatch' | 'bundle_refused' | 'bundle_invalid';

export class WalletCheckoutLoadError extends Error {
  override readonly name = 'WalletCheckoutLoadError';

  constructor(
    readonly code: LoadErrorCode,
    /** The bundle's URL (the host as given, for `invalid_host`). */
    readonly url: string,
    message: string,
  ) {
    super(`Wallet Checkout: ${message}`);
  }
}

const base64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)));

export async function diagnose(url: string, bundle: PinnedBundle): Promise<WalletCheckoutLoadError> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'omit' });
  } catch {
    return new WalletCheckoutLoadError('bundle_unreachable', url, `${url} could not be fetched: the checkout host is unreachable, or the page's Content-Security-Policy does not allow it (script-src and connect-src).`);
  }
  if (!response.ok) {
    return new WalletCheckoutLoadError(
      'bundle_not_served',
      url,
      `${url} answered HTTP ${response.status}: the checkout host does not serve the release this version of @wallet-checkout/js pins (a host serves the versioned files of its own build only). Install the version of @wallet-checkout/js made for the host's release.`,
    );
  }
  const [algorithm, expected] = bundle.integrity.split('-', 2);
  const digest = algorithm === 'sha384' && globalThis.crypto?.subtle ? base64(await crypto.subtle.digest('SHA-384', await response.arrayBuffer())) : undefined;
  if (digest !== undefined && digest !== expected) {
    return new WalletCheckoutLoadError('bundle_integrity_mismatch', url, `${url} does not match its pinned integrity hash ${bundle.integrity}: the browser refused to run it (the file was altered on the way or on the host). Nothing of it ran.`);
  }
  return new WalletCheckoutLoadError(
    'bundle_refused',
    url,
    `the browser did not run ${url}${digest ? ', though its bytes match the pinned hash' : ''}: the page's Content-Security-Policy may not allow the checkout host in script-src (or the script lacks its nonce)${digest ? '' : ', or its bytes did not match the pinned hash'}.`,
  );
}
