/**
 * `@wallet-checkout/js` and `@wallet-checkout/js/pure` (the same module): the loader of the one
 * widget release this version pins, and the controller frameworks drive. Importing it starts
 * nothing (docs/decisions.md: "The framework packages").
 */
/// <reference path="./pinned-bundle.d.ts" />
import pinned from 'wallet-checkout:pinned-bundle';
import { controllerFactory } from './controller';
import { createLoader } from './loader';
import type { PinnedBundle } from './types';

/** The widget's release this version loads: its versioned file on the checkout host, and its SRI hash. */
export const bundle: PinnedBundle = { file: pinned.file, integrity: pinned.integrity };

export const loadWalletCheckout = /* @__PURE__ */ createLoader(bundle);

export const createCheckoutController = /* @__PURE__ */ controllerFactory(loadWalletCheckout);

export { WalletCheckoutLoadError, type LoadErrorCode } from './load-error';
export { CHECKOUT_EVENT_NAMES, pickCheckoutOptions } from './options';
export type * from './types';
