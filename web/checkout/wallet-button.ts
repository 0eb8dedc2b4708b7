/**
 * One <google-pay-button> element. Created by the widget (widget.ts), configured before it
 * connects, and kept for as long as the widget shows a button: the element only reports readiness
 * once per instance, so it is hidden, never re-created, while the widget shows other states. The
 * view (view.ts) puts it in its box once; the widget re-configures it on every change.
 */
import type { PaymentData, PaymentDataRequest } from '../../server/contracts';
import { googleButtonLanguage, googleButtonOptions } from './button-options';
import { paymentMethodPresent } from './readiness';
import type { MountOptions } from './types';
import './register-button';

/** Google's PaymentAuthorizationResult: SUCCESS closes the sheet, ERROR shows `message` in it. */
export interface SheetResult {
  transactionState: 'SUCCESS' | 'ERROR';
  error?: { reason: 'PAYMENT_DATA_INVALID' | 'OTHER_ERROR'; intent: 'PAYMENT_AUTHORIZATION'; message: string };
}

export interface WalletError {
  statusCode?: string;
  statusMessage?: string;
  message?: string;
}

interface GooglePayButtonElement extends HTMLElement {
  environment: string;
  paymentRequest: PaymentDataRequest;
  buttonType?: string;
  buttonColor?: string;
  /** Attribute-backed: null when unset. */
  buttonLocale?: string | null;
  buttonRadius?: number;
  buttonSizeMode?: string;
  onReadyToPayChange?: (r: { isReadyToPay: boolean; isButtonVisible: boolean }) => void;
  onPaymentAuthorized?: (data: PaymentData) => Promise<SheetResult>;
  onLoadPaymentData?: (data: PaymentData) => void;
  onCancel?: (reason: WalletError) => void;
  onError?: (error: WalletError) => void;
}

export interface WalletButtonSettings {
  environment: string;
  paymentRequest: PaymentDataRequest;
  options: MountOptions;
  /** The widget's language (its dictionary's tag): the button's, unless options.buttonLocale says otherwise. */
  language: string;
}

export interface WalletButtonCallbacks {
  /** `paymentMethodPresent`: asked of the wallet alongside the button's own readiness; null where the wallet cannot say. */
  onReady(ready: boolean, paymentMethodPresent: Promise<boolean | null>): void;
  /** The sheet's PAYMENT_AUTHORIZATION callback: the payment is made while the sheet stays open. */
  onPaymentAuthorized(data: PaymentData): Promise<SheetResult>;
  /** The sheet returned: without the callback (a wallet that has none), the payment is made now. */
  onPaymentData(data: PaymentData): void;
  onCancel(): void;
  onError(error: WalletError): void;
}

/**
 * The button's language: the merchant's, else the widget's as Google writes it (pt-PT -> pt), else
 * (he, hu, ro, vi: not on Google's list) none, null as the element reports it, so that Google
 * draws the button in the browser's language, which is the shopper's where Google has it,
 * rather than in a language the widget chose for it and Google lacks.
 */
export const buttonLocale = (s: WalletButtonSettings): string | null => googleButtonOptions(s.options).buttonLocale ?? googleButtonLanguage(s.language) ?? null;

/** Sets what changed: a property set anew restarts the element's debounced set-up. */
export function configureWalletButton(el: HTMLElement, s: WalletButtonSettings): void {
  const button = el as GooglePayButtonElement;
  const set = <K extends keyof GooglePayButtonElement>(key: K, value: GooglePayButtonElement[K]) => {
    if (button[key] !== value) button[key] = value;
  };
  set('environment', s.environment);
  set('paymentRequest', s.paymentRequest);
  const options = googleButtonOptions(s.options);
  set('buttonType', options.buttonType);
  set('buttonColor', options.buttonColor);
  set('buttonSizeMode', options.buttonSizeMode);
  // Attribute-backed: the element reads these back as strings.
  const radius = options.buttonRadius;
  if (String(button.buttonRadius ?? '') !== String(radius ?? '')) button.buttonRadius = radius;
  if (button.buttonLocale !== buttonLocale(s)) button.buttonLocale = buttonLocale(s);
}

/**
 * A configured element, not yet connected. `knowsPaymentMethods`: whether the wallet can say if the
 * shopper has a card in it (existingPaymentMethodRequired), PRODUCTION and the sandbox.
 */
export function createWalletButton(s: WalletButtonSettings, knowsPaymentMethods: boolean, on: WalletButtonCallbacks): HTMLElement {
  const el = document.createElement('google-pay-button') as GooglePayButtonElement;
  // Asked now, while the element sets itself up, rather than after: the button never waits for it.
  const present = knowsPaymentMethods ? paymentMethodPresent(s.environment, s.paymentRequest) : Promise.resolve(null);
  el.onReadyToPayChange = (r) => on.onReady(r.isReadyToPay, present);
  el.onPaymentAuthorized = (data) => on.onPaymentAuthorized(data);
  el.onLoadPaymentData = (data) => on.onPaymentData(data);
  el.onCancel = () => on.onCancel();
  el.onError = (err) => on.onError(err ?? {});
  // The element loads pay.js under this nonce and hands it to pay.js for its own
  // styles. It reads `this.nonce`, which it backs by an attribute; but a page under
  // a header CSP blanks any nonce attribute as its element connects, and the
  // attribute change would restart the element's debounced set-up and lose its
  // mount. An own property carries the nonce without an attribute.
  Object.defineProperty(el, 'nonce', { value: s.options.nonce });
  configureWalletButton(el, s);
  return el;
}
