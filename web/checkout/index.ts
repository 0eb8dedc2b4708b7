/**
 * ESM entry (dist/web/checkout.mjs):
 *   import { mount } from 'https://CHECKOUT_HOST/checkout.mjs';
 *   const handle = mount(document.querySelector('#pay'), { clientSecret });
 * apiBase defaults to the origin this module was loaded from. A module can't
 * see its script tag, so a page under a strict CSP passes `nonce` itself.
 */
import { setChunkBase } from './chunks';
import { setEntryDefaults } from './mount';

try {
  const url = new URL(import.meta.url);
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    setEntryDefaults({ apiBase: url.origin });
    setChunkBase(url.href);
  }
} catch {
  // not a URL (e.g. bundled by the merchant): fall back to location.origin
}

export { mount } from './mount';
export type {
  ButtonColor,
  ButtonSizeMode,
  ButtonType,
  CheckoutErrorCode,
  CheckoutEvent,
  CheckoutEventDetails,
  CheckoutEventName,
  CheckoutHandle,
  CheckoutState,
  Mount,
  MountOptions,
  SupportedLocale,
  Theme,
} from './types';
