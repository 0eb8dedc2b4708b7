/**
 * The controller's options, key by key: which a change of needs a new widget, how two values are
 * compared, and how a framework's props become options (every key present, so that a prop taken
 * away clears its option).
 */
import type { CheckoutEventName, CheckoutOptions } from './types';

/** A record, not a list: the compiler holds it to every option there is. */
const REMOUNTS: Record<keyof CheckoutOptions, boolean> = {
  host: true,
  clientSecret: true,
  // Fixed at mount by the widget itself (iframe mode's frame, the stylesheet's nonce).
  mode: true,
  apiBase: true,
  nonce: true,
  sessionView: false,
  locale: false,
  theme: false,
  buttonType: false,
  buttonColor: false,
  buttonLocale: false,
  buttonRadius: false,
  buttonSizeMode: false,
};

export const OPTION_KEYS = /* @__PURE__ */ Object.keys(REMOUNTS) as (keyof CheckoutOptions)[];

/** Likewise every event the widget dispatches (web/checkout/types.ts). */
const EVENTS: Record<CheckoutEventName, true> = { 'checkout:ready': true, 'checkout:success': true, 'checkout:decline': true, 'checkout:error': true, 'checkout:cancel': true };

export const CHECKOUT_EVENT_NAMES = /* @__PURE__ */ Object.keys(EVENTS) as CheckoutEventName[];

/** Every option of `source` (props, attributes), `undefined` where it has none. */
export function pickCheckoutOptions(source: CheckoutOptions): CheckoutOptions {
  return Object.fromEntries(OPTION_KEYS.map((key) => [key, source[key]]));
}

/**
 * Equal options: the same primitive, or objects with the same JSON (the session view is data, and
 * an inline object in a framework's template is a new one each render).
 */
const same = (a: unknown, b: unknown) => Object.is(a, b) || (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null && JSON.stringify(a) === JSON.stringify(b));

/** The options of `next` that differ from `current`. */
export function changedOptions(current: CheckoutOptions, next: CheckoutOptions): CheckoutOptions {
  return Object.fromEntries(OPTION_KEYS.filter((key) => key in next && !same(current[key], next[key])).map((key) => [key, next[key]]));
}

export const needsRemount = (changes: CheckoutOptions) => OPTION_KEYS.some((key) => REMOUNTS[key] && key in changes);
