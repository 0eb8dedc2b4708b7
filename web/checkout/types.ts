/** Public types of the widget: mount options, the handle, and the DOM events it dispatches. */

export type ButtonType = 'book' | 'buy' | 'checkout' | 'donate' | 'order' | 'pay' | 'plain' | 'subscribe' | 'long' | 'short';
export type ButtonColor = 'default' | 'black' | 'white';
export type ButtonSizeMode = 'static' | 'fill';
export type Theme = 'light' | 'dark';

export interface MountOptions {
  /** The session's client secret, `cs_..._secret_...`. Required. */
  clientSecret: string;
  /** Origin (or base URL) of the checkout backend. Default: where checkout.js was loaded from. */
  apiBase?: string;
  buttonType?: ButtonType;
  buttonColor?: ButtonColor;
  /** Locale of the Google Pay button and of the amount, e.g. 'en', 'fr'. Default: the browser's. */
  buttonLocale?: string;
  /** Corner radius of the button, in px. */
  buttonRadius?: number;
  buttonSizeMode?: ButtonSizeMode;
  theme?: Theme;
}

export interface CheckoutHandle {
  /** Changes options; a new clientSecret or apiBase restarts the widget. */
  update(options: Partial<MountOptions>): void;
  /** Removes the widget and stops any network activity. */
  unmount(): void;
}

export type CheckoutState = 'loading' | 'ready' | 'processing' | 'paid' | 'declined' | 'error' | 'unavailable' | 'confirming';

/** `detail` of each CustomEvent dispatched (bubbling, composed) on the mount element. */
export interface CheckoutEventDetails {
  'checkout:ready': { sessionId: string };
  'checkout:success': { sessionId: string; chargeId: string | null; status: 'succeeded' };
  'checkout:decline': { sessionId: string; chargeId: string | null; code: string | null; message: string };
  'checkout:error': { sessionId: string | null; code: string; message: string };
  'checkout:cancel': { sessionId: string };
}
export type CheckoutEventName = keyof CheckoutEventDetails;
export type CheckoutEvent<K extends CheckoutEventName = CheckoutEventName> = CustomEvent<CheckoutEventDetails[K]>;
