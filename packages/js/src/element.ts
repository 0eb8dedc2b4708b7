/**
 * `@wallet-checkout/js/element`: `<wallet-checkout client-secret="..." host="...">`, the widget as an
 * HTML element, over the same controller as every framework's. Its attributes are the options
 * (kebab-cased), read again whenever one changes; the widget mounts in the element, so its events
 * (`checkout:ready`, `checkout:success`, ...) are dispatched on the element and bubble from it, and
 * a bundle that cannot load is a `checkout:error` there too. Importing this entry defines the
 * element where there are custom elements (not on a server), once.
 */
import { createCheckoutController, pickCheckoutOptions } from '@wallet-checkout/js';
import type { CheckoutOptions, MountOptions } from '@wallet-checkout/js';

export const ELEMENT_NAME = 'wallet-checkout';

/** Each attribute and the option it sets; `nonce` is read from the element's `nonce` property instead (a header CSP blanks the attribute). */
const ATTRIBUTES = {
  'client-secret': 'clientSecret',
  host: 'host',
  'api-base': 'apiBase',
  locale: 'locale',
  theme: 'theme',
  mode: 'mode',
  'button-type': 'buttonType',
  'button-color': 'buttonColor',
  'button-locale': 'buttonLocale',
  'button-radius': 'buttonRadius',
  'button-size-mode': 'buttonSizeMode',
  'session-view': 'sessionView',
} as const satisfies Record<string, keyof CheckoutOptions>;

/** The options the element's attributes give, each checked where the widget uses it (as the script tag's are). */
function optionsOf(element: HTMLElement): CheckoutOptions {
  const given: Record<string, unknown> = { nonce: element.nonce || undefined };
  for (const [attribute, key] of Object.entries(ATTRIBUTES)) given[key] = element.getAttribute(attribute) ?? undefined;
  const radius = Number(given.buttonRadius ?? Number.NaN);
  given.buttonRadius = Number.isFinite(radius) ? radius : undefined;
  if (typeof given.sessionView === 'string') {
    try {
      given.sessionView = JSON.parse(given.sessionView) as MountOptions['sessionView'];
    } catch {
      console.error('<wallet-checkout>: session-view is not JSON; the widget asks the backend for the session instead.');
      given.sessionView = undefined;
    }
  }
  return pickCheckoutOptions(given as CheckoutOptions);
}

/** The element's class, made only where HTMLElement exists. */
function elementClass(): CustomElementConstructor {
  return class WalletCheckoutElement extends HTMLElement {
    static readonly observedAttributes = Object.keys(ATTRIBUTES);
    readonly #controller = createCheckoutController();

    connectedCallback() {
      this.#controller.setOptions(optionsOf(this));
      this.#controller.attach(this);
    }

    disconnectedCallback() {
      this.#controller.detach();
    }

    attributeChangedCallback() {
      this.#controller.setOptions(optionsOf(this));
    }
  };
}

/** The element has no API of its own beyond its attributes and events. */
export type WalletCheckoutElement = HTMLElement;

if (typeof customElements !== 'undefined' && !customElements.get(ELEMENT_NAME)) customElements.define(ELEMENT_NAME, elementClass());

declare global {
  interface HTMLElementTagNameMap {
    'wallet-checkout': WalletCheckoutElement;
  }
}
