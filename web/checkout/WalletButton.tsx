/**
 * Hosts one <google-pay-button> element. The element is created imperatively
 * (its callbacks are properties named on*, which Preact would treat as DOM
 * event listeners) and kept for the component's lifetime: the element only
 * reports readiness once per instance, so it is hidden, never re-created,
 * while the widget shows other states.
 */
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { PaymentData, PaymentDataRequest } from '../../server/contracts';
import { googleButtonOptions } from './button-options';
import { paymentMethodPresent } from './readiness';
import { BUTTON_ELEMENT_CSS } from './styles';
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
  buttonLocale?: string;
  buttonRadius?: number;
  buttonSizeMode?: string;
  onReadyToPayChange?: (r: { isReadyToPay: boolean; isButtonVisible: boolean }) => void;
  onPaymentAuthorized?: (data: PaymentData) => Promise<SheetResult>;
  onLoadPaymentData?: (data: PaymentData) => void;
  onCancel?: (reason: WalletError) => void;
  onError?: (error: WalletError) => void;
}

export interface WalletButtonProps {
  environment: string;
  paymentRequest: PaymentDataRequest;
  options: MountOptions;
  /** The widget's language (primary subtag): the button's, unless options.buttonLocale says otherwise. */
  language: string;
  hidden: boolean;
  /** Whether the wallet can say if the shopper has a card in it (existingPaymentMethodRequired): PRODUCTION and the sandbox. */
  knowsPaymentMethods: boolean;
  /** `paymentMethodPresent`: asked of the wallet alongside the button's own readiness; null where the wallet cannot say. */
  onReady(ready: boolean, paymentMethodPresent: Promise<boolean | null>): void;
  /** The sheet's PAYMENT_AUTHORIZATION callback: the payment is made while the sheet stays open. */
  onPaymentAuthorized(data: PaymentData): Promise<SheetResult>;
  /** The sheet returned: without the callback (a wallet that has none), the payment is made now. */
  onPaymentData(data: PaymentData): void;
  onCancel(): void;
  onError(error: WalletError): void;
}

const buttonLocale = (p: WalletButtonProps) => googleButtonOptions(p.options).buttonLocale ?? p.language;

function configure(el: GooglePayButtonElement, p: WalletButtonProps): void {
  const set = <K extends keyof GooglePayButtonElement>(key: K, value: GooglePayButtonElement[K]) => {
    if (el[key] !== value) el[key] = value;
  };
  set('environment', p.environment);
  set('paymentRequest', p.paymentRequest);
  const button = googleButtonOptions(p.options);
  set('buttonType', button.buttonType);
  set('buttonColor', button.buttonColor);
  set('buttonSizeMode', button.buttonSizeMode);
  // Attribute-backed: the element reads these back as strings.
  const radius = button.buttonRadius;
  if (String(el.buttonRadius ?? '') !== String(radius ?? '')) el.buttonRadius = radius;
  if (el.buttonLocale !== buttonLocale(p)) el.buttonLocale = buttonLocale(p);
}

export function WalletButton(props: WalletButtonProps) {
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<GooglePayButtonElement | null>(null);
  const latest = useRef(props);
  latest.current = props;

  useLayoutEffect(() => {
    const el = document.createElement('google-pay-button') as GooglePayButtonElement;
    // Asked now, while the element sets itself up, rather than after: the button never waits for it.
    const present = props.knowsPaymentMethods ? paymentMethodPresent(props.environment, props.paymentRequest) : Promise.resolve(null);
    el.onReadyToPayChange = (r) => latest.current.onReady(r.isReadyToPay, present);
    el.onPaymentAuthorized = (data) => latest.current.onPaymentAuthorized(data);
    el.onLoadPaymentData = (data) => latest.current.onPaymentData(data);
    el.onCancel = () => latest.current.onCancel();
    el.onError = (err) => latest.current.onError(err ?? {});
    // The element loads pay.js under this nonce and hands it to pay.js for its own
    // styles. It reads `this.nonce`, which it backs by an attribute; but a page under
    // a header CSP blanks any nonce attribute as its element connects, and the
    // attribute change would restart the element's debounced set-up and lose its
    // mount. An own property carries the nonce without an attribute.
    Object.defineProperty(el, 'nonce', { value: props.options.nonce });
    configure(el, props);
    button.current = el;
    box.current?.appendChild(el);
    return () => {
      el.remove();
      button.current = null;
    };
  }, []);

  useLayoutEffect(() => {
    if (button.current) configure(button.current, props);
  });

  const fill = props.options.buttonSizeMode === 'fill';
  return (
    <>
      {/*
        The element injects its default styles as a nonce-less <style> (which a strict
        CSP refuses) unless its root already holds an element with this id: this one
        carries the same rules, under the page's nonce.
      */}
      <style id={`default-google-style-google-pay-button-${buttonLocale(props)}`} nonce={props.options.nonce}>
        {BUTTON_ELEMENT_CSS}
      </style>
      <div ref={box} class={fill ? 'wallet fill' : 'wallet'} hidden={props.hidden} />
    </>
  );
}
