/**
 * Public types of the Wallet Checkout widget: mount options, the handle, and the
 * DOM events it dispatches. Published as checkout.d.ts (the build derives it from
 * this file), so this file holds types only and imports nothing.
 */

/** Google's brand guidelines' eight labels; `long` and `short` are Google's legacy names for `buy` and `plain`. */
export type ButtonType = 'book' | 'buy' | 'checkout' | 'donate' | 'order' | 'pay' | 'plain' | 'subscribe' | 'long' | 'short';
export type ButtonColor = 'default' | 'black' | 'white';
export type ButtonSizeMode = 'static' | 'fill';
export type Theme = 'light' | 'dark';
/**
 * A language the widget speaks: the tag of one of its dictionaries (docs/embedding.md lists them:
 * 'en', 'pt', 'pt-PT', 'zh-Hant', ...). A string, so that adding a language is adding its dictionary.
 */
export type SupportedLocale = string;

export interface MountOptions {
  /** The session's client secret, `cs_..._secret_...`. Required. */
  clientSecret: string;
  /**
   * The `public_view` of the session's creation reply (POST /api/sessions), as your server got it:
   * the widget then shows the button at once instead of asking the backend for it first, and
   * checks it in the background. What it shows is all it changes: the amount charged is the
   * session's, on the backend (docs/embedding.md). Ignored unless it is this session's view.
   */
  sessionView?: object;
  /** Origin (or base URL) of the checkout backend. Default: where checkout.js was loaded from. */
  apiBase?: string;
  /**
   * BCP 47 tag of the widget's language and number format, e.g. 'fr-CA'. Default: the nearest
   * `lang` attribute around the mount element (usually `<html lang>`), then the browser's
   * languages in order, then English; a tag the widget does not speak is passed over for the next
   * (docs/embedding.md, "Languages").
   */
  locale?: string;
  buttonType?: ButtonType;
  buttonColor?: ButtonColor;
  /**
   * Language of the Google Pay button, one of Google's (`buttonLocale`), e.g. 'en', 'fr'. Default:
   * the widget's language (pt-PT -> pt, zh-Hant -> zh, sr-Latn -> sr), or none, so that Google
   * uses the browser's, when Google's list lacks it (he, hu, ro, vi).
   */
  buttonLocale?: string;
  /** Corner radius of the button, in px (0 to 100). */
  buttonRadius?: number;
  buttonSizeMode?: ButtonSizeMode;
  theme?: Theme;
  /**
   * `inline` (default): the widget, and the wallet's script, run in the page. `iframe`: the page
   * gets only a frame from the checkout's origin, which runs the widget and the wallet and
   * relays the same events; for PCI DSS v4 6.4.3, no payment script runs in the page
   * (docs/embedding.md). Fixed at mount: `update` cannot change it, nor `apiBase`, in this mode.
   */
  mode?: 'inline' | 'iframe';
  /**
   * The page's CSP nonce, given to everything the widget injects (its stylesheet, the
   * wallet's script and styles). Default: the nonce of the script tag that loaded checkout.js.
   */
  nonce?: string;
}

export interface CheckoutHandle {
  /** Changes options; a new clientSecret or apiBase restarts the widget. */
  update(options: Partial<MountOptions>): void;
  /** Removes the widget and stops any network activity. */
  unmount(): void;
}

/** `mount(element, options)`: the ESM export and `window.WalletCheckout.mount`. */
export type Mount = (element: HTMLElement, options: MountOptions) => CheckoutHandle;

/**
 * The widget's `data-checkout-state`: one row each in its state table (web/checkout/states.ts,
 * which the compiler holds to exactly these). `authenticating`: the bank's 3-D Secure challenge
 * is open in a dialog over the page. `captured` / `released`: a hold the shopper placed (`paid`)
 * was since captured or released by the merchant's server. `expired`: the session's time ran out
 * unpaid (final: the shopper goes back to the store to start again).
 */
export type CheckoutState = 'loading' | 'ready' | 'processing' | 'authenticating' | 'confirming' | 'paid' | 'captured' | 'released' | 'declined' | 'error' | 'unavailable' | 'expired';

/**
 * `code` of `checkout:error` (docs/embedding.md lists what to do about each):
 * - `invalid_client_secret`: the client secret given to the widget is malformed.
 * - `session_unauthorized`: the backend refused the client secret.
 * - `origin_not_allowed`: this page's origin is not one of the application's allowed origins
 *   (the console says which origin, and how to allow it).
 * - `session_not_found`: no such session (another environment's, or a mistyped secret).
 * - `session_expired`: the session's `expires_at` passed before it was paid; the widget shows its
 *   `expired` state. Create a new session if the shopper wants to pay.
 * - `network_error`: the backend could not be reached, or a chunk of the widget's code (`reason`:
 *   `challenge_unavailable`, the 3-D Secure dialog; `payment_unavailable`, what follows a click, nothing
 *   charged; `frame_unavailable`, iframe mode's side on the page).
 * - `server_error`: the backend answered with an unexpected error.
 * - `store_unavailable`: the backend's database is briefly unavailable (a restart, a failover): try again shortly.
 * - `wallet_unavailable`: the wallet's script could not be loaded.
 * - `wallet_error`: the wallet reported an error (its `statusCode` is in `reason`).
 * - `payment_failed`: the payment service refused the payment; nothing was charged.
 * - `payment_not_completed`: a payment being confirmed turned out not to have happened.
 * - `challenge_blocked`: the page's Content-Security-Policy (`frame-src`) blocked the bank's 3-D Secure
 *   challenge; nothing was charged (`reason`: the blocked origin, to add to `frame-src`).
 */
export type CheckoutErrorCode =
  | 'invalid_client_secret'
  | 'session_unauthorized'
  | 'origin_not_allowed'
  | 'session_not_found'
  | 'session_expired'
  | 'network_error'
  | 'server_error'
  | 'store_unavailable'
  | 'wallet_unavailable'
  | 'wallet_error'
  | 'payment_failed'
  | 'payment_not_completed'
  | 'challenge_blocked';

/** `detail` of each CustomEvent dispatched (bubbling, composed) on the mount element. */
export interface CheckoutEventDetails {
  /**
   * The button is shown. `paymentMethodPresent`: whether the shopper already has a card in
   * Google Pay (isReadyToPay with existingPaymentMethodRequired), null where the wallet
   * cannot say (Google's TEST environment).
   */
  'checkout:ready': { sessionId: string; paymentMethodPresent: boolean | null };
  /** `status`: `succeeded` (charged), or `authorized` (a hold, which the merchant captures later). */
  'checkout:success': { sessionId: string; chargeId: string | null; status: 'succeeded' | 'authorized' };
  /** `code` and `message`: the payment service's failure code and (English) reason. */
  'checkout:decline': { sessionId: string; chargeId: string | null; code: string | null; message: string };
  /**
   * `message`: what the shopper was shown, in the widget's language. `reason`: the
   * backend's or the wallet's own code, for your logs (null when there is none).
   */
  'checkout:error': { sessionId: string | null; code: CheckoutErrorCode; reason: string | null; message: string };
  'checkout:cancel': { sessionId: string };
}
export type CheckoutEventName = keyof CheckoutEventDetails;
export type CheckoutEvent<K extends CheckoutEventName = CheckoutEventName> = CustomEvent<CheckoutEventDetails[K]>;
